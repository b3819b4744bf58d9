"""The solver in a process of its own, for asyncio callers: never on the event loop, never in
the PHP pool.

One worker process (forkserver) keeps a bounded cache of prepared Digits and
keeps its peak resident memory under `memory_mb`: before each call it gives up
the least recently used Digits until the call's own peak fits. Every
call has a timeout and answers a `SolveFailure` instead of waiting longer or
raising: a reveal that is not ready is shown later or skipped, the game goes
on. A call that timed out keeps running in the worker, so its tables are
cached for the next call on the same Digits.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from types import TracebackType
from typing import TYPE_CHECKING, TypeVar

from rules.scoring import Number
from rules.sets import GameSet
from solver.result import Candidate, FailureReason, Solution, SolveFailure

if TYPE_CHECKING:
    from solver.solve import Solver

T = TypeVar("T")

_PAGE = os.sysconf("SC_PAGE_SIZE")


class _Worker:
    """What the solver process keeps between calls."""

    solver: Solver | None = None
    memory_limit = 0


_state = _Worker()


def resident_bytes() -> int:
    """This process's resident set size (Linux /proc)."""
    with open("/proc/self/statm", encoding="ascii") as statm:
        return int(statm.read().split()[1]) * _PAGE


def peak_bytes() -> int:
    """The most this process has ever had resident (VmHWM): what a memory limit must allow,
    where `resident_bytes` after a call misses what the call held on the way."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) << 10
    return resident_bytes()


def _give_back() -> None:
    """Return freed heap to the system. glibc keeps what a large build freed (it raises its
    mmap threshold after the first big free), ~50 MiB after preparing a Digits."""
    with contextlib.suppress(OSError, AttributeError):  # not glibc: nothing to trim
        ctypes.CDLL(None).malloc_trim(0)


def _init(cache_size: int, memory_mb: int) -> None:
    # One thread per solver process: the machine's cores belong to the game.
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[name] = "1"
    from solver.solve import Solver

    _state.solver = Solver(cache_size)
    _state.memory_limit = memory_mb << 20


def _solver() -> Solver:
    assert _state.solver is not None, "the solver process was not initialised"
    return _state.solver


CALL_PEAK_MIB = 96
"""Kept free before each call: the most one call holds on the way (preparing the heaviest
Digits adds ~45 MiB at its peak, a cold solve ~25 MiB), with room to spare."""


def _make_room(digits: str, game_set: GameSet) -> None:
    """Evict other Digits (`Solver.evict`'s order) until the next call's peak fits the
    budget; the call's own Digits stay. The heap freed by the last call was given back
    at its end."""
    room = _state.memory_limit - (CALL_PEAK_MIB << 20)
    while resident_bytes() > room and _solver().evict((digits, game_set)):
        _give_back()


def _prepare(digits: str, game_set: GameSet) -> None:
    _make_room(digits, game_set)
    _solver().prepare(digits, game_set)
    _give_back()


def _is_prepared(digits: str, game_set: GameSet) -> bool:
    return _solver().is_prepared(digits, game_set)


def _best(digits: str, score: Number, game_set: GameSet, top: int, aim: int) -> Solution:
    _make_room(digits, game_set)
    try:
        return _solver().solve(digits, score, game_set, top=top, aim=aim)
    finally:
        _give_back()


def _closest(digits: str, game_set: GameSet) -> Candidate:
    _make_room(digits, game_set)
    try:
        return _solver().closest(digits, game_set)
    finally:
        _give_back()


def _status() -> tuple[int, int, int]:
    return os.getpid(), resident_bytes(), peak_bytes()


class SolverProcess:
    """An asyncio front to one solver process."""

    def __init__(
        self,
        *,
        cache_size: int = 8,
        memory_mb: int = 256,
        timeout_s: float = 5.0,
        queue_limit: int = 32,
    ) -> None:
        if memory_mb <= CALL_PEAK_MIB:
            raise ValueError(f"a solver process needs more than {CALL_PEAK_MIB} MiB")
        self.cache_size = cache_size
        self.memory_mb = memory_mb
        self.timeout_s = timeout_s
        self.queue_limit = queue_limit
        self._pending = 0
        self._closed = False
        self._executor = self._start()

    def _start(self) -> ProcessPoolExecutor:
        return ProcessPoolExecutor(
            max_workers=1,
            mp_context=multiprocessing.get_context("forkserver"),
            initializer=_init,
            initargs=(self.cache_size, self.memory_mb),
        )

    async def _call(self, timeout_s: float | None, fn: object, *args: object) -> T | SolveFailure:
        if self._closed:
            return SolveFailure(FailureReason.CLOSED, "the solver is closed")
        if self._pending >= self.queue_limit:
            return SolveFailure(FailureReason.BUSY, "the solver has too many requests waiting")
        self._pending += 1
        try:
            # run_in_executor, not submit + wrap_future: the same future, and an event
            # loop that tracks executor work (simcord) knows what it is waiting for.
            loop = asyncio.get_running_loop()
            future: asyncio.Future[T] = loop.run_in_executor(self._executor, fn, *args)  # type: ignore[arg-type]
            return await asyncio.wait_for(
                asyncio.shield(future), self.timeout_s if timeout_s is None else timeout_s
            )
        except TimeoutError:
            return SolveFailure(FailureReason.TIMEOUT, "the solve is not ready in time")
        except BrokenProcessPool as exc:
            self._executor = self._start()
            return SolveFailure(FailureReason.CRASHED, f"the solver process died: {exc}")
        except ValueError as exc:
            return SolveFailure(FailureReason.INVALID, str(exc))
        finally:
            self._pending -= 1

    async def prepare(
        self, digits: str, game_set: GameSet, *, timeout_s: float | None = None
    ) -> SolveFailure | None:
        """Build the tables of `digits` ahead (e.g. Qualification Digits)."""
        outcome: SolveFailure | None = await self._call(timeout_s, _prepare, digits, game_set)
        return outcome

    async def is_prepared(self, digits: str, game_set: GameSet) -> bool | SolveFailure:
        """Whether `prepare` ran for these Digits and the process still has them."""
        outcome: bool | SolveFailure = await self._call(None, _is_prepared, digits, game_set)
        return outcome

    async def best(
        self,
        digits: str,
        score: Number,
        game_set: GameSet,
        *,
        top: int = 1,
        aim: int = 0,
        timeout_s: float | None = None,
    ) -> Solution | SolveFailure:
        """The best `top` distinct Results for a Score (or new Scores nearest `aim`)."""
        outcome: Solution | SolveFailure = await self._call(
            timeout_s, _best, digits, score, game_set, top, aim
        )
        return outcome

    async def closest(
        self, digits: str, game_set: GameSet, *, timeout_s: float | None = None
    ) -> Candidate | SolveFailure:
        """The formula whose Result is nearest the Goal."""
        outcome: Candidate | SolveFailure = await self._call(timeout_s, _closest, digits, game_set)
        return outcome

    async def status(self) -> tuple[int, int, int] | SolveFailure:
        """(pid, resident bytes, peak resident bytes) of the solver process."""
        outcome: tuple[int, int, int] | SolveFailure = await self._call(None, _status)
        return outcome

    def spawn(self) -> None:
        """Start the solver process now rather than at the first request.

        Its start costs about a second, which a first request would pay inside a round's
        deadline. It also has to happen outside a virtual clock (simcord's tests): starting
        a process polls earlier children with a timeout of 0 that never runs out when
        time.monotonic stands still.
        """
        self._executor.submit(_status).result()

    async def close(self) -> None:
        self._closed = True
        self._executor.shutdown(wait=False, cancel_futures=True)

    async def __aenter__(self) -> SolverProcess:
        await self.status()  # the process starts now, not inside the first round's deadline
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()
