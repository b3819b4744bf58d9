"""Achievements (RULES.md "Achievements"): the catalogue and what a finished thing earns.

Values in, values out, as python-chess's `outcome()`: the caller gathers the facts (a
game's state, the best answers found for it, the player's streak, what the player holds
already) and these functions say which achievements are new. Each is earned once per
player per server, so an achievement already held is never earned again; what happens
to a voided game's achievements is the store's (they are stored with the game).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from enum import StrEnum

from rules.scoring import Number
from rules.state import Answer, GameState, Mode, Termination


class Achievement(StrEnum):
    """The catalogue; the value is the stored key and the i18n key (never renamed)."""

    FIRST_CHECKOUT = "first_checkout"
    FIRST_PERFECT = "first_perfect"
    QUALIFICATION_PERFECT = "qualification_perfect"
    SOLVER_MATCH = "solver_match"
    """A live round's answer that left a Score as low as the solver's best answer did."""
    DAY_WON = "day_won"
    STREAK_7 = "streak_7"
    STREAK_30 = "streak_30"
    STREAK_100 = "streak_100"
    CUP_CHAMPION = "cup_champion"
    STORM_10 = "storm_10"
    STORM_25 = "storm_25"
    PUZZLE_STREAK_10 = "puzzle_streak_10"
    PUZZLE_STREAK_25 = "puzzle_streak_25"
    ROOM_WIN_10 = "room_win_10"


STREAK_DAYS: dict[int, Achievement] = {
    7: Achievement.STREAK_7,
    30: Achievement.STREAK_30,
    100: Achievement.STREAK_100,
}
"""Qualification days in a row (`rules.streak`) and what reaching them earns."""
STREAK_ACHIEVEMENTS = frozenset(STREAK_DAYS.values())


class RunKind(StrEnum):
    """A puzzle run's kind, as the puzzles' side names it."""

    STORM = "storm"
    STREAK = "streak"


RUN_MILESTONES: dict[RunKind, tuple[tuple[float, Achievement], ...]] = {
    RunKind.STORM: ((10, Achievement.STORM_10), (25, Achievement.STORM_25)),
    RunKind.STREAK: ((10, Achievement.PUZZLE_STREAK_10), (25, Achievement.PUZZLE_STREAK_25)),
}
"""A Storm's result is its sum of grades, a Streak's its length: reaching a value earns."""
ROOM_SIZE = 10
"""The fewest players in a room whose win earns `ROOM_WIN_10`."""
EARNING_MODES = frozenset({Mode.TRAINING, Mode.QUALIFICATION, Mode.DUEL, Mode.PRACTICE})


@dataclass(frozen=True, slots=True)
class BestScore:
    """The Score the best answer of a round left a seat (`Reveal` without the formula)."""

    round: int
    seat: int
    score: Number


@dataclass(frozen=True, slots=True)
class GameFacts:
    """What earning asks of one seat of a finished game."""

    mode: Mode
    checkout: bool
    perfect: bool
    matched_best: bool
    streak_days: int = 0
    """The player's current Qualification streak counting this game (0 outside one)."""


def _own(answer: Answer | None) -> bool:
    return answer is not None and not answer.auto


def matched_best(state: GameState, seat: int, best: Iterable[BestScore]) -> bool:
    """Whether an answer of the seat's own left a Score no higher than the best answer the
    round allowed it (RULES.md "The best answer")."""
    scores = {b.round: b.score for b in best if b.seat == seat}
    for rnd in state.rounds:
        answer = rnd.answers[seat] if seat < len(rnd.answers) else None
        target = scores.get(rnd.number)
        if target is not None and _own(answer) and answer is not None and answer.score <= target:
            return True
    return False


def game_facts(
    state: GameState, seat: int, best: Iterable[BestScore] = (), streak_days: int = 0
) -> GameFacts | None:
    """The facts of a seat of a finished game; None for a game that earns nothing (one
    still played, voided, or a mode outside `EARNING_MODES`)."""
    outcome = state.outcome
    if outcome is None or outcome.termination is Termination.VOID:
        return None
    if state.mode not in EARNING_MODES:
        return None
    checkout = outcome.termination is Termination.CHECKOUT and state.scores[seat] == 0
    return GameFacts(
        state.mode,
        checkout=checkout,
        perfect=checkout and outcome.perfect,
        matched_best=matched_best(state, seat, best),
        streak_days=streak_days,
    )


def _new(found: Iterable[Achievement], held: Collection[Achievement]) -> tuple[Achievement, ...]:
    """`found` less what is held, in catalogue order, each once."""
    wanted = set(found) - set(held)
    return tuple(a for a in Achievement if a in wanted)


def earned_by_game(facts: GameFacts, held: Collection[Achievement]) -> tuple[Achievement, ...]:
    """What a finished game newly earns a player who holds `held` on that server."""
    found: list[Achievement] = []
    if facts.checkout:
        found.append(Achievement.FIRST_CHECKOUT)
    if facts.perfect:
        found.append(Achievement.FIRST_PERFECT)
        if facts.mode is Mode.QUALIFICATION:
            found.append(Achievement.QUALIFICATION_PERFECT)
    if facts.matched_best:
        found.append(Achievement.SOLVER_MATCH)
    if facts.mode is Mode.QUALIFICATION:
        found += [a for days, a in STREAK_DAYS.items() if facts.streak_days >= days]
    return _new(found, held)


def earned_by_run(
    kind: RunKind, result: float, held: Collection[Achievement]
) -> tuple[Achievement, ...]:
    """What a finished Storm or Streak run newly earns."""
    return _new((a for value, a in RUN_MILESTONES[kind] if result >= value), held)


def earned_by_room(
    players: int, won: bool, held: Collection[Achievement]
) -> tuple[Achievement, ...]:
    """A room that ended with this player first (shared first place counts)."""
    return _new([Achievement.ROOM_WIN_10] if won and players >= ROOM_SIZE else [], held)


def earned_by_day_won(held: Collection[Achievement]) -> tuple[Achievement, ...]:
    """The first of a server's Qualification boards of a closed day."""
    return _new([Achievement.DAY_WON], held)


def earned_by_cup(held: Collection[Achievement]) -> tuple[Achievement, ...]:
    """The winner of a Cup's final."""
    return _new([Achievement.CUP_CHAMPION], held)
