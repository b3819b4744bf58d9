"""A room: 2 to 20 players of one server play one game of a Set together (RULES.md "Room").

The shape of `rules.game`: a plain state that round-trips through JSON, `apply(state,
action)` returning a new state, legality asked beside it (`submit_problem`), time passed
in as data. The round's actions are the game's own (`StartRound`, `Submit`, `Expire`,
`Resign`, `RoundShown`, `Void`); the lobby adds `Join`, `Leave` and `Begin`, and an
`Expire` in the lobby is its deadline. The flow asks `wants_round` and supplies the
Digits; it never decides who is out, who has won or when the lobby starts.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import assert_never

from rules.digits import auto_move, valid_digits
from rules.errors import (
    AlreadyAnswered,
    BadPlayers,
    DeadlinePassed,
    GameOver,
    NoOpenRound,
    NotAPlayer,
    RoundOver,
    RoundStillOpen,
    RulesError,
)
from rules.game import Expire, ReplayRound, Resign, RoundShown, StartRound, Submit, Void
from rules.room_state import (
    AlreadyIn,
    Exit,
    ExitReason,
    NotHost,
    NotInLobby,
    OutOfRoom,
    Phase,
    RoomEnd,
    RoomRefusal,
    RoomState,
    Standing,
    TooFew,
)
from rules.scoring import Number, apply_points, is_zero
from rules.sets import GameSet
from rules.state import Answer, Round

__all__ = [
    "LOBBY_SECONDS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "AlreadyIn",
    "Begin",
    "Exit",
    "ExitReason",
    "Join",
    "Leave",
    "NotHost",
    "NotInLobby",
    "OutOfRoom",
    "Phase",
    "RoomAction",
    "RoomEnd",
    "RoomRefusal",
    "RoomState",
    "Standing",
    "TooFew",
    "answer_time",
    "apply",
    "new_room",
    "nobody_played",
    "standings",
    "submit_problem",
    "wants_round",
]

MIN_PLAYERS = 2
MAX_PLAYERS = 20
LOBBY_SECONDS = 300.0
"""How long a lobby waits for players before it starts (with 2) or is cancelled."""
MISSES_OUT = 2
"""Auto-moves in a row that put a player out."""


@dataclass(frozen=True, slots=True)
class Join:
    player: str


@dataclass(frozen=True, slots=True)
class Leave:
    """Leaving the lobby (a player); the host leaving cancels it. In play, use `Resign`."""

    player: str


@dataclass(frozen=True, slots=True)
class Begin:
    """The host starts the room."""

    player: str


RoomAction = (
    Join | Leave | Begin | StartRound | Submit | Expire | Resign | RoundShown | ReplayRound | Void
)


def new_room(room_id: str, game_set: GameSet, host: str, size: int, now: float) -> RoomState:
    """A lobby of `size` places (2 to 20) with its host in it."""
    if not MIN_PLAYERS <= size <= MAX_PLAYERS:
        raise BadPlayers(f"a room holds {MIN_PLAYERS} to {MAX_PLAYERS} players, not {size}")
    return RoomState(room_id, game_set, host, size, now + LOBBY_SECONDS, [host])


def wants_round(state: RoomState) -> bool:
    """Whether the flow should start the next round (with `StartRound`)."""
    return state.phase is Phase.PLAYING and (not state.rounds or state.rounds[-1].resolved)


def nobody_played(state: RoomState) -> bool:
    """Whether no player made a move of their own (RULES.md: such a room is void)."""
    return all(a is None or a.auto for rnd in state.rounds for a in rnd.answers)


def submit_problem(
    state: RoomState, player: str, now: float, round_number: int | None = None
) -> RulesError | None:
    """Why `player` may not answer now (round `round_number`, or the open one), or None."""
    if player not in state.players:
        return NotAPlayer(f"{player} is not in room {state.id}")
    index = state.players.index(player)
    if state.phase is Phase.OVER:
        return GameOver(f"room {state.id} is over")
    if not state.is_in(index):
        return OutOfRoom(f"{player} is out of room {state.id}")
    current = state.current_round
    if round_number is not None and round_number != len(state.rounds):
        if round_number > len(state.rounds):
            return NoOpenRound(f"round {round_number} has not started")
        return RoundOver(f"round {round_number} is over")
    if current is None:
        return NoOpenRound("no round is open") if round_number is None else RoundOver("over")
    if now > current.answer_deadline:
        return DeadlinePassed(f"round {current.number} ended at its deadline")
    if current.answers[index] is not None:
        return AlreadyAnswered(f"{player} has answered round {current.number}")
    return None


def apply(state: RoomState, action: RoomAction) -> RoomState:
    """The state after `action`; raise a RulesError if it is not allowed."""
    if state.phase is Phase.OVER:
        raise GameOver(f"room {state.id} is over")
    new = copy.deepcopy(state)
    match action:
        case Join() | Leave() | Begin():
            _lobby(new, action)
        case Expire() if new.phase is Phase.LOBBY:
            _lobby_deadline(new, action)
        case Void():
            _finish(new, RoomEnd.VOID)
        case _ if new.phase is Phase.LOBBY:
            raise NoOpenRound(f"room {new.id} has not started")
        case StartRound():
            _start_round(new, action)
        case Submit():
            _submit(new, action)
        case Expire():
            _expire(new, action)
        case Resign():
            _resign(new, action)
        case RoundShown():
            rnd = _open_round(new)
            if rnd.shown_at is None:
                rnd.shown_at = max(action.at, rnd.started_at)
        case ReplayRound():
            _replay(new, action)
        case _:
            assert_never(action)
    return new


def _lobby(state: RoomState, action: Join | Leave | Begin) -> None:
    if state.phase is not Phase.LOBBY:
        raise NotInLobby(f"room {state.id} has started")
    match action:
        case Join(player):
            if player in state.players:
                raise AlreadyIn(f"{player} is in room {state.id}")
            state.players.append(player)
            if len(state.players) == state.size:
                _play(state)
        case Leave(player):
            if player not in state.players:
                raise NotAPlayer(f"{player} is not in room {state.id}")
            if player == state.host:
                _finish(state, RoomEnd.HOST_LEFT)
            else:
                state.players.remove(player)
        case Begin(player):
            if player != state.host:
                raise NotHost(f"only the host starts room {state.id}")
            if len(state.players) < MIN_PLAYERS:
                raise TooFew(f"room {state.id} needs {MIN_PLAYERS} players")
            _play(state)


def _lobby_deadline(state: RoomState, action: Expire) -> None:
    if action.now < state.lobby_deadline:
        raise RoundStillOpen(f"the lobby of room {state.id} is open")
    if len(state.players) >= MIN_PLAYERS:
        _play(state)
    else:
        _finish(state, RoomEnd.CANCELLED)


def _play(state: RoomState) -> None:
    state.phase = Phase.PLAYING
    state.scores = [state.game_set.start_score] * len(state.players)
    state.misses = [0] * len(state.players)


def _open_round(state: RoomState) -> Round:
    current = state.current_round
    if current is None:
        raise NoOpenRound("no round is open")
    return current


def _start_round(state: RoomState, action: StartRound) -> None:
    if not wants_round(state):
        raise RoundStillOpen(f"round {len(state.rounds)} is still open")
    if not valid_digits(action.digits):
        raise ValueError(f"digits must be a number from 1000 to 9999, got {action.digits!r}")
    state.rounds.append(
        Round(
            number=len(state.rounds) + 1,
            digits=action.digits,
            started_at=action.now,
            deadline=action.now + state.game_set.time_limit,
            answers=[None] * len(state.players),
        )
    )


def _replay(state: RoomState, action: ReplayRound) -> None:
    """The bot was down through the round's deadline: the round is played again from
    `now`, same Digits, answers given stay (as a duel's)."""
    rnd = _open_round(state)
    if action.now < rnd.answer_deadline:
        raise RoundStillOpen(f"round {rnd.number} is open until its deadline")
    rnd.started_at = action.now
    rnd.deadline = action.now + state.game_set.time_limit
    rnd.shown_at = None


def _record(state: RoomState, rnd: Round, index: int, formula: str, result: Number,
            now: float, *, auto: bool = False) -> None:  # fmt: skip
    game_set = state.game_set
    points, score = apply_points(
        state.scores[index], result, game_set.goal, game_set.bonus, numbers=game_set.language_rules
    )
    elapsed = min(max(0.0, now - rnd.opened_at), float(game_set.time_limit))
    rnd.answers[index] = Answer(formula, result, points, score, elapsed, auto)


def _submit(state: RoomState, action: Submit) -> None:
    problem = submit_problem(state, action.player, action.now)
    if problem is not None:
        raise problem
    rnd = _open_round(state)
    _record(state, rnd, state.players.index(action.player), action.formula, action.result,
            action.now)  # fmt: skip
    _resolve_if_complete(state, rnd)


def _resolve_if_complete(state: RoomState, rnd: Round) -> None:
    if all(rnd.answers[i] is not None for i in state.still_in):
        _resolve(state, rnd, missed=[])


def _expire(state: RoomState, action: Expire) -> None:
    rnd = _open_round(state)
    if action.now < rnd.answer_deadline:
        raise RoundStillOpen(f"round {rnd.number} is open until its deadline")
    missed = [i for i in state.still_in if rnd.answers[i] is None]
    for index in missed:
        formula, result = auto_move(rnd.digits)
        _record(state, rnd, index, formula, result, rnd.answer_deadline, auto=True)
    _resolve(state, rnd, missed)


def _resolve(state: RoomState, rnd: Round, missed: list[int]) -> None:
    """Apply the round's answers, put out who missed twice in a row, decide the end."""
    for index in state.still_in:
        answer = rnd.answers[index]
        assert answer is not None
        state.scores[index] = answer.score
        state.misses[index] = state.misses[index] + 1 if index in missed else 0
    rnd.resolved = True
    batch = _next_batch(state)
    for index in missed:
        if state.misses[index] >= MISSES_OUT:
            state.exits.append(Exit(index, rnd.number, ExitReason.MISSED, batch))
    in_now = state.still_in
    if any(is_zero(state.scores[i]) for i in in_now):
        _finish(state, RoomEnd.CHECKOUT)
    elif not in_now:
        _finish(state, RoomEnd.ALL_OUT)
    elif len(in_now) == 1:
        _finish(state, RoomEnd.LAST_IN)
    elif rnd.number >= state.game_set.max_rounds:
        _finish(state, RoomEnd.MAX_ROUNDS)


def _next_batch(state: RoomState) -> int:
    return max((e.batch for e in state.exits), default=0) + 1


def _resign(state: RoomState, action: Resign) -> None:
    """Leaving a room in play: out now, an answer of the open round not counted."""
    index = state.players.index(action.player) if action.player in state.players else -1
    if index < 0:
        raise NotAPlayer(f"{action.player} is not in room {state.id}")
    if not state.is_in(index):
        raise OutOfRoom(f"{action.player} is out of room {state.id}")
    rnd = state.current_round
    if rnd is not None:
        rnd.answers[index] = None
    state.exits.append(Exit(index, len(state.rounds), ExitReason.LEFT, _next_batch(state)))
    in_now = state.still_in
    if len(in_now) == 1:
        if rnd is not None:
            rnd.resolved = True
        _finish(state, RoomEnd.LAST_IN)
    elif rnd is not None:
        _resolve_if_complete(state, rnd)


def _finish(state: RoomState, end: RoomEnd) -> None:
    if state.phase is Phase.PLAYING and end is not RoomEnd.VOID and nobody_played(state):
        end = RoomEnd.VOID
    if state.rounds and not state.rounds[-1].resolved:
        state.rounds[-1].resolved = True
    state.phase = Phase.OVER
    state.end = end
    if end not in (RoomEnd.VOID, RoomEnd.CANCELLED, RoomEnd.HOST_LEFT):
        state.standings = standings(state)


def standings(state: RoomState) -> list[Standing]:
    """Places as RULES.md ranks a room: players still in by Score (0 first, equal Scores
    share a place), then those out, the last to go out first (one batch by Score).
    The order is by place, then total answering time (for display only)."""
    batches = {e.player: e.batch for e in state.exits}

    def key(index: int) -> tuple[int, int, Number]:
        if index in batches:
            return (1, -batches[index], state.scores[index])
        return (0, 0, state.scores[index])

    keys = [key(i) for i in range(len(state.players))]
    places = [1 + sum(other < mine for other in keys) for mine in keys]
    order = sorted(range(len(state.players)), key=lambda i: (places[i], answer_time(state, i)))
    return [Standing(i, places[i]) for i in order]


def answer_time(state: RoomState, index: int) -> float:
    return sum(a.elapsed for rnd in state.rounds if (a := rnd.answers[index]) is not None)
