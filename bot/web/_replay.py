"""A replay's story, as its page tells it: who won and how the game ended, the Elo it
moved, each round's answers with their times and the round's winner, and a best answer's
Score said as one. Pure functions of the stored game: `_routes` does the reading.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from markupsafe import Markup, escape

from bot.common import fmt
from bot.i18n import decimal_text, t
from bot.storage import GameRecord, RatingChange
from bot.web._reading import number
from rules import GameState, Round, Termination


@dataclass(frozen=True)
class Neighbours:
    """The first player's games just before and after this one (their ids), if any."""

    before: str | None = None
    after: str | None = None


def _name(names: Sequence[str], seat: int) -> Markup:
    return Markup("<bdi>{}</bdi>").format(names[seat])


def story(state: GameState, names: Sequence[str], lang: str) -> Markup | None:
    """A duel's end: who won (or a draw) and how; None for a single player's game (its
    result line says it) or a game still being played."""
    result = state.outcome
    if result is None or not state.mode.is_duel or result.termination is Termination.VOID:
        return None
    how = t(f"details.replay.how.{result.termination.value}", lang, rounds=result.rounds)
    if result.termination is Termination.RESIGN and state.resigned is not None:
        how = t("details.replay.how.resigned", lang, rounds=result.rounds)
        how = escape(how).format(name=_name(names, state.resigned))
    if result.winner is None:
        return Markup("{} {}").format(t("details.replay.draw", lang), how)
    won = escape(t("details.replay.won", lang)).format(name=_name(names, result.winner))
    return Markup("{}: {}").format(won, how)


def elo_lines(
    state: GameState, changes: Sequence[RatingChange], names: Sequence[str]
) -> list[Markup]:
    """`Alice 1000 → 1016 (+16)` for each rated player, in seat order."""
    by_user = {str(c.user_id): c for c in changes}
    lines = []
    for seat, player in enumerate(state.players):
        change = by_user.get(player)
        if change is not None:
            sign = "+" if change.delta >= 0 else "−"
            lines.append(
                Markup("{} {} → {} ({}{})").format(
                    _name(names, seat), change.before, change.after, sign, abs(change.delta)
                )
            )
    return lines


def round_winner(rnd: Round, names: Sequence[str], lang: str) -> Markup | None:
    """In a game of several players, who won this round: a Score 0 wins it, else the most
    Points (or a tie)."""
    if len(rnd.answers) < 2 or not rnd.resolved:
        return None
    marks = [(float(a.score) == 0, float(a.points)) if a else None for a in rnd.answers]
    known = [m for m in marks if m is not None]
    if not known:
        return None
    best = max(known)
    seats = [seat for seat, m in enumerate(marks) if m == best]
    if len(seats) > 1:
        return escape(t("details.replay.round_tie", lang, number=rnd.number))
    return escape(t("details.replay.round_winner", lang)).format(name=_name(names, seats[0]))


def rounds_of(record: GameRecord, names: Sequence[str], lang: str) -> list[dict[str, Any]]:
    """Each round's row per seat: the answer, its time, its numbers and the best answer."""
    state = record.state
    numbers = state.game_set.language
    rounds = []
    for rnd in state.rounds:
        best = {b.seat: b for b in record.meta.best_of(rnd.number)}
        cells = []
        for seat in range(len(state.players)):
            answer = rnd.answers[seat] if seat < len(rnd.answers) else None
            reveal = best.get(seat)
            cells.append({
                "answer": answer if rnd.resolved else None,
                "time": t("details.seconds", lang, value=decimal_text(round(answer.elapsed, 1),
                          lang)) if answer and not answer.auto else "",
                "result": number(answer.result, numbers) if answer else "",
                "points": number(answer.points, numbers) if answer else "",
                "score": number(answer.score, numbers) if answer else "",
                "best": reveal.formula if reveal else None,
                "best_score": fmt(reveal.score, numbers) if reveal else "",
                "found": bool(reveal and answer and float(answer.score) <= float(reveal.score)),
            })  # fmt: skip
        rounds.append({
            "number": rnd.number, "digits": rnd.digits, "resolved": rnd.resolved,
            "cells": cells, "winner": round_winner(rnd, names, lang),
            "has_best": any(cell["best"] for cell in cells),
        })  # fmt: skip
    return rounds
