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
