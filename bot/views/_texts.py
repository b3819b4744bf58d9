"""The words of a stored result, in the reader's language: a Qualification's ranking, a
game from one player's side, a Set version. Plain text, so Discord's embeds and the web's
pages say the same thing; nothing here imports discord.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot.common import fmt
from bot.i18n import t
from bot.storage import GameRecord
from bot.views._void import VOID_REASON_MAX, void_text, voided
from rules import FormulaLanguage, Termination


def ranking_result(
    rank_class: int,
    rounds: int,
    score: float,
    perfect: bool,
    locale: str,
    termination: str = "",
    *,
    lang: FormulaLanguage,
) -> str:
    """A Qualification result the way RULES.md ranks it; a loss says how it was lost.
    The Score left is written as the Set's language `lang` prints it."""
    if rank_class == 0:
        key = "perfect" if perfect else "checkout"
        return t(f"leaderboards.qualification.{key}", locale, rounds=rounds)
    if rank_class == 1:
        left = fmt(score, lang)
        return t("leaderboards.qualification.finished", locale, rounds=rounds, score=left)
    if termination == Termination.RESIGN.value:
        return t("leaderboards_extra.qualification.resigned", locale, rounds=rounds)
    if termination == Termination.TIMEOUT.value:
        return t("leaderboards_extra.qualification.timeout", locale, rounds=rounds)
    return t("leaderboards.qualification.lost", locale, rounds=rounds)


def version_label(version: str, current: bool, locale: str, numbers: Mapping[str, int]) -> str:
    """How a Set version reads: its number on the server (`numbers`, from
    `BoardStore.set_version_numbers`; its id is ten hex digits no player reads), or what ""
    stands for. A version not played yet comes after every played one."""
    if not version:
        return t("leaderboards_extra.qualification.version_legacy", locale)
    key = "version_current" if current else "version"
    return t(f"details.{key}", locale, number=numbers.get(version, len(numbers) + 1))


def game_result(record: GameRecord, player: str, locale: str) -> str:
    """One game's result from one player's side, for the history list."""
    state = record.state
    result = state.outcome
    if result is None:
        return t("leaderboards.history.playing", locale, rounds=max(len(state.rounds), 1))
    seat = state.players.index(player) if player in state.players else 0
    if voided(record):
        return void_text(record, locale, VOID_REASON_MAX)
    if state.mode.is_duel:
        if result.winner is None:
            return t("leaderboards.history.draw", locale)
        won = result.winner == seat
        return t(f"leaderboards.history.{'win' if won else 'loss'}", locale)
    rank_class = (
        2
        if result.termination in (Termination.TIMEOUT, Termination.RESIGN)
        else (0 if result.termination is Termination.CHECKOUT else 1)
    )
    return ranking_result(
        rank_class,
        result.rounds,
        float(state.scores[0]),
        result.perfect,
        locale,
        result.termination.value,
        lang=state.game_set.language,
    )
