"""The share card: how a game went, told so that it spoils nothing.

A player shares it while others have still to play the same Qualification, so the
card holds no Digits, no formula and no Result: only the Set, the mode, the day,
the outcome and one emoji per round. The emoji says how good the round's points
were against the Set's Goal G (points are |G − |Result − G||, at most G before
the bonus, unless the Result is far away):

| emoji | mark | when (first that applies) |
|---|---|---|
| ❌ | no answer | no formula: a single game's time ran out, or the game was resigned |
| 🤖 | auto-move | a duel's auto-move at the deadline |
| ✅ | Score 0 | the round that brought the Score to 0 |
| 🎯 | Goal (bonus) | the points before the bonus equal G, so the bonus was given |
| 🟢 | near | the points miss G by at most G/10 |
| 🟡 | halfway | by at most G/2 |
| 🔴 | far | by more |
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, tzinfo
from enum import StrEnum
from fractions import Fraction
from typing import assert_never

from babel.dates import format_date

from bot.common import fmt, set_label
from bot.i18n import normalize_locale, t
from bot.storage import GameRecord
from rules import Answer, GameSet, GameState, Termination, is_zero, round_points


class Mark(StrEnum):
    NO_ANSWER = "no_answer"
    AUTO = "auto"
    CHECKOUT = "checkout"
    BONUS = "bonus"
    NEAR = "near"
    MID = "mid"
    FAR = "far"


EMOJI: dict[Mark, str] = {
    Mark.CHECKOUT: "✅",
    Mark.BONUS: "🎯",
    Mark.NEAR: "🟢",
    Mark.MID: "🟡",
    Mark.FAR: "🔴",
    Mark.AUTO: "🤖",
    Mark.NO_ANSWER: "❌",
}
"""The fixed legend, in the order it is printed. Single code points, no variation
selectors: each is one emoji on every client."""

NEAR_MISS = Fraction(1, 10)
MID_MISS = Fraction(1, 2)
ROW = 10
"""Emoji per line: a 50-round game is five short rows, not one that wraps anywhere."""


def round_mark(answer: Answer | None, game_set: GameSet) -> Mark:
    """What one round's answer earns on the card (the table in the module's docstring)."""
    if answer is None:
        return Mark.NO_ANSWER
    if answer.auto:
        return Mark.AUTO
    if is_zero(answer.score):
        return Mark.CHECKOUT
    goal = game_set.goal
    numbers = game_set.language_rules
    before_bonus = round_points(answer.result, goal, 0, numbers=numbers)
    if numbers.equal(before_bonus, goal):
        return Mark.BONUS
    miss = abs(float(before_bonus) - goal)
    if miss <= goal * NEAR_MISS:
        return Mark.NEAR
    if miss <= goal * MID_MISS:
        return Mark.MID
    return Mark.FAR


def round_marks(state: GameState, index: int) -> tuple[Mark, ...]:
    """One mark per round played (started), for player `index`."""
    return tuple(round_mark(rnd.answers[index], state.game_set) for rnd in state.rounds)


@dataclass(frozen=True, slots=True)
class ShareCard:
    title: str
    outcome: str
    marks: tuple[Mark, ...]
    legend: str

    @property
    def rows(self) -> tuple[str, ...]:
        emoji = [EMOJI[mark] for mark in self.marks]
        return tuple("".join(emoji[i : i + ROW]) for i in range(0, len(emoji), ROW))

    def text(self) -> str:
        """The card as one Discord message (well under 2,000 characters, even at 50 rounds)."""
        return "\n".join([self.title, self.outcome, *self.rows, self.legend])


def _day(record: GameRecord, tz: tzinfo) -> date:
    """The Qualification's period when it is a day, else the day the game started in `tz`."""
    if record.period:
        try:
            return date.fromisoformat(record.period)
        except ValueError:
            pass
    return datetime.fromtimestamp(record.created_at, tz).date()


def _outcome(state: GameState, index: int, locale: str) -> str:
    """The card's last line, by how the game ended (a new Termination fails mypy here)."""
    result = state.outcome
    if result is None:
        return t("share.outcome.playing", locale)
    rounds, score = result.rounds, fmt(state.scores[index], state.game_set.language)
    duel = state.mode.is_duel
    match result.termination:
        case Termination.RESIGN:
            if state.resigned == index:
                return t("share.outcome.lost_resign", locale, rounds=rounds)
            return t("share.outcome.won_resign", locale)
        case Termination.TIMEOUT:
            return t("share.outcome.lost_timeout", locale, rounds=rounds)
        case Termination.MAX_ROUNDS:
            key = "share.outcome.draw" if duel else "share.outcome.finished"
            return t(key, locale, rounds=rounds, score=score)
        case Termination.VOID:  # `bot.games` refuses to share one; a card still says so
            return t("share.outcome.void", locale)
        case Termination.CHECKOUT:
            pass
        case _:
            assert_never(result.termination)
    if not is_zero(state.scores[index]):
        return t("share.outcome.lost", locale, rounds=rounds)
    if duel and result.winner is None:
        text = t("share.outcome.draw_zero", locale, rounds=rounds)
    else:
        text = t("share.outcome.won" if duel else "share.outcome.checkout", locale, rounds=rounds)
    return f"{t('share.perfect', locale)} {text}" if result.perfect else text


def share_card(
    record: GameRecord, player_id: int | str, locale: str, *, tz: tzinfo = UTC
) -> ShareCard:
    """The card of `player_id`'s game. `tz` is the server's zone, for games without a period."""
    locale = normalize_locale(locale)
    state = record.state
    index = state.player_index(str(player_id))
    marks = round_marks(state, index)
    title = t(
        "share.title",
        locale,
        set=set_label(state.game_set.name, state.game_set.language).replace("_", "\\_"),
        mode=t(f"games.mode.{state.mode.value}", locale),
        date=format_date(_day(record, tz), format="long", locale=locale),
    )
    used = set(marks)
    legend = " · ".join(
        f"{emoji} {t(f'share.legend.{mark.value}', locale)}"
        for mark, emoji in EMOJI.items()
        if mark in used
    )
    return ShareCard(title, _outcome(state, index, locale), marks, legend)
