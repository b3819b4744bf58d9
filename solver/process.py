"""The solver in processes of its own, for asyncio callers: never on the event loop, never in
the PHP pool.

The main process keeps a bounded cache of prepared Digits and keeps its peak
resident memory under `memory_mb`: before each call it gives up the least
recently used Digits until the call's own peak fits, and the kernel enforces the
budget (worker.py). Every call has a deadline and answers a `SolveFailure`
instead of waiting longer or raising: a call past it is stopped (its process
killed and replaced), a reveal that is not ready is skipped, the game goes on.

Calls wait in lanes, most urgent first (`Lane`): a person waiting (a reveal, a practice
move) before work ahead of need (`prepare`, the daily post's closest), each lane with its
own places in the queue, so a flood of one never takes the other's. Expensive calls have
a process of their own, so honest calls never wait behind one: a Score no round of the
Set's reaches in ordinary play (`ordinary`: `pow(3,489)` is a legal answer) and a Score
below 1 (the search's costliest, ~10 s of JavaScript). That process holds a call at
most `EXPENSIVE_BUDGET_S` and takes `EXPENSIVE_PLACES` calls of a lane at once, so
expensive calls delay each other no longer than a reveal's deadline. The lowest lane,
best answers of finished games nobody is waiting for (`Lane.BACKFILL`), runs in a third
process at the lowest CPU priority (nice 19): the live games' processes take the cores
first.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from enum import IntEnum
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeVar

from rules.scoring import Number
from rules.sets import GameSet
from solver.result import Candidate, FailureReason, Solution, SolveFailure
from solver.worker import Gate, Worker, limit_memory

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


def data_bytes() -> int:
    """This process's data segment (VmData: heap and private anonymous maps), what the
    memory limit (RLIMIT_DATA, worker.py) counts; freed heap glibc keeps mapped is in it."""
    with open("/proc/self/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmData:"):
                return int(line.split()[1]) << 10
    return resident_bytes()


def _give_back() -> None:
    """Return freed heap to the system. glibc keeps what a large build freed (it raises its
    mmap threshold after the first big free), ~50 MiB after preparing a Digits."""
    with contextlib.suppress(OSError, AttributeError):  # not glibc: nothing to trim
        ctypes.CDLL(None).malloc_trim(0)


def _init(cache_size: int, memory_mb: int, niceness: int = 0) -> None:
    # One thread per solver process: the machine's cores belong to the game.
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[name] = "1"
    limit_memory(memory_mb)
    if niceness:
        os.nice(niceness)
    from solver.solve import Solver

    _state.solver = Solver(cache_size)
    _state.memory_limit = memory_mb << 20


def _solver() -> Solver:
    assert _state.solver is not None, "the solver process was not initialised"
    return _state.solver


CALL_PEAK_MIB = 96
"""Kept free before each call: the most one call holds on the way (preparing the heaviest
Digits adds ~45 MiB at its peak, a cold solve ~25 MiB), with room to spare."""

DATA_PEAK_MIB = 100
"""Kept free of the data segment, which the limit counts (RLIMIT_DATA, worker.py): a cold
solve of new JavaScript Digits adds ~90-110 MiB to it (its tables and blocks are kept), and
its data segment runs 60-80 MiB above its resident set. Checking the resident set alone,
two JavaScript cold solves in a row failed for memory. A PHP day of seven prepared
Digits stays under both (tests/solver/test_solver_process.py)."""


def _make_room(digits: str, game_set: GameSet) -> None:
    """Evict other Digits (`Solver.evict`'s order) until the next call's peak fits the
    budget, both resident and in the data segment; the call's own Digits stay. The heap
    freed by the last call was given back at its end."""
    room = _state.memory_limit - (CALL_PEAK_MIB << 20)
    data_room = _state.memory_limit - (DATA_PEAK_MIB << 20)
    while (resident_bytes() > room or data_bytes() > data_room) and _solver().evict(
        (digits, game_set)
    ):
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


def _finish(digits: str, score: Number, game_set: GameSet, last: bool) -> Solution:
    from solver.finish import finishing

    _make_room(digits, game_set)
    try:
        found = finishing(_solver(), digits, score, game_set, last=last)
    finally:
        _give_back()
    return Solution(digits, score, game_set.name, 0, (found,))


def _closest(digits: str, game_set: GameSet) -> Candidate:
    _make_room(digits, game_set)
    try:
        return _solver().closest(digits, game_set)
    finally:
        _give_back()


def _status() -> tuple[int, int, int]:
    return os.getpid(), resident_bytes(), peak_bytes()


class Lane(IntEnum):
    """Who waits for a call; a process takes the waiting calls of the lowest lane first."""

    PLAYER = 0  # a round's reveal, a practice move: a person is waiting
    AHEAD = 1  # work ahead of need: `prepare`, the daily post's closest formula
    BACKFILL = 2  # finished games' best answers (`BestBackfill`): in a process of its own


BACKFILL_NICE = 19
"""The backfill's process's CPU priority: the lowest, behind the live games'."""

ORDINARY_REACH = 100
"""A Score up to this many times (start + 2 Goal + Bonus) is one ordinary play reaches
(darts: 75,100; a bad answer like 9999 from 501 leaves 9,298)."""


def ordinary(score: Number, game_set: GameSet) -> bool:
    """Whether a Score is one a round of this Set ordinarily starts with, and cheap to
    solve: others (a Score of 1e308 after `pow(3,489)`, one below 1 after `3/4+8/9` from
    2) are solved in the second process, away from the rest."""
    reach = game_set.start_score + 2 * game_set.goal + game_set.bonus
    value = float(score)
    return (value == 0 or abs(value) >= 1) and value <= ORDINARY_REACH * reach


EXPENSIVE_BUDGET_S = 10.0
"""The most one call may hold the second process, whatever its own deadline (a cold
1e308 takes ~1 s, 6 s at worst on a loaded machine)."""
EXPENSIVE_PLACES = 3
"""Calls of a lane the second process takes at once (waiting or running); more are BUSY.
So one of them waits at most (places - 1) budgets and runs one: 30 s, the reveals' own
deadline (`bot.solving.ConfirmedSolver`): expensive calls delay each other, never past it."""


class _Lane:
    """A worker process, the thread that talks to it, and the gate in front of it."""

    def __init__(self, cache_size: int, memory_mb: int, niceness: int = 0) -> None:
        self.worker = Worker(_init, (cache_size, memory_mb, niceness))
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="solver")
        self.gate = Gate()
        self.pending = dict.fromkeys(Lane, 0)
        """Calls waiting or running, by lane: each lane has `queue_limit` places."""


class SolverProcess:
    """An asyncio front to the solver's processes: the main one, the second one for
    expensive Scores and the backfill's (each started at its first call)."""

    def __init__(
        self,
        *,
        cache_size: int = 8,
        memory_mb: int = 256,
        timeout_s: float = 5.0,
        queue_limit: int = 32,
        expensive_budget_s: float = EXPENSIVE_BUDGET_S,
        expensive_places: int = EXPENSIVE_PLACES,
    ) -> None:
        """`queue_limit`: the places of each lane in the main process (and the backfill's);
        `expensive_places` and `expensive_budget_s`: the second process's (`EXPENSIVE_PLACES`)."""
        if memory_mb <= CALL_PEAK_MIB:
            raise ValueError(f"a solver process needs more than {CALL_PEAK_MIB} MiB")
        self.cache_size = cache_size
        self.memory_mb = memory_mb
        self.timeout_s = timeout_s
        self.queue_limit = queue_limit
        self.expensive_budget_s = expensive_budget_s
        self.expensive_places = expensive_places
        self._closed = False
        self._main = _Lane(cache_size, memory_mb)
        self._wide = _Lane(2, memory_mb)
        self._back = _Lane(2, memory_mb, BACKFILL_NICE)

    async def _call(
        self, lane: Lane, timeout_s: float | None, fn: Callable[..., T], *args: object, wide: bool
    ) -> T | SolveFailure:
        if self._closed:
            return SolveFailure(FailureReason.CLOSED, "the solver is closed")
        place = self._back if lane is Lane.BACKFILL else self._wide if wide else self._main
        places = self.expensive_places if place is self._wide else self.queue_limit
        if place.pending[lane] >= places:
            return SolveFailure(FailureReason.BUSY, "the solver has too many requests waiting")
        timeout = self.timeout_s if timeout_s is None else timeout_s
        deadline = time.perf_counter() + timeout
        place.pending[lane] += 1
        try:
            try:
                await asyncio.wait_for(place.gate.enter(lane), max(timeout, 0.0))
            except TimeoutError:
                return SolveFailure(FailureReason.TIMEOUT, "the solve is not ready in time")
            if self._closed:  # closed while it waited: the thread takes no more calls
                place.gate.leave()
                return SolveFailure(FailureReason.CLOSED, "the solver is closed")
            # run_in_executor: an event loop that tracks executor work (simcord) knows
            # what it is waiting for; the thread stops the call at its deadline
            loop = asyncio.get_running_loop()
            budget = self.expensive_budget_s if place is self._wide else None
            work = loop.run_in_executor(place.thread, place.worker.call, fn, args, deadline, budget)
            try:
                outcome: Any = await asyncio.shield(work)
            except asyncio.CancelledError:
                work.add_done_callback(lambda _: place.gate.leave())  # still running
                raise
            place.gate.leave()
            return outcome  # type: ignore[no-any-return]
        finally:
            place.pending[lane] -= 1

    async def prepare(
        self, digits: str, game_set: GameSet, *, timeout_s: float | None = None
    ) -> SolveFailure | None:
        """Build the tables of `digits` ahead (e.g. Qualification Digits), after every
        call a person waits for."""
        outcome: SolveFailure | None = await self._call(
            Lane.AHEAD, timeout_s, _prepare, digits, game_set, wide=False
        )
        return outcome

    async def is_prepared(self, digits: str, game_set: GameSet) -> bool | SolveFailure:
        """Whether `prepare` ran for these Digits and the process still has them."""
        outcome: bool | SolveFailure = await self._call(
            Lane.PLAYER, None, _is_prepared, digits, game_set, wide=False
        )
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
        lane: Lane = Lane.PLAYER,
    ) -> Solution | SolveFailure:
        """The best `top` distinct Results for a Score (or new Scores nearest `aim`)."""
        wide = not (ordinary(score, game_set) and ordinary(aim, game_set))
        outcome: Solution | SolveFailure = await self._call(
            lane, timeout_s, _best, digits, score, game_set, top, aim, wide=wide
        )
        return outcome

    async def finish(
        self,
        digits: str,
        score: Number,
        game_set: GameSet,
        *,
        last: bool = False,
        timeout_s: float | None = None,
    ) -> Solution | SolveFailure:
        """A perfect player's formula: the one whose new Score the next round is likeliest
        to check out (`solver.finish`); the best answer when it checks out, or if `last`."""
        outcome: Solution | SolveFailure = await self._call(
            Lane.PLAYER, timeout_s, _finish, digits, score, game_set, last,
            wide=not ordinary(score, game_set),
        )  # fmt: skip
        return outcome

    async def closest(
        self, digits: str, game_set: GameSet, *, timeout_s: float | None = None
    ) -> Candidate | SolveFailure:
        """The formula whose Result is nearest the Goal."""
        outcome: Candidate | SolveFailure = await self._call(
            Lane.AHEAD, timeout_s, _closest, digits, game_set, wide=False
        )
        return outcome

    async def status(self, *, wide: bool = False) -> tuple[int, int, int] | SolveFailure:
        """(pid, resident bytes, peak resident bytes) of the main (or the second) process."""
        outcome: tuple[int, int, int] | SolveFailure = await self._call(
            Lane.PLAYER, None, _status, wide=wide
        )
        return outcome

    def spawn(self) -> None:
        """Start the main solver process now rather than at the first request.

        Its start costs about a second, which a first request would pay inside a round's
        deadline."""
        failure = self._main.thread.submit(
            self._main.worker.start, time.perf_counter() + 60
        ).result()
        if failure is not None:
            raise RuntimeError(f"the solver process did not start: {failure.message}")

    def shutdown(self) -> None:
        """Stop the processes and their threads (blocking: for synchronous owners)."""
        self._closed = True
        for place in (self._main, self._wide, self._back):
            place.worker.kill()  # a call in progress ends now, not at its deadline
            place.thread.submit(place.worker.stop)
            place.thread.shutdown(wait=True, cancel_futures=False)

    async def close(self) -> None:
        self._closed = True
        await asyncio.get_running_loop().run_in_executor(None, self.shutdown)

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
