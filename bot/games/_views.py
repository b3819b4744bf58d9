"""Buttons and the answer modal. Callbacks only hand over to the cog's handlers.

The buttons are `DynamicItem`s whose custom_id carries the game (and round)
or challenge id, so a message posted before a restart still works after it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import locale_of, t

if TYPE_CHECKING:
    from bot.games._cog import GamesCog

COG_NAME = "Games"


def _cog(interaction: discord.Interaction[Any]) -> GamesCog:
    cog = interaction.client.get_cog(COG_NAME)
    if cog is None:
        raise RuntimeError("the Games cog is not loaded")
    return cog  # type: ignore[no-any-return]


def _label(item: discord.ui.Item[Any], default: str) -> str:
    return str(getattr(item, "label", None) or default)


async def _guarded(interaction: discord.Interaction[Any], handler: Any, *args: Any) -> None:
    """Run a cog handler; an unexpected failure still gets the user a polite reply."""
    cog = _cog(interaction)
    try:
        await getattr(cog, handler)(interaction, *args)
    except Exception as error:
        await cog.report_error(interaction, error)


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
        await _guarded(interaction, "open_answer_modal", self.game_id, self.round_number)


class AnswerModal(discord.ui.Modal):
    """One text input: the formula. Shows the round's Digits in its title.

    Its custom_id stays random: discord.py keys open modals by it, and both
    players of a duel answer the same round at once.
    """

    def __init__(
        self, game_id: str, round_number: int, digits: str, locale: str, timeout: float
    ) -> None:
        super().__init__(
            title=t("games.modal.title", locale, number=round_number, digits=digits)[:45],
            timeout=timeout,
        )
        self.game_id = game_id
        self.round_number = round_number
        self.formula: discord.ui.TextInput[AnswerModal] = discord.ui.TextInput(
            label=t("games.modal.label", locale)[:45],
            placeholder=t("games.modal.placeholder", locale, digits=digits)[:100],
            max_length=256,
            custom_id="formula",
        )
        self.add_item(self.formula)

    async def on_submit(self, interaction: discord.Interaction[Any]) -> None:
        await _cog(interaction).handle_answer(
            interaction, self.game_id, self.round_number, self.formula.value
        )

    async def on_error(  # type: ignore[override]  # a Modal's on_error has no item
        self, interaction: discord.Interaction[Any], error: Exception
    ) -> None:
        await _cog(interaction).report_error(interaction, error)


class ChallengeButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"fd:duel:(?P<action>yes|no):(?P<challenge>[0-9a-f]{32})",
):
    """Accept or decline a duel challenge; only the challenged player may."""

    def __init__(self, action: str, challenge_id: str, label: str | None = None) -> None:
        accept = action == "yes"
        super().__init__(
            discord.ui.Button(
                label=label or ("Accept" if accept else "Decline"),
                style=discord.ButtonStyle.success if accept else discord.ButtonStyle.secondary,
                custom_id=f"fd:duel:{action}:{challenge_id}",
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
        return cls(match["action"], match["challenge"], _label(item, ""))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        handler = "accept_challenge" if self.action == "yes" else "decline_challenge"
        await _guarded(interaction, handler, self.challenge_id)


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
        await _guarded(interaction, "rematch", self.game_id)


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (
    AnswerButton,
    ChallengeButton,
    RematchButton,
)


def answer_view(game_id: str, round_number: int, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(AnswerButton(game_id, round_number, t("games.button.answer", locale)))
    return view


def challenge_view(challenge_id: str, locale: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ChallengeButton("yes", challenge_id, t("duel.button.accept", locale)))
    view.add_item(ChallengeButton("no", challenge_id, t("duel.button.decline", locale)))
    return view


def rematch_view(game_id: str, locale: str, *, disabled: bool = False) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(game_id, t("duel.button.rematch", locale), disabled=disabled))
    return view


def interaction_locale(interaction: discord.Interaction[Any]) -> str:
    return locale_of(interaction)
