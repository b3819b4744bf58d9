"""The one async API the bot uses: check a formula, then let real PHP (or node) judge it.

`open_evaluator()` picks the sandbox (Docker when asked or available, else the
local bubblewrap pool), warms it and proves it answers before the bot takes a
single formula, so a broken host fails at startup with the reason.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
from collections.abc import Awaitable, Iterable
from types import TracebackType
from typing import Protocol, runtime_checkable

from evaluator.checked import Checked
from evaluator.language import Language, language
from evaluator.result import ErrorCode, EvalError, FormulaError, Verdict
from evaluator.sandbox.base import WorkerFactory
from evaluator.sandbox.local import LocalWorkerFactory, SandboxUnavailable
from evaluator.sandbox.penalty import PenaltyBox
from evaluator.sandbox.pool import SandboxStartError, WorkerPool
from evaluator.sandbox.program import PHP, WorkerProgram
from evaluator.sandbox.stats import PoolObserver, PoolStats
from evaluator.settings import EvaluatorSettings
from rules.game_set import FormulaLanguage, GameSet

log = logging.getLogger(__name__)


class HasFunctions(Protocol):
    """Anything carrying a Set's allowed functions, e.g. `rules.sets.GameSet`."""

    @property
    def functions(self) -> tuple[str, ...]: ...


@runtime_checkable
class HasLanguage(Protocol):
    """A Set that names its formula language (`rules.sets.GameSet`)."""

    @property
    def language(self) -> FormulaLanguage: ...


Functions = Iterable[str] | HasFunctions


_PHP = language(FormulaLanguage.PHP)
_NAMES_ONLY = (tuple, list, frozenset, set, str)


def _reading(
    functions: Functions, chosen: FormulaLanguage | None
) -> tuple[Language, tuple[str, ...]]:
    """The formula's language (the one asked for, else the Set's, else PHP's) and the
    Set's function names, read once per formula. A Set (the bot's call) or a plain
    collection of names is told by its type first: an `isinstance` against a runtime
    Protocol walks the Protocol's members every time (23 µs per formula, as much as the
    whole checker)."""
    if type(functions) is tuple and chosen is None:  # names, as most tools pass them
        return _PHP, functions
    if isinstance(functions, GameSet):
        own, names = language(functions.language), functions.functions
    elif isinstance(functions, _NAMES_ONLY):
        own = _PHP
        names = (functions,) if isinstance(functions, str) else tuple(functions)
    else:
        own = language(functions.language) if isinstance(functions, HasLanguage) else _PHP
        names = tuple(functions.functions) if hasattr(functions, "functions") else tuple(functions)
    return (own if chosen is None else language(chosen)), names


def _settled(verdict: Verdict) -> asyncio.Future[Verdict]:
    """A verdict known at once, as something to await (it takes no turn of the loop)."""
    future: asyncio.Future[Verdict] = asyncio.get_running_loop().create_future()
    future.set_result(verdict)
    return future


class Evaluator:
    """Checker + warm pool per language. Never raises for a formula: every outcome is a Verdict.

    `pool` is PHP's (the default language); another language's pool is opened
    with `settings` the first time a formula of that language comes (or at
    start, for the languages `open_evaluator` is asked to warm).
    """

    def __init__(
        self,
        pool: WorkerPool,
        reason: str = "",
        *,
        settings: EvaluatorSettings | None = None,
        observer: PoolObserver | None = None,
    ) -> None:
        self.pool = pool
        self.reason = reason
        self.settings = settings
        self.observer = observer
        self._pools: dict[FormulaLanguage, WorkerPool] = {FormulaLanguage.PHP: pool}
        self._opening: dict[FormulaLanguage, asyncio.Task[WorkerPool]] = {}
        self._checked = Checked()

    def adopt(self, key: FormulaLanguage, pool: WorkerPool) -> None:
        """Use `pool` (started, of `key`'s program) for `key`'s formulas; closed with this."""
        self._pools[key] = pool

    async def pool_for(self, key: FormulaLanguage) -> WorkerPool | EvalError:
        """The language's warm pool, opened (once) on first use; an EvalError if it cannot run."""
        if key in self._pools:
            return self._pools[key]
        if self.settings is None or self.pool.closed:
            return EvalError(ErrorCode.SANDBOX, f"no {key.value} sandbox in this evaluator")
        if key not in self._opening:
            program = language(key).program
            self._opening[key] = asyncio.ensure_future(
                _open_pool(self.settings, program, self.observer)
            )
        try:
            pool = await asyncio.shield(self._opening[key])
        except (SandboxUnavailable, SandboxStartError) as exc:
            self._opening.pop(key, None)
            return EvalError(ErrorCode.SANDBOX, str(exc))
        self._pools[key] = pool
        return pool

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

    def evaluate(
        self,
        formula: str,
        digits: str,
        functions: Functions,
        *,
        who: str | None = None,
        language: FormulaLanguage | None = None,
    ) -> Awaitable[Verdict]:
        """Check `formula` against the round's `digits` and the Set's functions, then run it.

        The language is `language`, else the Set's (when `functions` is a Set),
        else PHP. `who` (the player id) is charged when the formula ends its
        worker; a caller who keeps doing that is slowed down, nobody else is.

        Awaited as a coroutine was (`await evaluator.evaluate(...)`), but it is none:
        what it hands back is the pool's future (`WorkerPool.submit`), or a verdict
        already settled, so a formula costs no coroutine of its own here. A formula
        that passed before with the same digits and Set is not checked again
        (`Checked`)."""
        lang, names = _reading(functions, language)
        which = lang.rules.key  # not the `key` property's frame
        key = (formula, digits, names, which)
        text = self._checked.get(key)
        if text is None:
            try:
                text = lang.check(formula, digits, names)
            except FormulaError as exc:
                return _settled(exc.error)
            self._checked.put(key, text)
        pool = self._pools.get(which)  # open already, the common case: no coroutine
        if pool is None:
            return self._submit_opening(which, text, who)
        return pool.submit(text, who=who)

    async def _submit_opening(self, key: FormulaLanguage, text: str, who: str | None) -> Verdict:
        """`evaluate` for a language whose pool is not open yet: open it first."""
        pool = await self.pool_for(key)
        if isinstance(pool, EvalError):
            return pool
        return await pool.submit(text, who=who)

    async def evaluate_many(
        self,
        items: Iterable[tuple[str, str, Functions]],
        *,
        language: FormulaLanguage | None = None,
    ) -> list[Verdict]:
        """Evaluate (formula, digits, functions) triples; verdicts come back in order."""
        verdicts: list[Verdict | None] = []
        passed: dict[FormulaLanguage, list[tuple[int, str]]] = {}
        for formula, digits, functions in items:
            lang, names = _reading(functions, language)
            try:
                text = lang.check(formula, digits, names)
            except FormulaError as exc:
                verdicts.append(exc.error)
                continue
            passed.setdefault(lang.key, []).append((len(verdicts), text))
            verdicts.append(None)
        for key, jobs in passed.items():
            pool = await self.pool_for(key)
            if isinstance(pool, EvalError):
                ran: list[Verdict] = [pool] * len(jobs)
            else:
                ran = await pool.run_many(text for _, text in jobs)
            for (index, _), verdict in zip(jobs, ran, strict=True):
                verdicts[index] = verdict
        return [v for v in verdicts if v is not None]

    async def run_raw(self, code: str, *, language: FormulaLanguage | None = None) -> Verdict:
        """Tests only: statements without the checker (see WorkerPool.run_raw)."""
        pool = await self.pool_for(language or FormulaLanguage.PHP)
        if isinstance(pool, EvalError):
            return pool
        return await pool.run_raw(code)

    async def close(self) -> None:
        for task in self._opening.values():
            task.cancel()
        for pool in list(self._pools.values()):
            await pool.close()
        for task in self._opening.values():
            if task.done() and not task.cancelled() and task.exception() is None:
                await task.result().close()

    async def __aenter__(self) -> Evaluator:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()


def _docker_factory(
    settings: EvaluatorSettings, program: WorkerProgram = PHP
) -> tuple[WorkerFactory | None, str]:
    """The Docker factory if the engine and image are usable, else None and why.

    Imported lazily: the docker SDK is only needed when Docker is used, and a
    broken Docker setup must not stop the local sandbox from working.
    """
    try:
        docker = importlib.import_module("evaluator.sandbox.docker")
        available, why = docker.docker_available(settings, program)
        if not available:
            return None, f"Docker is not usable: {why}"
        factory: WorkerFactory = docker.DockerWorkerFactory(settings, program=program)
    except Exception as exc:
        return None, f"the Docker backend failed to load: {type(exc).__name__}: {exc}"
    return factory, f"Docker is available ({why})"


def make_factory(
    settings: EvaluatorSettings, program: WorkerProgram = PHP
) -> tuple[WorkerFactory, str]:
    """Choose the backend per `settings.evaluator` and say why, for the log."""
    if settings.evaluator in ("auto", "docker"):
        factory, why = _docker_factory(settings, program)
        if factory is not None:
            return factory, why
        if settings.evaluator == "docker":
            raise SandboxUnavailable(f"EVALUATOR=docker, but {why}")
        local = LocalWorkerFactory(settings, program=program)
        return local, f"{why}; using the local {local.name} sandbox"
    local = LocalWorkerFactory(settings, program=program)
    return local, f"EVALUATOR=local ({local.name})"


def make_pool(
    factory: WorkerFactory,
    settings: EvaluatorSettings,
    observer: PoolObserver | None = None,
    program: WorkerProgram = PHP,
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
        program=program,
    )


async def _open_pool(
    settings: EvaluatorSettings, program: WorkerProgram, observer: PoolObserver | None
) -> WorkerPool:
    """A started pool of `program`'s workers on the backend the settings choose."""
    factory, reason = make_factory(settings, program)
    log.info("%s evaluator backend: %s — %s", program.name, factory.name, reason)
    pool = make_pool(factory, settings, observer, program)
    await pool.start()
    return pool


async def open_evaluator(
    settings: EvaluatorSettings | None = None,
    *,
    warm: bool = True,
    observer: PoolObserver | None = None,
    languages: Iterable[FormulaLanguage] = (),
) -> Evaluator:
    """Build the evaluator the settings ask for; with `warm`, start and probe every worker.

    PHP's pool always; the pools of `languages` are opened now too (a broken
    node fails at startup), any other language's on its first formula.
    `observer` hears each request's latency and each worker restart.
    Raises SandboxUnavailable / SandboxStartError when no sandbox can run.
    """
    settings = settings or EvaluatorSettings()
    factory, reason = make_factory(settings)
    log.info("evaluator backend: %s — %s", factory.name, reason)
    pool = make_pool(factory, settings, observer)
    if warm:
        await pool.start()
    evaluator = Evaluator(pool, reason, settings=settings, observer=observer)
    try:
        for key in languages:
            if key is not FormulaLanguage.PHP:
                evaluator.adopt(key, await _open_pool(settings, language(key).program, observer))
    except BaseException:
        await evaluator.close()
        raise
    return evaluator


def error_text(error: EvalError) -> str:
    """One line for humans: `[code] message (PhpClass)`."""
    php = f" ({error.error_class})" if error.error_class else ""
    return f"[{error.code.value}] {error.message}{php}"
