"""`apply(state, action, then)`: the step `then` names on the state `action` made, done
on the same copy (an answer that resolves its round, and the next round's start), says
exactly what two `apply` calls say, and leaves the state it was given as it was."""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest

from rules import CLASSIC, GameOver, Mode, RoundShown, StartRound, Submit, apply, new_game
from rules.state import GameState

T0 = 1_700_000_000.0


def open_round() -> GameState:
    state = new_game("t1", Mode.TRAINING, CLASSIC, ["alice"])
    state = apply(state, StartRound("3489", T0))
    return apply(state, RoundShown(T0 + 1))


def next_start(state: GameState) -> StartRound | None:
    """As the bot's flow asks it: a start only when the game goes on with no round open."""
    if state.outcome is not None or state.current_round is not None:
        return None
    return StartRound("1234", T0 + 50)


def test_then_is_the_second_apply_on_one_copy() -> None:
    state = open_round()
    before = copy.deepcopy(state)
    answer = Submit("alice", "3*4*8+9", 105, T0 + 5)
    both = apply(state, answer, then=next_start)
    assert both == apply(apply(state, answer), StartRound("1234", T0 + 50))
    assert len(both.rounds) == 2 and both.current_round is not None
    assert state == before  # the state it was given is left alone


def test_then_with_nothing_to_follow_is_the_one_apply() -> None:
    state = apply(open_round(), Submit("alice", "3*4*8+9", 105, T0 + 5))
    state = apply(state, StartRound("1234", T0 + 50))
    answer = Submit("alice", "1+2+3+4", 10, T0 + 55)
    seen: list[GameState] = []

    def nothing(new: GameState) -> None:
        seen.append(new)

    assert apply(state, answer, then=nothing) == apply(state, answer)
    assert len(seen) == 1 and seen[0].rounds[-1].answers[0] is not None  # asked after it


def test_then_after_the_end_is_refused_as_an_apply_after_the_end_would_be() -> None:
    one_round = replace(CLASSIC, max_rounds=1, min_rounds=1)
    state = new_game("t2", Mode.TRAINING, one_round, ["alice"])
    state = apply(state, StartRound("3489", T0))
    last = Submit("alice", "3*4*8+9", 105, T0 + 5)  # the last round's answer ends the game
    assert apply(state, last).outcome is not None
    with pytest.raises(GameOver):
        apply(apply(state, last), StartRound("1234", T0 + 50))
    with pytest.raises(GameOver):
        apply(state, last, then=lambda new: StartRound("1234", T0 + 50))
