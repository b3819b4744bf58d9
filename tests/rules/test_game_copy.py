"""`apply` works on a copy (`rules.game._copy`): equal to a deep copy, sharing nothing
the rules change, so the state it was given stays as it was."""

from __future__ import annotations

import copy

from rules import CLASSIC, Mode, RoundShown, StartRound, Submit, apply, new_game
from rules.game import _copy
from rules.state import GameState

T0 = 1_700_000_000.0


def played() -> GameState:
    state = new_game("d1", Mode.DUEL, CLASSIC, ["alice", "bob"])
    for number in range(3):
        now = T0 + 100 * number
        state = apply(state, StartRound("3489", now))
        state = apply(state, RoundShown(now + 1))
        state = apply(state, Submit("alice", "3*4*8+9", 105, now + 5))
        if number < 2:
            state = apply(state, Submit("bob", "3+4+8+9", 24.0, now + 6))
    return state


def test_the_copy_is_a_deep_copy_sharing_only_frozen_parts() -> None:
    state = played()
    assert state.rounds[-1].answers[1] is None and state.rounds[0].shown_at is not None
    new = _copy(state)
    assert new == copy.deepcopy(state)
    assert new is not state and new.players is not state.players
    assert new.scores is not state.scores and new.rounds is not state.rounds
    for mine, theirs in zip(new.rounds, state.rounds, strict=True):
        assert mine is not theirs and mine.answers is not theirs.answers
        for a, b in zip(mine.answers, theirs.answers, strict=True):
            assert a is None or a is not b
    assert new.game_set is state.game_set  # frozen: shared


def test_apply_leaves_the_state_it_was_given_as_it_was() -> None:
    state = played()
    before = copy.deepcopy(state)
    after = apply(state, Submit("bob", "9-8+4-3", 2, T0 + 206))
    assert state == before and after != before
    new = _copy(state)
    new.rounds[0].answers[0].points = -1  # type: ignore[union-attr]
    new.rounds[0].resolved = False
    new.scores[0] = 0
    assert state == before
