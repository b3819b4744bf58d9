"""A state's text built in parts (`_state_text`) is the whole dump's, byte for byte, and
the step compared part by part (`_changes`) writes and refuses what the whole dicts
decide."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

import rules
from bot.storage import _changes, _state_text
from bot.storage._codec import dumps
from tests.bot.storage.builders import duel, single
from tests.bot.storage.test_advance import steps


def histories() -> Iterator[list[rules.GameState]]:
    """Games step by step: a duel to its resignation, a checkout, a timeout, a round
    shown late, a formula in Ukrainian with quotes, a replayed round."""
    yield steps("d")
    for name, results, timeout in (("c", [100, 100, 100, 51], False), ("t", [1, 2], True)):
        full = single(name, 5, results, mode=rules.Mode.TRAINING, timeout=timeout)
        yield [
            dataclasses.replace(full, rounds=full.rounds[:n], outcome=None)
            for n in range(len(full.rounds))
        ] + [full]
    state = rules.apply(duel("u", (1, 2), []), rules.StartRound("4589", 9000.0))
    shown = rules.apply(state, rules.RoundShown(9000.5))
    said = rules.apply(shown, rules.Submit("1", '"45"+89 // дротики ✓', 134, 9001.0))
    replayed = rules.apply(said, rules.ReplayRound(9500.0))
    yield [state, shown, said, replayed]


def test_the_parts_make_the_whole_text() -> None:
    for history in histories():
        for state in history:
            text, cuts = _state_text.state_text(state)
            assert text == dumps(state.to_dict())
            assert cuts is not None
            assert _state_text.rounds_in(cuts) == len(state.rounds)
            for index, rnd in enumerate(state.rounds):
                assert _state_text.round_text(text, cuts, index) == dumps(rnd.to_dict())
            assert _state_text.going_on(text, cuts) is (state.outcome is None)


def test_by_parts_decides_as_the_whole_dicts() -> None:
    """Every pair of states of every history, forwards (an extension: the same round
    rows) and backwards (a rival or older history: refused by both)."""
    pairs = 0
    for history in histories():
        for old in history:
            for new in history:
                stored, cuts = _state_text.state_text(old)
                text, new_cuts = _state_text.state_text(new)
                by_parts = _changes.since(stored, cuts, new, text, new_cuts)
                whole = _changes.since(stored, None, new, text, None)
                assert by_parts == whole, (old.to_dict(), new.to_dict())
                pairs += 1
    assert pairs > 50


def test_a_rival_answer_in_a_stored_round_is_refused_by_parts() -> None:
    base = rules.apply(duel("r", (1, 2), []), rules.StartRound("4589", 9000.0))
    mine = rules.apply(base, rules.Submit("1", "45+89", 134, 9001.0))
    theirs = rules.apply(base, rules.Submit("1", "4*5+89", 109, 9001.0))
    stored, cuts = _state_text.state_text(mine)
    text, new_cuts = _state_text.state_text(theirs)
    assert _changes.since(stored, cuts, theirs, text, new_cuts) is None


def test_a_to_dict_of_another_shape_is_dumped_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """Should the rules' `to_dict` gain a key the parts do not know, the first state
    dumped shows it and the text is the whole dump from then on (no cuts)."""
    state = steps("s")[3]
    shaped = rules.GameState.to_dict

    def grown(self: rules.GameState) -> dict[str, object]:
        return {**shaped(self), "new": 1}

    monkeypatch.setattr(rules.GameState, "to_dict", grown)
    monkeypatch.setattr(_state_text, "_checked", [])
    assert _state_text.state_text(state) == (dumps(grown(state)), None)
    assert _state_text.state_text(state) == (dumps(grown(state)), None)


def test_a_step_dumps_only_the_rounds_it_changed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every step of every history, built on the text of the step before it (and on the
    text of every other state of the history: a rival's, an older one), is the whole
    dump; and a step that changed one round of many dumps that one round alone."""
    for history in histories():
        for old in history:
            known = _state_text.state_parts(old)
            assert known[1] is not None and known[2] is not None
            for new in history:
                text, cuts, leaves = _state_text.state_parts(new, (known[0], known[1], known[2]))
                assert text == dumps(new.to_dict()) and cuts == _state_text.state_text(new)[1]
                assert leaves == tuple(_state_text.round_leaves(r) for r in new.rounds)
    state = played(4)
    text, cuts, leaves = _state_text.state_parts(state)
    assert cuts is not None and leaves is not None
    answered = rules.apply(state, rules.Submit("1", "4+5+8+9", 26, 1000.0 + 100 * 4 + 2))
    dumped: list[int] = []
    to_dict = rules.Round.to_dict

    def counted(rnd: rules.Round) -> dict[str, object]:
        dumped.append(rnd.number)
        return to_dict(rnd)

    monkeypatch.setattr(rules.Round, "to_dict", counted)
    again, _, _ = _state_text.state_parts(answered, (text, cuts, leaves))
    assert dumped == [len(state.rounds)]  # the round answered; the others are the last text's
    monkeypatch.undo()
    assert again == dumps(answered.to_dict())


def test_an_equal_value_of_another_kind_is_dumped_anew() -> None:
    """Rounds are reused by the identity of their values, not their equality: an answer's
    17 become 17.0 in place (equal, another text) is dumped as it now is."""
    state = played(2)
    text, cuts, leaves = _state_text.state_parts(state)
    assert cuts is not None and leaves is not None
    answer = state.rounds[0].answers[0]
    assert answer is not None and isinstance(answer.result, int)
    answer.result = float(answer.result)
    again, _, _ = _state_text.state_parts(state, (text, cuts, leaves))
    assert again != text and again == dumps(state.to_dict())
    assert f'"result":{answer.result!r}' in again


def played(rounds: int) -> rules.GameState:
    """A Training game with `rounds` answered and the next one open."""
    state = rules.new_game("p", rules.Mode.TRAINING, rules.CLASSIC, ["1"])
    for number in range(rounds + 1):
        now = 1000.0 + 100 * number
        state = rules.apply(state, rules.StartRound("4589", now))
        state = rules.apply(state, rules.RoundShown(now + 0.5))
        if number < rounds:
            state = rules.apply(state, rules.Submit("1", "4+5+8+9", 26, now + 2))
    assert len(state.rounds) == rounds + 1 and state.current_round is not None
    return state


def test_a_rounds_leaves_are_immutable_values() -> None:
    """Reusing a round's text by the identity of its values holds only while every value
    is immutable: a field of a mutable kind added to `Round` or `Answer` (a list, a dict)
    could change in place under the same identity, and must be handled here first."""
    kinds = (str, int, float, bool, type(None))
    for history in histories():
        for state in history:
            for rnd in state.rounds:
                for leaf in _state_text.round_leaves(rnd):
                    assert isinstance(leaf, kinds) or leaf is _state_text._ANSWERED, leaf
