"""How the best answers read: in the next round's message, in the summary, and as accuracy.

A round's accuracy for a player is how far their answer took their Score toward the
best answer's new Score, from the Score they had: 1 when they matched (or beat) it,
0 when their Score did not come down at all (a Score can bounce up; that is 0 too).
A game's accuracy is the mean over the rounds whose best answer was found in time.
"""

from __future__ import annotations

from bot.common import fmt, mention
from bot.games._reveals import score_before
from bot.i18n import t
from bot.storage import GameRecord, Reveal
from rules import GameState

FOUND = "🎯"


def _line(reveal: Reveal, locale: str) -> str:
    return t(
        "games.best.line",
        locale,
        formula=reveal.formula,
        result=fmt(reveal.result),
        score=fmt(reveal.score),
    )


def matched(state: GameState, reveal: Reveal) -> bool:
    answer = state.rounds[reveal.round - 1].answers[reveal.seat]
    return answer is not None and float(answer.score) <= float(reveal.score)


def best_field(record: GameRecord, number: int, locale: str) -> tuple[str, str] | None:
    """(title, text) of round `number`'s best answers, for the next round's message."""
    reveals = sorted(record.meta.best_of(number), key=lambda r: r.seat)
    if not reveals:
        return None
    state = record.state
    lines = []
    for reveal in reveals:
        text = _line(reveal, locale)
        if matched(state, reveal):
            text += f" {FOUND}"
        if state.mode.is_duel:
            text = f"{mention(state.players[reveal.seat])}: {text}"
        lines.append(text)
    return t("games.best.title", locale, number=number), "\n".join(lines)


def round_accuracy(state: GameState, reveal: Reveal) -> float | None:
    answer = state.rounds[reveal.round - 1].answers[reveal.seat]
    if answer is None:
        return None
    before = float(score_before(state, reveal.round, reveal.seat))
    best, got = float(reveal.score), float(answer.score)
    if got <= best:
        return 1.0
    reach = before - best
    if reach <= 0:
        return 0.0
    return min(1.0, max(0.0, (before - got) / reach))


def accuracy(record: GameRecord, seat: int) -> float | None:
    """The mean of a player's round accuracies; None before any best answer was found."""
    values = [
        value
        for reveal in record.meta.best
        if reveal.seat == seat and (value := round_accuracy(record.state, reveal)) is not None
    ]
    return sum(values) / len(values) if values else None


def summary_best(record: GameRecord, number: int, seat: int, locale: str) -> str:
    """ " · best `…` → S" after a round's line in the summary, 🎯 when the player matched it."""
    reveal = next((r for r in record.meta.best_of(number) if r.seat == seat), None)
    if reveal is None:
        return ""
    if matched(record.state, reveal):
        return f" {FOUND}"
    return " · " + t("games.best.short", locale, formula=reveal.formula, score=fmt(reveal.score))
