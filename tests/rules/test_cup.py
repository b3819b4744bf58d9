"""The Cup's bracket (RULES.md "Cup"): the seeded draw, legs, draws, no-shows, the champion."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.cup import (
    CupError,
    CupState,
    Decision,
    Leg,
    LegResult,
    MatchNotReady,
    MatchOver,
    NoShow,
    apply,
    bracket_order,
    draw,
)

FIRST, SECOND, DRAWN, VOID = LegResult.FIRST, LegResult.SECOND, LegResult.DRAW, LegResult.VOID


def players(n: int) -> list[str]:
    return [f"p{seed}" for seed in range(1, n + 1)]


@pytest.mark.parametrize(
    ("size", "order"),
    [
        (2, [1, 2]),
        (4, [1, 4, 2, 3]),
        (8, [1, 8, 4, 5, 2, 7, 3, 6]),
    ],
)
def test_standard_seeded_order(size: int, order: list[int]) -> None:
    assert bracket_order(size) == order


@pytest.mark.parametrize("size", [0, 1, 3, 6, 12])
def test_a_bracket_is_a_power_of_two(size: int) -> None:
    with pytest.raises(ValueError, match="power of two"):
        bracket_order(size)


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64])
def test_top_two_seeds_meet_only_in_the_final(size: int) -> None:
    order = bracket_order(size)
    assert sorted(order) == list(range(1, size + 1))
    half = size // 2
    assert (1 in order[:half]) != (2 in order[:half])
    for slot in range(half):
        assert order[2 * slot] + order[2 * slot + 1] == size + 1


@pytest.mark.parametrize(
    ("entrants", "byes"),
    [(2, []), (3, [1]), (5, [1, 2, 3]), (6, [1, 2]), (8, []), (13, [1, 2, 3])],
)
def test_byes_go_to_the_top_seeds(entrants: int, byes: list[int]) -> None:
    state = draw(players(entrants), legs=1)
    decided = [m for m in state.matches if m.round == 1 and m.decision is Decision.BYE]
    assert sorted(seed for m in decided if (seed := m.seeds[0]) is not None) == byes
    assert len(decided) == len(byes)


def test_fewer_than_two_players_is_no_cup() -> None:
    with pytest.raises(CupError):
        draw(["solo"], legs=1)
    with pytest.raises(CupError):
        draw(["a", "a"], legs=1)
    with pytest.raises(CupError):
        draw(players(4), legs=2)


def test_best_of_three_to_the_champion() -> None:
    state = draw(players(4), legs=3)
    assert [(m.seeds) for m in state.open_matches] == [(1, 4), (2, 3)]
    for result in (FIRST, SECOND, FIRST):
        state = apply(state, Leg(1, 0, result))
    first = state.match(1, 0)
    assert (first.wins, first.winner, first.decision) == ((2, 1), 0, Decision.LEGS)
    assert state.match(2, 0).seeds == (1, None)
    state = apply(state, Leg(1, 1, SECOND))
    state = apply(state, Leg(1, 1, SECOND))
    assert state.match(2, 0).seeds == (1, 3)
    assert state.champion is None
    state = apply(state, Leg(2, 0, SECOND))
    state = apply(state, Leg(2, 0, SECOND))
    assert state.champion == "p3"
    with pytest.raises(MatchOver):
        apply(state, Leg(2, 0, FIRST))


def test_a_drawn_leg_is_replayed_twice_then_the_higher_seed_goes_through() -> None:
    state = draw(players(2), legs=1)
    state = apply(state, Leg(1, 0, DRAWN))
    state = apply(state, Leg(1, 0, DRAWN))
    assert state.champion is None
    assert state.match(1, 0).draws == 2
    state = apply(state, Leg(1, 0, DRAWN))
    final = state.match(1, 0)
    assert (final.winner, final.decision) == (0, Decision.DRAWS)
    assert state.champion == "p1"


def test_draw_replays_count_per_leg() -> None:
    state = draw(players(2), legs=3)
    for result in (DRAWN, DRAWN, SECOND, DRAWN, DRAWN, FIRST):
        state = apply(state, Leg(1, 0, result))
    match = state.match(1, 0)
    assert (match.wins, match.draws, match.winner) == ((1, 1), 0, None)


def test_a_void_leg_is_played_again() -> None:
    state = draw(players(2), legs=1)
    assert apply(state, Leg(1, 0, VOID)) == state


@pytest.mark.parametrize(
    ("absent", "winner", "decision"),
    [
        (frozenset({0}), "p2", Decision.NO_SHOW),
        (frozenset({1}), "p1", Decision.NO_SHOW),
        (frozenset({0, 1}), "p1", Decision.BOTH_ABSENT),
    ],
)
def test_no_shows(absent: frozenset[int], winner: str, decision: Decision) -> None:
    state = apply(draw(players(2), legs=5), NoShow(1, 0, absent))
    assert state.champion == winner
    assert state.match(1, 0).decision is decision


def test_a_match_waits_for_its_players() -> None:
    state = draw(players(4), legs=1)
    with pytest.raises(MatchNotReady):
        apply(state, Leg(2, 0, FIRST))
    with pytest.raises(CupError):
        apply(state, NoShow(1, 0, frozenset()))


@given(
    st.integers(min_value=2, max_value=64),
    st.sampled_from([1, 3, 5]),
    st.lists(st.sampled_from(list(LegResult)), max_size=400),
)
def test_any_play_round_trips_and_ends_with_one_champion(
    entrants: int, legs: int, results: list[LegResult]
) -> None:
    state = draw(players(entrants), legs)
    for result in results:
        if not state.open_matches:
            break
        match = state.open_matches[0]
        state = apply(state, Leg(match.round, match.slot, result))
        assert CupState.from_dict(json.loads(json.dumps(state.to_dict()))) == state
    while state.open_matches:
        match = state.open_matches[0]
        state = apply(state, NoShow(match.round, match.slot, frozenset({1})))
    assert state.champion in state.entrants
    winners = [m.winning_seed for m in state.matches if m.round == state.rounds]
    assert len(winners) == 1
