"""A duel nobody played -- every answer of every round the deadline's auto-move -- is
void, not a draw to rate (issue 21: an AFK duel moved both players' Elo)."""

from __future__ import annotations

import pytest

import rules
from rules import CLASSIC, Expire, Mode, StartRound, Submit, Termination, apply, new_game

T0 = 1_700_000_000.0


def play(mode: Mode, answered: dict[int, int]) -> rules.GameState:
    """Every round of a classic game on Digits 1234: in round n the seat `answered[n]`
    answers itself, everyone else gets the auto-move at the deadline."""
    state = new_game("g", mode, CLASSIC, ["a", "b"])
    now = T0
    while state.outcome is None:
        state = apply(state, StartRound("1234", now))
        number = len(state.rounds)
        if number in answered:
            seat = answered[number]
            state = apply(state, Submit(state.players[seat], "12+34", 46, now + 1))
        now += CLASSIC.time_limit
        state = apply(state, Expire(now))
    return state


@pytest.mark.parametrize("mode", [Mode.DUEL, Mode.PRACTICE])
def test_a_duel_nobody_answered_is_void(mode: Mode) -> None:
    state = play(mode, {})
    assert rules.nobody_played(state)
    assert state.outcome == rules.Outcome(Termination.VOID, None, CLASSIC.max_rounds)
    assert not rules.is_loss(state.outcome, 0) and not rules.is_loss(state.outcome, 1)


@pytest.mark.parametrize("answered", [{1: 0}, {7: 1}])
def test_one_answer_anywhere_makes_it_a_game(answered: dict[int, int]) -> None:
    state = play(Mode.DUEL, answered)
    assert not rules.nobody_played(state)
    assert state.outcome is not None
    assert state.outcome.termination is Termination.MAX_ROUNDS


def test_a_running_duel_is_not_judged_yet() -> None:
    state = new_game("g", Mode.DUEL, CLASSIC, ["a", "b"])
    assert not rules.nobody_played(state)
    state = apply(apply(state, StartRound("1234", T0)), Expire(T0 + CLASSIC.time_limit))
    assert rules.nobody_played(state) and state.outcome is None  # so far; it goes on
