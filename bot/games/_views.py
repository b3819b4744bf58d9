"""Buttons and the answer modal. Callbacks only hand over to the cog's handlers.

The buttons are `DynamicItem`s whose custom_id carries the game (and round)
or challenge id, so a message posted before a restart still works after it.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from enum import StrEnum
from typing import Any, Protocol, runtime_checkable

import discord

from bot.common.interactions import loaded_cog, report_unexpected
from bot.i18n import FormulaTexts, t

COG_NAME = "GameControls"
"""The cog whose handlers the buttons and the modal call (it provides GameControls)."""
Interaction = discord.Interaction[Any]


@runtime_checkable
class GameControls(Protocol):
    """What the buttons and the modal need from the games cog: one handler per control."""

    async def open_answer_modal(
        self, interaction: Interaction, game_id: str, round_number: int
    ) -> None: ...

    async def handle_answer(
        self, interaction: Interaction, game_id: str, round_number: int | None, formula: str
    ) -> None: ...

    async def accept_challenge(self, interaction: Interaction, challenge_id: str) -> None: ...

    async def decline_challenge(self, interaction: Interaction, challenge_id: str) -> None: ...

    async def cancel_challenge(self, interaction: Interaction, challenge_id: str) -> None: ...

    async def rematch(self, interaction: Interaction, game_id: str) -> None: ...

    async def share(self, interaction: Interaction, game_id: str) -> None: ...

    async def report_error(self, interaction: Interaction, error: BaseException) -> None: ...


def _label(item: discord.ui.Item[Any], default: str) -> str:
    label = item.label if isinstance(item, discord.ui.Button) else None
    return str(label or default)


async def _guarded(
    interaction: Interaction, act: Callable[[GameControls], Awaitable[None]]
) -> None:
    """Run a handler; an unexpected failure still gets the user a polite reply."""
    controls = loaded_cog(interaction, COG_NAME)
    if not isinstance(controls, GameControls):
        raise TypeError(f"the {COG_NAME} cog does not provide GameControls")
    try:
        await act(controls)
    except Exception as error:
        await controls.report_error(interaction, error)


class ChallengeAnswer(StrEnum):
    """The buttons under a challenge, as their custom_id spells them."""

    ACCEPT = "yes"
    DECLINE = "no"
    CANCEL = "cancel"


class AnswerButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"fd:ans:(?P<game>[0-9a-f]{32}):(?P<round>[0-9]+)",
):
    """Opens the answer modal for one round of one game."""

    def __init__(self, game_id: str, round_number: int, label: str = "Answer") -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                emoji="🎯",
                style=discord.ButtonStyle.primary,
                custom_id=f"fd:ans:{game_id}:{round_number}",
            )
        )
        self.game_id = game_id
        self.round_number = round_number

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: Any,
        /,
    ) -> AnswerButton:
        return cls(match["game"], int(match["round"]), _label(item, "Answer"))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _guarded(
            interaction,
            lambda c: c.open_answer_modal(interaction, self.game_id, self.round_number),
        )


ANSWER_SUBMIT = re.compile(r"fd:formula:(?P<game>[0-9a-f]{32}):(?P<round>[0-9]+)")
FORMULA_INPUT = "formula"


class AnswerModal(discord.ui.Modal):
    """One text input: the formula. Shows the round's Digits in its title.

    Its custom_id carries the game and the round, and it is sent already stopped, so
    discord.py does not keep it: its submit is handled by custom_id alone
    (`parse_answer_submit`), the same before and after a restart.
    """

    def __init__(
        self, game_id: str, round_number: int, digits: str, locale: str, timeout: float,
        texts: FormulaTexts,
    ) -> None:  # fmt: skip
        example = texts.example  # the Set's language's
        super().__init__(
            title=t("games.modal.title", locale, number=round_number, digits=digits)[:45],
            timeout=timeout,
            custom_id=f"fd:formula:{game_id}:{round_number}",
        )
        self.formula: discord.ui.TextInput[AnswerModal] = discord.ui.TextInput(
            label=t("games.modal.label", locale)[:45],
            placeholder=t("games.modal.placeholder", locale, digits=digits, call=example)[:100],
            max_length=256,
            custom_id=FORMULA_INPUT,
        )
        self.add_item(self.formula)
        self.stop()


def _input_value(components: Any, custom_id: str) -> str | None:
    """The value of the text input `custom_id` anywhere in a modal submit's components."""
    if isinstance(components, list):
        for child in components:
            found = _input_value(child, custom_id)
            if found is not None:
                return found
    elif isinstance(components, dict):
        if components.get("custom_id") == custom_id and isinstance(components.get("value"), str):
            return str(components["value"])
        for key in ("components", "component"):
            if key in components:
                found = _input_value(components[key], custom_id)
                if found is not None:
                    return found
    return None


def parse_answer_submit(interaction: Interaction) -> tuple[str, int, str] | None:
    """(game id, round, formula) of an answer modal's submit; None for anything else."""
    if interaction.type is not discord.InteractionType.modal_submit:
        return None
    data: Any = interaction.data or {}
    match = ANSWER_SUBMIT.fullmatch(str(data.get("custom_id", "")))
    if match is None:
        return None
    formula = _input_value(data.get("components", []), FORMULA_INPUT) or ""
    return match["game"], int(match["round"]), formula


class ChallengeButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"fd:duel:(?P<action>yes|no|cancel):(?P<challenge>[0-9a-f]{32})",
):
    """Accept or decline a duel challenge (the challenged player), or cancel it (the challenger)."""

    def __init__(
        self, action: ChallengeAnswer, challenge_id: str, label: str | None = None
    ) -> None:
        accept = action is ChallengeAnswer.ACCEPT
        super().__init__(
            discord.ui.Button(
                label=label or action.name.title(),
                style=discord.ButtonStyle.success if accept else discord.ButtonStyle.secondary,
                custom_id=f"fd:duel:{action.value}:{challenge_id}",
            )
        )
        self.action = action
        self.challenge_id = challenge_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: Any,
        /,
    ) -> ChallengeButton:
        return cls(ChallengeAnswer(match["action"]), match["challenge"], _label(item, ""))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        challenge_id = self.challenge_id
        if self.action is ChallengeAnswer.ACCEPT:
            await _guarded(interaction, lambda c: c.accept_challenge(interaction, challenge_id))
        elif self.action is ChallengeAnswer.DECLINE:
            await _guarded(interaction, lambda c: c.decline_challenge(interaction, challenge_id))
        else:
            await _guarded(interaction, lambda c: c.cancel_challenge(interaction, challenge_id))


class RematchButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"fd:rematch:(?P<game>[0-9a-f]{32})",
):
    def __init__(self, game_id: str, label: str = "Rematch", *, disabled: bool = False) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, emoji="🔁", style=discord.ButtonStyle.primary,
                custom_id=f"fd:rematch:{game_id}", disabled=disabled,
            )
        )  # fmt: skip
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: Any,
        /,
    ) -> RematchButton:
        return cls(match["game"], _label(item, "Rematch"))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _guarded(interaction, lambda c: c.rematch(interaction, self.game_id))


class ShareButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"fd:share:(?P<game>[0-9a-f]{32})",
):
    """Posts the presser's spoiler-free share card of a finished game to its channel."""

    def __init__(self, game_id: str, label: str = "Share") -> None:
        super().__init__(
            discord.ui.Button(
                label=label, emoji="📣", style=discord.ButtonStyle.secondary,
                custom_id=f"fd:share:{game_id}",
            )
        )  # fmt: skip
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: Any,
        /,
    ) -> ShareButton:
        return cls(match["game"], _label(item, "Share"))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await _guarded(interaction, lambda c: c.share(interaction, self.game_id))


@runtime_checkable
class QualificationStarter(Protocol):
    """What the daily post's Play button needs from the games cog."""

    async def start_qualification(self, interaction: Interaction, set_name: str) -> None: ...


GAMES_COG = "Games"


class QualificationButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"fd:qual:(?P<set>[a-z0-9_-]{1,32})(?::(?P<day>[0-9]{4}-[0-9]{2}-[0-9]{2}))?",
):
    """Starts the clicker's Qualification of a Set, as /qualification does (the daily post
    carries it; its custom_id names the Set, so it works after a restart). A daily post's
    button also names the day it sums up: the bot finds its own post by it, where no player
    reads it."""

    def __init__(self, set_name: str, label: str = "Play", day: str | None = None) -> None:
        custom_id = f"fd:qual:{set_name}" if day is None else f"fd:qual:{set_name}:{day}"
        super().__init__(
            discord.ui.Button(label=label, custom_id=custom_id, style=discord.ButtonStyle.primary)
        )
        self.set_name = set_name

    @classmethod
    async def from_custom_id(
        cls, interaction: Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> QualificationButton:
        del interaction
        return cls(match["set"], _label(item, "Play"), match["day"])

    async def callback(self, interaction: Interaction) -> None:
        games = loaded_cog(interaction, GAMES_COG)
        if not isinstance(games, QualificationStarter):
            raise TypeError(f"the {GAMES_COG} cog does not start Qualifications")
        try:
            await games.start_qualification(interaction, self.set_name)
        except Exception as error:
            await report_unexpected(interaction, error)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    AnswerButton,
    ChallengeButton,
    RematchButton,
    ShareButton,
    QualificationButton,
)


def sent(view: discord.ui.View) -> discord.ui.View:
    """`view` to send and forget. Every button of a game message is a DynamicItem the
    bot dispatches by its custom_id (`DYNAMIC_ITEMS`), so discord.py need keep no View
    per message: a stopped View is serialized as any other, but never stored (every
    `store_view` of discord.py asks `is_finished`), and so never gets the 15-minute
    timeout task of an ephemeral message (issue 28: 8 per private Training)."""
    view.stop()
    return view


def answer_view(game_id: str, round_number: int, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(AnswerButton(game_id, round_number, t("games.button.answer", locale)))
    return sent(view)


def challenge_view(challenge_id: str, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for action in ChallengeAnswer:
        label = t(f"duel.button.{action.name.lower()}", locale)
        view.add_item(ChallengeButton(action, challenge_id, label))
    return sent(view)


def summary_view(game_id: str, locale: str) -> discord.ui.View:
    """Under the last summary message of every game: Share."""
    view = discord.ui.View(timeout=None)
    view.add_item(ShareButton(game_id, t("share.button", locale)))
    return sent(view)


def rematch_view(game_id: str, locale: str, *, disabled: bool = False) -> discord.ui.View:
    """A duel's summary: Rematch, then Share (kept when Rematch is disabled)."""
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(game_id, t("duel.button.rematch", locale), disabled=disabled))
    view.add_item(ShareButton(game_id, t("share.button", locale)))
    return sent(view)
