"""The rooms' buttons and answer modal. Callbacks hand over to the Rooms cog.

Every button is a `DynamicItem` whose custom_id carries the room id (and the round for
Answer), so a lobby or round posted before a restart still works after it. The modal is
sent stopped and handled by its custom_id alone (`parse_room_answer`), like the games'.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Any, Protocol, runtime_checkable

import discord

from bot.common.interactions import loaded_cog, report_unexpected
from bot.i18n import t

COG_NAME = "Rooms"
Interaction = discord.Interaction[Any]


class RoomAct(StrEnum):
    JOIN = "join"
    LEAVE = "leave"
    START = "start"
    ANSWER = "answer"
    QUIT = "quit"
    SHARE = "share"


STYLES = {
    RoomAct.JOIN: discord.ButtonStyle.success,
    RoomAct.START: discord.ButtonStyle.primary,
    RoomAct.ANSWER: discord.ButtonStyle.primary,
}


@runtime_checkable
class RoomControls(Protocol):
    async def on_room_button(
        self, interaction: Interaction, act: RoomAct, room_id: str, round_number: int
    ) -> None: ...


class RoomButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"fd:room:(?P<act>join|leave|start|answer|quit|share):(?P<room>[0-9a-f]{32}):(?P<round>[0-9]+)",
):
    def __init__(self, act: RoomAct, room_id: str, round_number: int, label: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=STYLES.get(act, discord.ButtonStyle.secondary),
                custom_id=f"fd:room:{act.value}:{room_id}:{round_number}",
            )
        )
        self.act, self.room_id, self.round_number = act, room_id, round_number

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RoomButton:
        del interaction
        label = item.label if isinstance(item, discord.ui.Button) else None
        return cls(RoomAct(match["act"]), match["room"], int(match["round"]), label or "")

    async def callback(self, interaction: Interaction) -> None:
        controls = loaded_cog(interaction, COG_NAME)
        if not isinstance(controls, RoomControls):
            raise TypeError(f"the {COG_NAME} cog does not provide RoomControls")
        try:
            await controls.on_room_button(interaction, self.act, self.room_id, self.round_number)
        except Exception as error:
            await report_unexpected(interaction, error)


def buttons(
    room_id: str, locale: str, acts: list[RoomAct], round_number: int = 0
) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for act in acts:
        view.add_item(RoomButton(act, room_id, round_number, t(f"rooms.button.{act}", locale)))
    return view


ANSWER_SUBMIT = re.compile(r"fd:roomf:(?P<room>[0-9a-f]{32}):(?P<round>[0-9]+)")
FORMULA_INPUT = "formula"


class RoomAnswerModal(discord.ui.Modal):
    def __init__(self, room_id: str, round_number: int, digits: str, locale: str) -> None:
        super().__init__(
            title=t("games.modal.title", locale, number=round_number, digits=digits)[:45],
            custom_id=f"fd:roomf:{room_id}:{round_number}",
        )
        self.add_item(
            discord.ui.TextInput(
                label=t("games.modal.label", locale)[:45], max_length=256, custom_id=FORMULA_INPUT
            )
        )
        self.stop()


def parse_room_answer(interaction: Interaction) -> tuple[str, int, str] | None:
    """(room id, round, formula) of a room's answer modal; None for anything else."""
    if interaction.type is not discord.InteractionType.modal_submit:
        return None
    data: Any = interaction.data or {}
    match = ANSWER_SUBMIT.fullmatch(str(data.get("custom_id", "")))
    if match is None:
        return None
    formula = ""
    for row in data.get("components", []):
        for child in [*row.get("components", []), row.get("component") or {}]:
            if child.get("custom_id") == FORMULA_INPUT and isinstance(child.get("value"), str):
                formula = child["value"]
    return match["room"], int(match["round"]), formula
