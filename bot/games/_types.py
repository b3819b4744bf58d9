"""The service's vocabulary: what it needs (an evaluator, an announcer), what it returns
(a submit result) and how it refuses (GameError). No Discord here either."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

import rules
from bot.storage import Challenge, GameRecord, RatingChange
from evaluator.result import EvalError, Evaluation
from rules import GameSet, GameState

CHALLENGE_TTL = 300.0
"""Seconds a duel challenge waits for the opponent (issue 4: five minutes)."""

EVALUATOR_TIMEOUT_S = 2.0
"""PHP's time limit when the evaluator does not tell its own (EvaluatorSettings.timeout_s)."""

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


def random_digits_source(state: GameState, number: int) -> str:
    del state, number
    return rules.random_digits()


class Evaluating(Protocol):
    async def evaluate(
        self, formula: str, digits: str, functions: Iterable[str]
    ) -> Evaluation | EvalError: ...


def answer_grace(evaluator: object) -> float:
    """The longest a deadline waits for answers still in PHP: its time limit plus a margin.

    `Evaluator.timeout_s` tells the limit; stand-ins in tests get the default one.
    """
    timeout = getattr(evaluator, "timeout_s", None)
    if not isinstance(timeout, int | float):
        timeout = EVALUATOR_TIMEOUT_S
    return float(timeout) + ANSWER_GRACE_MARGIN_S


class GameEvents(Protocol):
    """What the service announces; the Discord side renders it. Called after saving."""

    async def round_started(self, record: GameRecord, *, replayed: bool = False) -> None: ...

    async def answer_received(self, record: GameRecord, player: int) -> None: ...

    async def round_resolved(self, record: GameRecord, number: int) -> None: ...

    async def game_over(self, record: GameRecord, ratings: list[RatingChange]) -> None: ...

    async def challenge_closed(self, challenge: Challenge, status: str) -> None: ...


class GameError(Exception):
    """A refusal the player caused. `code` names a catalog message under `errors.`."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


@dataclass(frozen=True, slots=True)
class SubmitResult:
    """What became of one submitted formula: an error to retry, or an accepted answer."""

    record: GameRecord
    round_number: int
    evaluation: Evaluation | None = None
    error: EvalError | None = None
    secret: bool = False
