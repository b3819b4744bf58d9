"""The service's vocabulary: what it needs (an evaluator, an announcer), what it returns
(a submit result) and how it refuses (GameError). No Discord here either."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

import rules
from bot.common import UserError, mention, timestamp
from bot.storage import Challenge, ChallengeStatus, GameRecord, RatingChange
from evaluator.result import EvalError, Evaluation
from rules import GameSet, GameState

log = logging.getLogger(__name__)

CHALLENGE_TTL = 300.0
"""Seconds a duel challenge waits for the opponent (issue 4: five minutes)."""

ANSWER_GRACE_MARGIN_S = 3.0
"""Beyond PHP's time limit, how long a deadline waits for an answer received before it
(a queue in front of the PHP pool, the lock, the save)."""

DEADLINE_RETRY_FIRST_S = 1.0
DEADLINE_RETRY_MAX_S = 60.0
DEADLINE_TRIES = 8
"""A deadline whose save failed is retried after 1, 2, 4 ... 60 s, eight tries in all
(about two minutes); then the game waits for the next restart (`recover`)."""

DigitsSource = Callable[[GameState, int], str]
"""The Digits of round n of a game that is not seeded (tests force them)."""

Clock = Callable[[], float]
OpenChannel = Callable[[GameSet], Awaitable[int]]
OpenDuelChannel = Callable[[Challenge, GameSet], Awaitable[int]]


def random_digits_source(state: GameState, number: int) -> str:
    del state, number
    return rules.random_digits()


class Evaluating(Protocol):
    """The PHP judge as the service uses it (`evaluator.Evaluator` is one)."""

    @property
    def timeout_s(self) -> float:
        """The longest one formula may take in PHP: a deadline waits that long for it."""
        ...

    async def evaluate(
        self, formula: str, digits: str, functions: Iterable[str]
    ) -> Evaluation | EvalError: ...


def answer_grace(evaluator: Evaluating) -> float:
    """The longest a deadline waits for answers still in PHP: its time limit plus a margin."""
    return float(evaluator.timeout_s) + ANSWER_GRACE_MARGIN_S


class GameEvents(Protocol):
    """What the service announces; the Discord side renders it. Called after saving."""

    async def round_started(self, record: GameRecord, *, replayed: bool = False) -> None: ...

    async def answer_received(self, record: GameRecord, player: int) -> None: ...

    async def round_resolved(self, record: GameRecord, number: int) -> None: ...

    async def game_over(self, record: GameRecord, ratings: list[RatingChange]) -> None: ...

    async def challenge_closed(self, challenge: Challenge, status: ChallengeStatus) -> None: ...


class NoEvents:
    """Announces nothing: a service without a front end (tests, the benchmarks)."""

    async def round_started(self, record: GameRecord, *, replayed: bool = False) -> None:
        del record, replayed

    async def answer_received(self, record: GameRecord, player: int) -> None:
        del record, player

    async def round_resolved(self, record: GameRecord, number: int) -> None:
        del record, number

    async def game_over(self, record: GameRecord, ratings: list[RatingChange]) -> None:
        del record, ratings

    async def challenge_closed(self, challenge: Challenge, status: ChallengeStatus) -> None:
        del challenge, status


class GameError(UserError):
    """A refusal the player caused. `code` names a catalog message under `errors.`;
    the rules' own refusals keep the rules' code (`rules.RulesError.code`)."""

    prefix = "errors."

    @classmethod
    def of(cls, problem: rules.RulesError) -> GameError:
        return cls(problem.code)

    def display_params(self) -> dict[str, Any]:
        params = dict(self.params)
        for key in ("user", "opponent"):
            if key in params:
                params[key] = mention(params[key])
        if "expires" in params:
            params["expires"] = timestamp(float(params["expires"]))
        return params


@dataclass(frozen=True, slots=True)
class SubmitResult:
    """What became of one submitted formula: an error to retry, or an accepted answer."""

    record: GameRecord
    round_number: int
    evaluation: Evaluation | None = None
    error: EvalError | None = None
    secret: bool = False


async def announce(what: str, call: Awaitable[None]) -> None:
    """Run one announcement; a failed one is logged and the game goes on (it is saved)."""
    try:
        await call
    except Exception:
        log.exception("announcing %s failed", what)
