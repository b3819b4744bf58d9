"""The Cup's Check in button: a `DynamicItem` whose custom_id carries the Cup's id, so an
announcement posted before a restart still takes check-ins after it. Its callback hands
over to the Cup cog."""

from __future__ import annotations

import re
from typing import Any, Protocol, runtime_checkable

import discord

from bot.common.interactions import loaded_cog, report_unexpected
from bot.i18n import t

COG_NAME = "Cup"
Interaction = discord.Interaction[Any]


@runtime_checkable
class CheckInControls(Protocol):
    async def on_check_in(self, interaction: Interaction, cup_id: int) -> None: ...

    async def on_ready(
        self, interaction: Interaction, cup_id: int, round_: int, slot: int, leg: int
    ) -> None: ...


class CheckInButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"fd:cup:in:(?P<cup>[0-9]{1,20})"
):
    def __init__(self, cup_id: int, label: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=discord.ButtonStyle.success, custom_id=f"fd:cup:in:{cup_id}"
            )
        )
        self.cup_id = cup_id

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> CheckInButton:
        del interaction
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(int(match["cup"]), label or "")

    async def callback(self, interaction: Interaction) -> None:
        controls = loaded_cog(interaction, COG_NAME)
        if not isinstance(controls, CheckInControls):
            raise TypeError(f"the {COG_NAME} cog does not provide CheckInControls")
        try:
            await controls.on_check_in(interaction, self.cup_id)
        except Exception as error:
            await report_unexpected(interaction, error)


def check_in_view(cup_id: int, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(CheckInButton(cup_id, t("cup.button.check_in", locale)))
    return view


def ready_id(cup_id: int, round_: int, slot: int, leg: int) -> str:
    """The custom_id of a leg's Ready button: how the leg's call is found in its thread."""
    return f"fd:cup:ready:{cup_id}:{round_}:{slot}:{leg}"


class ReadyButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"fd:cup:ready:(?P<cup>[0-9]{1,20}):(?P<round>[0-9]{1,2}):(?P<slot>[0-9]{1,3}):(?P<leg>[0-9]{1,3})",
):
    """Ready for one leg of one match: pressed by both players, the leg's duel starts."""

    def __init__(self, cup_id: int, round_: int, slot: int, leg: int, label: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.primary,
                custom_id=ready_id(cup_id, round_, slot, leg),
            )
        )
        self.cup_id, self.round, self.slot, self.leg = cup_id, round_, slot, leg

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ReadyButton:
        del interaction
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(int(match["cup"]), int(match["round"]), int(match["slot"]),
                   int(match["leg"]), label or "")  # fmt: skip

    async def callback(self, interaction: Interaction) -> None:
        controls = loaded_cog(interaction, COG_NAME)
        if not isinstance(controls, CheckInControls):
            raise TypeError(f"the {COG_NAME} cog does not provide CheckInControls")
        try:
            await controls.on_ready(interaction, self.cup_id, self.round, self.slot, self.leg)
        except Exception as error:
            await report_unexpected(interaction, error)


def ready_view(cup_id: int, round_: int, slot: int, leg: int, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ReadyButton(cup_id, round_, slot, leg, t("cup.button.ready", locale)))
    return view
