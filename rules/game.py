"""Game state machines for the single modes and the duel.

Shaped like python-chess: a plain state that round-trips through JSON, pure
transitions (`apply(state, action)` returns a new state, the old one is left
alone), `state.outcome` that is None while the game goes on, and a legality
query beside the move (`submit_problem` beside `apply(Submit)`, as python-chess
has `is_legal` beside `push`). Time is data: callers pass `now` (seconds since
the epoch), the rules never read a clock.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import Any, assert_never

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
from rules.scoring import Number, apply_points, is_zero
from rules.sets import GameSet
from rules.state import Answer, GameState, Mode, Outcome, Round, Termination

__all__ = [
    "Action",
    "Answer",
    "Expire",
    "GameState",
    "Mode",
    "Outcome",
    "ReplayRound",
    "Resign",
    "Round",
    "RoundShown",
    "StartRound",
    "Submit",
    "Termination",
    "Void",
    "answer_time",
    "apply",
    "is_loss",
    "new_game",
    "nobody_played",
    "ranking_key",
    "submit_problem",
]


@dataclass(frozen=True, slots=True)
class StartRound:
    digits: str
    now: float


@dataclass(frozen=True, slots=True)
class Submit:
    """A player's valid formula with the Result real PHP gave it."""

    player: str
    formula: str
    result: Number
    now: float


@dataclass(frozen=True, slots=True)
class Expire:
    """The open round's deadline has come."""

    now: float


@dataclass(frozen=True, slots=True)
class Resign:
    player: str


@dataclass(frozen=True, slots=True)
class ReplayRound:
    """The open round's deadline passed while nobody could answer (the bot was down):
    play it again from `now` with the same Digits; answers already given stay."""

    now: float


@dataclass(frozen=True, slots=True)
class RoundShown:
    """The open round's message appeared to the players at `at` (Discord's clock).

    Answers are timed from then and count until the deadline plus the post's delay;
    only the first report counts, and a time before the round's start counts as the
    start.
    """

    at: float


@dataclass(frozen=True, slots=True)
class Void:
    """The game cannot be run (the bot lost its thread, its permissions, the server)
    or an admin voids it: it ends without a result (RULES.md "Void")."""


Action = StartRound | Submit | Expire | Resign | ReplayRound | RoundShown | Void


def new_game(game_id: str, mode: Mode, game_set: GameSet, players: list[str]) -> GameState:
    if len(players) != mode.players or len(set(players)) != len(players):
        raise BadPlayers(f"{mode.value} needs {mode.players} distinct player(s)")
    return GameState(
        id=game_id,
        mode=mode,
        game_set=game_set,
        players=list(players),
        scores=[game_set.start_score] * len(players),
    )


def submit_problem(
    state: GameState, player: str, now: float, round_number: int | None = None
) -> RulesError | None:
    """Why `player` may not answer now (round `round_number`, or whichever is open), or None.

    The one place that decides it: `apply(Submit)` raises what this returns, and a
    front end asks it before it opens an answer form or spends PHP on a formula.
    Each cause has its own error: a round (or a single game) that ran out of time
    before the player answered is `DeadlinePassed`; a button of an earlier round
    the player did answer, or that ended early, is `RoundOver`.
    """
    if player not in state.players:
        return NotAPlayer(f"{player} is not a player of game {state.id}")
    index = state.players.index(player)
    result = state.outcome
    if result is not None:
        timed_out = result.termination is Termination.TIMEOUT
        if timed_out and round_number in (None, result.rounds):
            return DeadlinePassed(f"round {result.rounds} ended at its deadline")
        return GameOver(f"game {state.id} is over")
    current = state.current_round
    if round_number is not None:
        latest = len(state.rounds)
        if round_number < latest or (round_number == latest and current is None):
            answer = state.rounds[round_number - 1].answers[index]
            if answer is not None and answer.auto:  # it ended at its deadline, unanswered
                return DeadlinePassed(f"round {round_number} ended at its deadline")
            return RoundOver(f"round {round_number} is over")
        if round_number > latest:
            return NoOpenRound(f"round {round_number} has not started")
    if current is None:
        return NoOpenRound("no round is open")
    if now > current.answer_deadline:
        return DeadlinePassed(f"round {current.number} ended at its deadline")
    if current.answers[index] is not None:
        return AlreadyAnswered(f"{player} has answered round {current.number}")
    return None


def _init_values(cls: type) -> attrgetter[Any]:
    """An instance's fields in its __init__'s order: `cls(*values(obj))` is `replace(obj)`
    at a fifth of its cost, and a field added to `cls` is copied with no change here."""
    return attrgetter(*(f.name for f in fields(cls)))


_STATE, _ROUND, _ANSWER = _init_values(GameState), _init_values(Round), _init_values(Answer)


def _copy(state: GameState) -> GameState:
    """A copy that `apply` may change: what the rules change (the lists, the rounds, the
    answers) is new, the frozen parts (the Set, the outcome) are shared. The same as
    copy.deepcopy for this state, at a fraction of its cost on every answer."""
    new = GameState(*_STATE(state))
    new.players, new.scores, new.rounds = list(state.players), list(state.scores), []
    for old in state.rounds:
        rnd = Round(*_ROUND(old))
        rnd.answers = [None if a is None else Answer(*_ANSWER(a)) for a in old.answers]
        new.rounds.append(rnd)
    return new


def apply(
    state: GameState, action: Action, then: Callable[[GameState], Action | None] | None = None
) -> GameState:
    """Return the state after `action`; raise a RulesError if it is not allowed.

    `then`: what follows `action` at once, asked of the state it made (None: nothing),
    as `apply(apply(state, action), then(...))` would, with one copy for both steps
    instead of two: an answer that resolves its round and the next round's start are
    one step of the bot's. `then` must only read the state it is given.
    """
    if state.outcome is not None:
        raise GameOver(f"game {state.id} is over")
    new = _copy(state)
    _step(new, action)
    follow = then(new) if then is not None else None
    if follow is not None:
        if new.outcome is not None:
            raise GameOver(f"game {state.id} is over")
        _step(new, follow)
    return new


def _step(new: GameState, action: Action) -> None:
    """`action` done to `new`, a copy of `apply`'s own."""
    match action:  # a new Action that is not handled here fails mypy (assert_never)
        case StartRound():
            _start_round(new, action)
        case Submit():
            _submit(new, action)
        case Expire():
            _expire(new, action)
        case ReplayRound():
            _replay(new, action)
        case RoundShown():
            _shown(new, action)
        case Void():
            _void(new)
        case Resign():
            _resign(new, action)
        case _:
            assert_never(action)


def _start_round(state: GameState, action: StartRound) -> None:
    if state.current_round is not None:
        raise RoundStillOpen(f"round {state.current_round.number} is still open")
    if len(state.rounds) >= state.game_set.max_rounds:
        raise GameOver("all rounds are played")
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


def _open_round(state: GameState) -> Round:
    current = state.current_round
    if current is None:
        raise NoOpenRound("no round is open")
    return current


def _record(
    state: GameState,
    rnd: Round,
    index: int,
    formula: str,
    result: Number,
    now: float,
    *,
    auto: bool = False,
) -> None:
    game_set = state.game_set
    points, score = apply_points(
        state.scores[index], result, game_set.goal, game_set.bonus, numbers=game_set.language_rules
    )
    elapsed = min(max(0.0, now - rnd.opened_at), float(game_set.time_limit))
    rnd.answers[index] = Answer(formula, result, points, score, elapsed, auto)


def _submit(state: GameState, action: Submit) -> None:
    problem = submit_problem(state, action.player, action.now)
    if problem is not None:
        raise problem
    index = state.player_index(action.player)
    rnd = _open_round(state)
    _record(state, rnd, index, action.formula, action.result, action.now)
    if all(a is not None for a in rnd.answers):
        _resolve(state, rnd)


def _expire(state: GameState, action: Expire) -> None:
    rnd = _open_round(state)
    if action.now < rnd.answer_deadline:
        raise RoundStillOpen(f"round {rnd.number} is open until its deadline")
    if not state.mode.is_duel:
        rnd.resolved = True
        state.outcome = Outcome(Termination.TIMEOUT, None, rnd.number)
        return
    for index, answer in enumerate(rnd.answers):
        if answer is None:
            formula, result = auto_move(rnd.digits)
            _record(state, rnd, index, formula, result, rnd.answer_deadline, auto=True)
    _resolve(state, rnd)


def _replay(state: GameState, action: ReplayRound) -> None:
    rnd = _open_round(state)
    if action.now < rnd.answer_deadline:
        raise RoundStillOpen(f"round {rnd.number} is open until its deadline")
    rnd.started_at = action.now
    rnd.deadline = action.now + state.game_set.time_limit
    rnd.shown_at = None


def _shown(state: GameState, action: RoundShown) -> None:
    rnd = _open_round(state)
    if rnd.shown_at is None:
        rnd.shown_at = max(action.at, rnd.started_at)


def _void(state: GameState) -> None:
    if state.current_round is not None:
        state.rounds[-1].resolved = True
    state.outcome = Outcome(Termination.VOID, None, len(state.rounds))


def nobody_played(state: GameState) -> bool:
    """Whether a duel has gone by with no player answering: it has rounds, and every
    answer of every one is the deadline's auto-move. Both players then have the same
    Score and the same end; rating that would move Elo for a game nobody played, so a
    duel that ends so is void (RULES.md "Void"). A single game has no auto-move."""
    return (
        state.mode.is_duel
        and bool(state.rounds)
        and all(a is not None and a.auto for rnd in state.rounds for a in rnd.answers)
    )


def _resolve(state: GameState, rnd: Round) -> None:
    """Apply every answer of the round, then decide whether the game ends (void when
    nobody played it: `nobody_played`)."""
    for index, answer in enumerate(rnd.answers):
        assert answer is not None
        state.scores[index] = answer.score
    rnd.resolved = True
    zeros = [i for i, score in enumerate(state.scores) if is_zero(score)]
    perfect = rnd.number <= state.game_set.min_rounds
    if len(zeros) == 1:
        state.outcome = Outcome(Termination.CHECKOUT, zeros[0], rnd.number, perfect)
    elif len(zeros) > 1:
        state.outcome = Outcome(Termination.CHECKOUT, None, rnd.number, perfect)
    elif rnd.number >= state.game_set.max_rounds:
        winner = None if state.mode.is_duel else 0
        state.outcome = Outcome(Termination.MAX_ROUNDS, winner, rnd.number)
    if state.outcome is not None and nobody_played(state):
        state.outcome = Outcome(Termination.VOID, None, rnd.number)


def _resign(state: GameState, action: Resign) -> None:
    index = state.player_index(action.player)
    rounds = len(state.rounds)
    if state.current_round is not None:
        state.rounds[-1].resolved = True
    state.resigned = index
    winner = 1 - index if state.mode.is_duel else None
    state.outcome = Outcome(Termination.RESIGN, winner, rounds)


def is_loss(result: Outcome, player_index: int = 0) -> bool:
    """Whether the game counts as lost for that player (a duel draw or a void is not)."""
    if result.termination is Termination.VOID:
        return False
    if result.winner is None:
        return result.termination in (Termination.TIMEOUT, Termination.RESIGN)
    return result.winner != player_index


def answer_time(state: GameState, player_index: int = 0) -> float:
    """Total seconds a player spent answering, the ranking's tie-breaker."""
    return sum(
        answer.elapsed for rnd in state.rounds if (answer := rnd.answers[player_index]) is not None
    )


def ranking_key(state: GameState) -> tuple[int, float, float]:
    """Qualification order, smaller is better (RULES.md).

    Checkouts by fewest rounds (Perfect is naturally on top), then finished
    games by remaining Score, then losses (and void games, which no board shows);
    ties by total answering time.
    """
    result = state.outcome
    time_spent = answer_time(state)
    unranked = (Termination.TIMEOUT, Termination.RESIGN, Termination.VOID)
    if result is None or result.termination in unranked:
        return (2, float(state.scores[0]), time_spent)
    if result.termination is Termination.CHECKOUT:
        return (0, float(result.rounds), time_spent)
    return (1, float(state.scores[0]), time_spent)
