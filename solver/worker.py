"""One solver process that a call can really stop: a deadline kills it, a memory limit the
kernel enforces, and a replacement started for the next call.

`ProcessPoolExecutor` cannot stop a call: a call past its timeout kept running and
every call queued behind it waited (a reveal at Score 1e308 took 14 s and 900 MiB,
and honest reveals timed out behind it). Here the caller's thread talks to the
process over a pipe and waits with `select` on real time (never `time.monotonic`,
which a simulated clock may hold still); at the deadline the process is killed.
The process limits its own data segment (RLIMIT_DATA: heap and anonymous maps, what
numpy allocates) to the budget, so an allocation past it fails with MemoryError
there, and the process is replaced.

Blocking by design: `SolverProcess` runs `call` on a thread of its own, off the loop;
`Gate` is the asyncio side in front of it, which waiting call goes next.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import os
import resource
import select
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from solver.result import FailureReason, SolveFailure

_STARTUP_S = 60.0
"""How long a new process may take to import the solver (a loaded machine, a cold disk)."""


def serve(fd: int) -> None:
    """The process's loop: its set-up first, then one call at a time, each answered (ok,
    value or failure). It ends when the other end closes."""
    conn = Connection(fd)
    init, init_args = conn.recv()
    init(*init_args)
    conn.send((True, None))  # ready
    while True:
        try:
            fn, args = conn.recv()
        except EOFError:
            return
        try:
            conn.send((True, fn(*args)))
        except ValueError as exc:
            conn.send((False, SolveFailure(FailureReason.INVALID, str(exc))))
        except MemoryError:
            conn.send((False, SolveFailure(FailureReason.MEMORY, "over the memory limit")))
            return  # half-built tables may be left: the process is replaced
        except Exception as exc:  # a solver bug: answered, and a fresh process takes over
            conn.send((False, SolveFailure(FailureReason.CRASHED, f"{type(exc).__name__}: {exc}")))
            return


def limit_memory(memory_mb: int) -> None:
    """Cap this process's data segment, which is where its resident memory lives."""
    limit = memory_mb << 20
    with contextlib.suppress(ValueError, OSError):  # a lower hard limit: keep it
        resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))


class Worker:
    """A solver process and its pipe. Not thread-safe: one caller at a time."""

    def __init__(self, init: Callable[..., None], init_args: tuple[Any, ...]) -> None:
        self._init = init
        self._init_args = init_args
        self._process: subprocess.Popen[bytes] | None = None
        self._conn: Connection | None = None
        self.stopped = 0  # processes killed (a deadline, a failure, a close)

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    def start(self, deadline: float) -> SolveFailure | None:
        """Start the process if it is not running, and wait until it is ready."""
        if self._process is not None:
            return None
        # a fresh interpreter that imports only the solver: no copied threads or event
        # loop, no re-run of the caller's main module (multiprocessing's spawn and
        # forkserver do that), and Popen waits with waitpid, never on time.monotonic
        # (forkserver's did, and a simulated clock that stands still hung it)
        mine, theirs = socket.socketpair()
        path = os.pathsep.join(p for p in sys.path if p)
        self._process = subprocess.Popen(
            [sys.executable, "-c", f"from solver.worker import serve; serve({theirs.fileno()})"],
            pass_fds=(theirs.fileno(),),
            stdin=subprocess.DEVNULL,  # a terminal game reads stdin: the solver never does
            env={**os.environ, "PYTHONPATH": path},
        )
        theirs.close()
        self._conn = Connection(mine.detach())
        self._conn.send((self._init, self._init_args))
        outcome = self._receive(deadline)
        return outcome if isinstance(outcome, SolveFailure) else None

    def call(
        self, fn: Callable[..., Any], args: tuple[Any, ...], deadline: float,
        budget_s: float | None = None,
    ) -> Any:  # fmt: skip
        """fn(*args) in the process by `deadline` (a `time.perf_counter` moment), or a
        SolveFailure: past the deadline the process is killed, not waited for. `budget_s`:
        the most the call may run once the process has it, if that ends sooner."""
        if time.perf_counter() >= deadline:
            return SolveFailure(FailureReason.TIMEOUT, "the solve is not ready in time")
        failure = self.start(max(deadline, time.perf_counter() + _STARTUP_S))
        if failure is not None:
            return failure
        assert self._conn is not None
        try:
            self._conn.send((fn, args))
        except OSError as exc:
            self.stop()
            return SolveFailure(FailureReason.CRASHED, f"the solver process died: {exc}")
        if budget_s is not None:
            deadline = min(deadline, time.perf_counter() + budget_s)
        return self._receive(deadline)

    def _receive(self, deadline: float) -> Any:
        assert self._conn is not None
        while True:
            left = deadline - time.perf_counter()
            if left <= 0:
                self.stop()
                return SolveFailure(
                    FailureReason.TIMEOUT, "stopped at its deadline (the process is replaced)"
                )
            ready, _, _ = select.select([self._conn.fileno()], [], [], left)
            if ready:
                break
        try:
            ok, value = self._conn.recv()
        except (EOFError, OSError):
            self.stop()
            return SolveFailure(FailureReason.CRASHED, "the solver process died")
        if not ok and value.reason is not FailureReason.INVALID:
            self.stop()  # it exits after a memory or internal failure
        return value

    def kill(self) -> None:
        """Kill the process from any thread: a call in progress ends at once (CRASHED)."""
        process = self._process
        if process is not None:
            with contextlib.suppress(OSError, ValueError):
                process.kill()

    def stop(self) -> None:
        """Kill the process (if any); the next call starts a new one."""
        process, conn = self._process, self._conn
        self._process = self._conn = None
        if conn is not None:
            conn.close()
        if process is not None:
            with contextlib.suppress(OSError):
                process.kill()
            process.wait()  # no timeout: a killed child is reaped at once (waitpid)
            self.stopped += 1


class Gate:
    """One call at a time into a process, for `SolverProcess`'s asyncio callers: the
    lowest lane first, then first come."""

    def __init__(self) -> None:
        self._busy = False
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._arrived = 0

    async def enter(self, lane: int) -> None:
        if not self._busy:
            self._busy = True
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._arrived += 1
        heapq.heappush(self._waiting, (int(lane), self._arrived, turn))
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():  # given the turn, then cancelled
                self.leave()
            raise

    def leave(self) -> None:
        while self._waiting:
            _, _, turn = heapq.heappop(self._waiting)
            if not turn.done() and not turn.get_loop().is_closed():  # a waiter of a loop
                turn.set_result(None)  # that ended never runs; else the gate passes on
                return
        self._busy = False
