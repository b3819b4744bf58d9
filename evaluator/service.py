"""The one async API the bot uses: check a formula, then let real PHP judge it.

`open_evaluator()` picks the sandbox (Docker when asked or available, else the
local bubblewrap pool), warms it and proves it answers before the bot takes a
single formula, so a broken host fails at startup with the reason.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Iterable
from types import TracebackType
from typing import Protocol

from evaluator.check import check
from evaluator.result import EvalError, FormulaError, Verdict
from evaluator.sandbox.base import WorkerFactory
from evaluator.sandbox.local import LocalWorkerFactory, SandboxUnavailable
from evaluator.sandbox.penalty import PenaltyBox
from evaluator.sandbox.pool import WorkerPool
from evaluator.sandbox.stats import PoolObserver, PoolStats
from evaluator.settings import EvaluatorSettings

log = logging.getLogger(__name__)


class HasFunctions(Protocol):
    """Anything carrying a Set's allowed functions, e.g. `rules.sets.GameSet`."""

    @property
    def functions(self) -> tuple[str, ...]: ...


Functions = Iterable[str] | HasFunctions


def _names(functions: Functions) -> tuple[str, ...]:
    if isinstance(functions, str):
        return (functions,)
    if hasattr(functions, "functions"):
        return tuple(functions.functions)
    return tuple(functions)


class Evaluator:
    """Checker + warm PHP pool. Never raises for a formula: every outcome is a Verdict."""

    def __init__(self, pool: WorkerPool, reason: str = "") -> None:
        self.pool = pool
        self.reason = reason

    @property
    def backend(self) -> str:
        return self.pool.backend

    @property
    def timeout_s(self) -> float:
        """The longest one formula may take in PHP (callers size their waits by it)."""
        return self.pool.timeout_s

    def stats(self) -> PoolStats:
        """Queue depth, workers, restarts by reason and counters (see PoolStats)."""
        return self.pool.stats()

    async def evaluate(
        self, formula: str, digits: str, functions: Functions, *, who: str | None = None
    ) -> Verdict:
        """Check `formula` against the round's `digits` and the Set's functions, then run it.

        `who` (the player id) is charged when the formula ends its PHP worker;
        a caller who keeps doing that is slowed down, nobody else is."""
        try:
            text = check(formula, digits, _names(functions))
        except FormulaError as exc:
            return exc.error
        return await self.pool.run(text, who=who)

    async def evaluate_many(self, items: Iterable[tuple[str, str, Functions]]) -> list[Verdict]:
        """Evaluate (formula, digits, functions) triples; verdicts come back in order."""
        verdicts: list[Verdict | None] = []
        passed: list[tuple[int, str]] = []
        for formula, digits, functions in items:
            try:
                passed.append((len(verdicts), check(formula, digits, _names(functions))))
                verdicts.append(None)
            except FormulaError as exc:
                verdicts.append(exc.error)
        ran = await self.pool.run_many(text for _, text in passed)
        for (index, _), verdict in zip(passed, ran, strict=True):
            verdicts[index] = verdict
        return [v for v in verdicts if v is not None]

    async def run_raw(self, code: str) -> Verdict:
        """Tests only: PHP statements without the checker (see WorkerPool.run_raw)."""
        return await self.pool.run_raw(code)

    async def close(self) -> None:
        await self.pool.close()

    async def __aenter__(self) -> Evaluator:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()


def _docker_factory(settings: EvaluatorSettings) -> tuple[WorkerFactory | None, str]:
    """The Docker factory if the engine and image are usable, else None and why.

    Imported lazily: the docker SDK is only needed when Docker is used, and a
    broken Docker setup must not stop the local sandbox from working.
    """
    try:
        docker = importlib.import_module("evaluator.sandbox.docker")
        available, why = docker.docker_available(settings)
        if not available:
            return None, f"Docker is not usable: {why}"
        factory: WorkerFactory = docker.DockerWorkerFactory(settings)
    except Exception as exc:
        return None, f"the Docker backend failed to load: {type(exc).__name__}: {exc}"
    return factory, f"Docker is available ({why})"


def make_factory(settings: EvaluatorSettings) -> tuple[WorkerFactory, str]:
    """Choose the backend per `settings.evaluator` and say why, for the log."""
    if settings.evaluator in ("auto", "docker"):
        factory, why = _docker_factory(settings)
        if factory is not None:
            return factory, why
        if settings.evaluator == "docker":
            raise SandboxUnavailable(f"EVALUATOR=docker, but {why}")
        local = LocalWorkerFactory(settings)
        return local, f"{why}; using the local {local.name} sandbox"
    local = LocalWorkerFactory(settings)
    return local, f"EVALUATOR=local ({local.name})"


def make_pool(
    factory: WorkerFactory, settings: EvaluatorSettings, observer: PoolObserver | None = None
) -> WorkerPool:
    return WorkerPool(
        factory,
        size=settings.pool_size,
        timeout_s=settings.timeout_s,
        queue_limit=settings.queue_limit,
        max_requests=settings.max_requests,
        # Busy wall time bounds PHP's CPU time; retire at half the lifetime budget.
        max_busy_s=settings.cpu_budget_s / 2,
        penalties=PenaltyBox(settings.free_kills, settings.kill_refill_s),
        observer=observer,
    )


async def open_evaluator(
    settings: EvaluatorSettings | None = None,
    *,
    warm: bool = True,
    observer: PoolObserver | None = None,
) -> Evaluator:
    """Build the evaluator the settings ask for; with `warm`, start and probe every worker.

    `observer` hears each request's PHP latency and each worker restart.
    Raises SandboxUnavailable / SandboxStartError when no sandbox can run.
    """
    settings = settings or EvaluatorSettings()
    factory, reason = make_factory(settings)
    log.info("evaluator backend: %s — %s", factory.name, reason)
    pool = make_pool(factory, settings, observer)
    if warm:
        await pool.start()
    return Evaluator(pool, reason)


def error_text(error: EvalError) -> str:
    """One line for humans: `[code] message (PhpClass)`."""
    php = f" ({error.php_class})" if error.php_class else ""
    return f"[{error.code.value}] {error.message}{php}"
