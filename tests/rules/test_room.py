"""The room's rules (RULES.md "Room"): lobby, secret rounds, auto-moves and going out,
places, void; every state round-trips through JSON."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import CLASSIC, GameSet, validate_set
from rules.errors import AlreadyAnswered, BadPlayers, DeadlinePassed, GameOver, RulesError
from rules.game import Expire, ReplayRound, Resign, StartRound, Submit, Void
from rules.room import (
    LOBBY_SECONDS,
    AlreadyIn,
    Begin,
    ExitReason,
    Join,
    Leave,
    NotHost,
    OutOfRoom,
    Phase,
    RoomAction,
    RoomEnd,
    RoomState,
    TooFew,
    apply,
    new_room,
    submit_problem,
    wants_round,
)

T0 = 1_700_000_000.0
LIMIT = CLASSIC.time_limit


def roundtrip(state: RoomState) -> RoomState:
    again = RoomState.from_dict(json.loads(json.dumps(state.to_dict())))
    assert again == state
    return again


def run(state: RoomState, *actions: RoomAction) -> RoomState:
    for action in actions:
        state = roundtrip(apply(state, action))
    return state


def playing(n: int, game_set: GameSet = CLASSIC) -> RoomState:
    names = [f"p{i}" for i in range(n)]
    state = new_room("r", game_set, names[0], n, T0)
    return run(state, *(Join(p) for p in names[1:]))


def places(state: RoomState) -> list[tuple[str, int]]:
    return [(state.players[s.player], s.place) for s in state.standings]


# the lobby


@pytest.mark.parametrize("size", [1, 21, 0])
def test_a_room_holds_2_to_20(size: int) -> None:
    with pytest.raises(BadPlayers):
        new_room("r", CLASSIC, "h", size, T0)


def test_it_starts_when_full() -> None:
    state = playing(3)
    assert state.phase is Phase.PLAYING and state.scores == [501] * 3 and wants_round(state)


@pytest.mark.parametrize(
    ("actions", "error"),
    [
        ([Join("h")], AlreadyIn),
        ([Join("a"), Join("a")], AlreadyIn),
        ([Begin("h")], TooFew),
        ([Join("a"), Begin("a")], NotHost),
        ([Join("a"), Join("b"), Join("c"), Join("d")], RulesError),  # full: it started
        ([Join("a"), Begin("h"), Join("b")], RulesError),
        ([Join("a"), Expire(T0 + LOBBY_SECONDS - 1)], RulesError),
        ([Join("a"), Submit("a", "12+34", 46, T0)], RulesError),
    ],
)
def test_lobby_refusals(actions: list[RoomAction], error: type[RulesError]) -> None:
    state = new_room("r", CLASSIC, "h", 4, T0)
    with pytest.raises(error):
        run(state, *actions)


@pytest.mark.parametrize(
    ("actions", "phase", "players"),
    [
        ([Join("a"), Begin("h")], Phase.PLAYING, ["h", "a"]),
        ([Join("a"), Expire(T0 + LOBBY_SECONDS)], Phase.PLAYING, ["h", "a"]),
        ([Expire(T0 + LOBBY_SECONDS)], Phase.OVER, ["h"]),
        ([Join("a"), Leave("a"), Expire(T0 + LOBBY_SECONDS)], Phase.OVER, ["h"]),
        ([Join("a"), Leave("h")], Phase.OVER, ["h", "a"]),
    ],
)
def test_lobby_starts_or_is_cancelled(
    actions: list[RoomAction], phase: Phase, players: list[str]
) -> None:
    state = run(new_room("r", CLASSIC, "h", 4, T0), *actions)
    assert (state.phase, state.players) == (phase, players)
    if phase is Phase.OVER:
        host_left = actions[-1] == Leave("h")
        assert state.end is (RoomEnd.HOST_LEFT if host_left else RoomEnd.CANCELLED)
        assert state.standings == []


# rounds


def test_the_round_ends_when_everyone_in_has_answered() -> None:
    state = run(playing(3), StartRound("3489", T0))
    state = run(state, Submit("p0", "34+89", 123, T0 + 5), Submit("p2", "3*4+89", 101, T0 + 9))
    assert state.current_round is not None
    with pytest.raises(AlreadyAnswered):
        apply(state, Submit("p0", "34+89", 123, T0 + 10))
    state = run(state, Submit("p1", "3+4+89", 96, T0 + 20))
    assert state.current_round is None and wants_round(state)
    assert state.scores == [424, 405, 402]


def test_a_late_answer_is_refused_and_the_deadline_auto_moves() -> None:
    state = run(playing(2), StartRound("4589", T0), Submit("p0", "4*5+89", 109, T0 + 1))
    assert isinstance(submit_problem(state, "p1", T0 + LIMIT + 1), DeadlinePassed)
    state = run(state, Expire(T0 + LIMIT))
    answer = state.rounds[0].answers[1]
    assert answer is not None and answer.auto and answer.formula == "45+89"
    assert state.scores == [501 - 91, 501 - 66] and state.misses == [0, 1]


def test_two_auto_moves_in_a_row_put_a_player_out() -> None:
    state = playing(3)
    for number in (1, 2):
        now = T0 + (number - 1) * LIMIT
        state = run(state, StartRound("1234", now), Submit("p0", "12+34", 46, now + 1))
        state = run(state, Submit("p1", "1+2+34", 37, now + 2), Expire(now + LIMIT))
    assert [(e.player, e.round, e.reason) for e in state.exits] == [(2, 2, ExitReason.MISSED)]
    assert state.still_in == [0, 1] and state.phase is Phase.PLAYING
    assert isinstance(submit_problem(state, "p2", T0 + 2 * LIMIT), OutOfRoom)
    state = run(state, StartRound("1234", T0 + 2 * LIMIT))
    state = run(state, Submit("p0", "12+34", 46, T0 + 2 * LIMIT + 1))
    state = run(state, Submit("p1", "12+34", 46, T0 + 2 * LIMIT + 2))
    assert state.current_round is None  # the player out is not waited for


def test_an_answer_between_misses_keeps_a_player_in() -> None:
    state = playing(2)
    for number, answers in enumerate([True, False, True, False], start=1):
        now = T0 + number * LIMIT
        state = run(state, StartRound("1234", now), Submit("p0", "12+34", 46, now + 1))
        if answers:
            state = run(state, Submit("p1", "1*2+34", 36, now + 1))
        else:
            state = run(state, Expire(now + LIMIT))
    assert state.exits == [] and state.misses == [0, 1]


def test_leaving_the_last_opponent_leaves_one_first() -> None:
    state = run(playing(2), StartRound("1234", T0), Submit("p0", "12+34", 46, T0 + 1))
    state = run(state, Resign("p1"))
    assert state.end is RoomEnd.LAST_IN and places(state) == [("p0", 1), ("p1", 2)]
    with pytest.raises(GameOver):
        apply(state, Submit("p1", "12+34", 46, T0 + 2))


def test_a_leaver_is_not_waited_for_and_their_answer_does_not_count() -> None:
    state = run(playing(3), StartRound("1234", T0), Submit("p2", "12+34", 46, T0 + 1))
    state = run(state, Submit("p0", "12+34", 46, T0 + 1), Resign("p2"))
    assert state.rounds[0].answers[2] is None and state.current_round is not None
    state = run(state, Submit("p1", "1+2+34", 37, T0 + 2))
    assert state.current_round is None and state.scores[2] == 501


def test_a_round_missed_while_down_is_played_again_with_its_answers() -> None:
    state = run(playing(2), StartRound("1234", T0), Submit("p0", "12+34", 46, T0 + 1))
    with pytest.raises(RulesError):
        apply(state, ReplayRound(T0 + LIMIT - 1))
    state = run(state, ReplayRound(T0 + 600))
    rnd = state.current_round
    assert rnd is not None and (rnd.started_at, rnd.deadline) == (T0 + 600, T0 + 600 + LIMIT)
    assert rnd.answers[0] is not None and state.misses == [0, 0]
    state = run(state, Submit("p1", "1+2+34", 37, T0 + 601))
    assert state.current_round is None and state.scores == [455, 464]


# the end and the places


def one_round(**changes: int) -> GameSet:
    fields = {"start_score": 501, "goal": 100, "bonus": 50, "max_rounds": 1,
              "min_rounds": 1, "time_limit": 60} | changes  # fmt: skip
    return validate_set("one", fields)


@pytest.mark.parametrize(
    ("answers", "end", "expected"),
    [
        # a checkout: everyone at 0 shares first place, the rest by Score
        ({"p0": ("700+1", 701), "p1": ("700+1", 701), "p2": ("7+0+0+1", 8)},
         RoomEnd.CHECKOUT, [("p0", 1), ("p1", 1), ("p2", 3)]),
        # max rounds: by Score, equal Scores share a place, time orders the display
        ({"p1": ("7+0+0+1", 8), "p0": ("7+0+0+1", 8), "p2": ("700+1", 701)},
         RoomEnd.CHECKOUT, [("p2", 1), ("p1", 2), ("p0", 2)]),
        ({"p0": ("70+0+1", 71), "p1": ("7+0+0+1", 8)},
         RoomEnd.MAX_ROUNDS, [("p0", 1), ("p2", 1), ("p1", 3)]),  # p2's auto-move: 70+01
    ],
)  # fmt: skip
def test_places(
    answers: dict[str, tuple[str, int]], end: RoomEnd, expected: list[tuple[str, int]]
) -> None:
    state = run(playing(3, one_round()), StartRound("7001", T0))
    for second, (player, (formula, result)) in enumerate(answers.items(), start=1):
        state = run(state, Submit(player, formula, result, T0 + second))
    if state.phase is Phase.PLAYING:
        state = run(state, Expire(T0 + 60))
    assert state.end is end and places(state) == expected


def test_those_out_rank_below_everyone_in_the_last_out_first() -> None:
    state = playing(4)
    now = T0
    # p3 leaves at once; p2 misses rounds 1 and 2; p0 and p1 play on
    state = run(state, StartRound("1234", now), Resign("p3"))
    for _ in range(2):
        state = run(state, Submit("p0", "12+34", 46, now + 1), Submit("p1", "1+2+34", 37, now + 1))
        state = run(state, Expire(now + LIMIT))
        now += LIMIT
        state = run(state, StartRound("1234", now))
    state = run(state, Resign("p1"))
    assert state.end is RoomEnd.LAST_IN
    assert places(state) == [("p0", 1), ("p1", 2), ("p2", 3), ("p3", 4)]


def test_those_out_in_one_round_share_a_batch() -> None:
    state = run(playing(3), StartRound("1234", T0), Submit("p0", "12+34", 46, T0 + 1))
    state = run(state, Expire(T0 + LIMIT), StartRound("9999", T0 + LIMIT))
    state = run(state, Submit("p0", "99+99", 198, T0 + LIMIT + 1))
    state = run(state, Expire(T0 + 2 * LIMIT))
    assert state.still_in == [0] and state.end is RoomEnd.LAST_IN  # p1, p2 missed twice
    assert places(state) == [("p0", 1), ("p1", 2), ("p2", 2)]  # one batch, equal Scores
    state = run(playing(2), StartRound("1234", T0), Expire(T0 + LIMIT))
    state = run(state, StartRound("1000", T0 + LIMIT), Expire(T0 + 2 * LIMIT))
    assert state.end is RoomEnd.VOID  # nobody answered anything


def test_everyone_out_together_after_a_move_is_all_out_by_score() -> None:
    state = run(playing(2), StartRound("1234", T0), Submit("p1", "1234", 1234, T0 + 1))
    state = run(state, Submit("p0", "12+34", 46, T0 + 1))
    for number in (2, 3):
        state = run(state, StartRound("1234", T0 + number * LIMIT))
        state = run(state, Expire(T0 + (number + 1) * LIMIT))
    assert state.end is RoomEnd.ALL_OUT
    assert places(state) == [("p0", 1), ("p1", 2)]  # 501-46-88 < |501-1034|-88


@pytest.mark.parametrize("leave_first", [True, False])
def test_a_room_nobody_played_is_void(leave_first: bool) -> None:
    state = run(playing(3), StartRound("1234", T0))
    if leave_first:
        state = run(state, Resign("p1"), Resign("p2"))
    else:
        state = run(state, Expire(T0 + LIMIT), StartRound("1234", T0 + LIMIT))
        state = run(state, Expire(T0 + 2 * LIMIT))
    assert state.end is RoomEnd.VOID and state.standings == []


def test_void_ends_it_without_places() -> None:
    state = run(playing(2), StartRound("1234", T0), Submit("p0", "12+34", 46, T0 + 1), Void())
    assert state.end is RoomEnd.VOID and state.phase is Phase.OVER


# properties: any legal sequence keeps the room consistent


@st.composite
def played(draw: st.DrawFn) -> RoomState:
    n = draw(st.integers(2, 20))
    state = playing(n, one_round(max_rounds=draw(st.integers(1, 4)), min_rounds=1))
    now = T0
    while state.phase is Phase.PLAYING:
        if wants_round(state):
            state = apply(state, StartRound(draw(st.sampled_from(["1234", "7001"])), now))
            continue
        choice = draw(st.integers(0, 3))
        todo = [i for i in state.still_in if state.rounds[-1].answers[i] is None]
        if choice == 0 or not todo:
            now += 60
            state = apply(state, Expire(now))
        elif choice == 1:
            state = apply(state, Resign(state.players[draw(st.sampled_from(todo))]))
        else:
            player = state.players[draw(st.sampled_from(todo))]
            digits = state.rounds[-1].digits
            formula, value = draw(st.sampled_from([(digits, int(digits)), ("x", 100), ("y", 701)]))
            state = apply(state, Submit(player, formula, value, now + 1))
    return state


@settings(max_examples=150, deadline=None)
@given(played())
def test_every_room_ends_consistently(state: RoomState) -> None:
    assert RoomState.from_dict(json.loads(json.dumps(state.to_dict()))) == state
    assert state.end is not None and state.current_round is None
    if state.end in (RoomEnd.VOID, RoomEnd.CANCELLED, RoomEnd.HOST_LEFT):
        assert state.standings == []
        return
    assert sorted(s.player for s in state.standings) == list(range(len(state.players)))
    ranks = [s.place for s in state.standings]
    assert ranks == sorted(ranks) and ranks[0] == 1
    out = {e.player for e in state.exits}
    first_out = min((s.place for s in state.standings if s.player in out), default=99)
    assert all(s.place < first_out for s in state.standings if s.player not in out)
