"""The readiness checks `/healthz` runs: logged in, the store answers, PHP answers.

Each asks the real part a real question (a read, a formula), so "ready" means
an answer could be handled now, not merely that the objects exist.
"""

from __future__ import annotations

from collections.abc import Awaitable, Iterable
from typing import Protocol

from bot.observability._server import HealthCheck
from evaluator.result import EvalError, Evaluation

PROBE_GAME_ID = "healthz"
"""No game has it (ids are hex), so the read finds nothing and writes nothing."""

PROBE_FORMULA, PROBE_DIGITS, PROBE_RESULT = "1+2+3+4", "1234", 10


class Gateway(Protocol):
    """`discord.Client` as the check sees it."""

    def is_ready(self) -> bool: ...

    def is_closed(self) -> bool: ...


class GameReader(Protocol):
    """`Store.games` as the check sees it."""

    async def load_game(self, game_id: str) -> object: ...


class Judge(Protocol):
    """`evaluator.Evaluator` as the check sees it."""

    def evaluate(
        self, formula: str, digits: str, functions: Iterable[str]
    ) -> Awaitable[Evaluation | EvalError]: ...


def logged_in(client: Gateway) -> HealthCheck:
    def check() -> bool:
        return client.is_ready() and not client.is_closed()

    return check


def store_answers(games: GameReader) -> HealthCheck:
    async def check() -> bool:
        await games.load_game(PROBE_GAME_ID)
        return True

    return check


def evaluator_answers(evaluator: Judge) -> HealthCheck:
    async def check() -> bool:
        verdict = await evaluator.evaluate(PROBE_FORMULA, PROBE_DIGITS, ())
        return isinstance(verdict, Evaluation) and verdict.value == PROBE_RESULT

    return check


def readiness_checks(
    client: Gateway, games: GameReader, evaluator: Judge
) -> dict[str, HealthCheck]:
    """The three checks by the names `/healthz` reports (the store's is a read of
    `Store.games`)."""
    return {
        "discord": logged_in(client),
        "store": store_answers(games),
        "evaluator": evaluator_answers(evaluator),
    }
