"""A warm pool of PHP workers over any `WorkerFactory` (local bubblewrap, Docker).

Every failure folds into a `Verdict`: a timeout kills and replaces the worker
and answers `timeout`; a dead or babbling worker is discarded and answers
`sandbox`; a full queue answers `sandbox` "busy". Callers never see an
exception, and a worker that failed once is never used again.

Nothing runs in the background. Each caller does its own write and read
inside its own await, and a replacement worker is spawned by the next caller
that needs one, so an idle pool has no pending task (simcord's settle()
requires that) and there is no supervisor to get wrong.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

from evaluator.result import ErrorCode, EvalError, Evaluation, Verdict
from evaluator.sandbox.base import Worker, WorkerDied, WorkerFactory
from evaluator.sandbox.protocol import ProtocolError, Request, decode_response, encode_request

log = logging.getLogger(__name__)


class PoolClosed(Exception):
    """Raised into waiters when the pool closes under them."""


class SandboxStartError(RuntimeError):
    """The pool's workers do not answer a trivial formula: the backend is broken."""


@dataclass(slots=True)
class _Slot:
    worker: Worker
    requests: int = 0
    busy_s: float = 0.0


class WorkerPool:
    """At most `size` workers; at most `queue_limit` callers waiting for one."""

    def __init__(
        self,
        factory: WorkerFactory,
        *,
        size: int,
        timeout_s: float,
        queue_limit: int,
        max_requests: int = 100_000,
        max_busy_s: float = math.inf,
    ) -> None:
        """`max_requests` and `max_busy_s` retire a worker before PHP leaks or a
        lifetime CPU limit (RLIMIT_CPU, max_execution_time) could kill it mid-request."""
        if size < 1:
            raise ValueError("a pool needs at least one worker")
        self.factory = factory
        self.size = size
        self.timeout_s = timeout_s
        self.queue_limit = queue_limit
        self.max_requests = max_requests
        self.max_busy_s = max_busy_s
        self._idle: list[_Slot] = []
        self._live = 0  # workers alive or being spawned
        self._waiters: deque[asyncio.Future[_Slot | None]] = deque()
        self._closed = False

    @property
    def backend(self) -> str:
        return self.factory.name

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def live_workers(self) -> int:
        return self._live

    async def start(self) -> None:
        """Spawn every worker now and prove each one answers `1+1` with 2.

        Raises SandboxStartError with the backend's own words (e.g. bwrap's
        error) so a misconfigured host fails at startup, not on a player.
        """
        missing = self.size - self._live
        spawned = await asyncio.gather(*(self._spawn() for _ in range(missing)))
        slots = [s for s in spawned if isinstance(s, _Slot)]
        problems = [s.message for s in spawned if isinstance(s, EvalError)]
        probes = await asyncio.gather(
            *(self._request(slot, encode_request("1+1"), "1+1") for slot in slots)
        )
        for slot, (verdict, healthy) in zip(slots, probes, strict=True):
            await self._release(slot, healthy=healthy)
            if not (isinstance(verdict, Evaluation) and verdict.value == 2):
                problems.append(
                    verdict.message if isinstance(verdict, EvalError) else repr(verdict)
                )
        if problems:
            await self.close()
            raise SandboxStartError(f"the {self.backend} sandbox does not work: {problems[0]}")

    async def run(self, expression: str) -> Verdict:
        """Evaluate one PHP expression (already passed by `check()`)."""
        return await self._run(expression, raw=False)

    async def run_raw(self, code: str) -> Verdict:
        """Run PHP statements as they are, skipping every whitelist. Tests only:
        it is how containment is proven against code the checker would refuse."""
        return await self._run(code, raw=True)

    async def run_many(self, expressions: Iterable[str], *, raw: bool = False) -> list[Verdict]:
        """Evaluate many, in order, keeping every worker busy but the queue empty."""
        items = list(expressions)
        results: list[Verdict | None] = [None] * len(items)
        cursor = iter(range(len(items)))

        async def lane() -> None:
            for index in cursor:
                results[index] = await self._run(items[index], raw=raw)

        await asyncio.gather(*(lane() for _ in range(min(self.size, len(items)))))
        return [r for r in results if r is not None]

    async def _run(self, code: str, *, raw: bool) -> Verdict:
        if self._closed:
            return EvalError(ErrorCode.SANDBOX, "the evaluator is closed")
        try:
            request = encode_request(code, raw=raw)
        except ValueError as exc:
            return EvalError(ErrorCode.TOO_LONG, str(exc))
        slot = await self._acquire()
        if isinstance(slot, EvalError):
            return slot
        healthy = False
        try:
            verdict, healthy = await self._request(slot, request, code)
        finally:
            # Also on cancellation: a request abandoned mid-flight leaves a
            # response in the pipe, so that worker is discarded (healthy=False).
            await self._release(slot, healthy=healthy)
        return verdict

    async def _request(self, slot: _Slot, request: Request, formula: str) -> tuple[Verdict, bool]:
        started = time.perf_counter()
        try:
            response = await slot.worker.request(request.line, self.timeout_s)
            verdict, bye = decode_response(response, formula, request.nonce)
        except TimeoutError:
            return EvalError(ErrorCode.TIMEOUT, f"PHP took longer than {self.timeout_s:g} s"), False
        except WorkerDied as exc:
            log.warning("%s worker died: %s", self.backend, exc)
            return EvalError(ErrorCode.SANDBOX, f"the PHP worker died: {exc}"), False
        except ProtocolError as exc:
            log.warning("%s worker broke the protocol: %s", self.backend, exc)
            return EvalError(ErrorCode.SANDBOX, f"the PHP worker misbehaved: {exc}"), False
        except Exception as exc:  # a backend's own failure (e.g. the Docker API)
            log.exception("%s worker failed", self.backend)
            return EvalError(ErrorCode.SANDBOX, f"the sandbox failed: {exc}"), False
        finally:
            slot.requests += 1
            slot.busy_s += time.perf_counter() - started
        return verdict, not bye

    async def _acquire(self) -> _Slot | EvalError:
        loop = asyncio.get_running_loop()
        while True:
            if self._closed:
                return EvalError(ErrorCode.SANDBOX, "the evaluator is closed")
            while self._idle:
                slot = self._idle.pop()
                if slot.worker.alive:
                    return slot
                await self._discard(slot)
            if self._live < self.size:
                return await self._spawn()
            if len(self._waiters) >= self.queue_limit:
                return EvalError(ErrorCode.SANDBOX, "the evaluator is busy; try again in a moment")
            waiter: asyncio.Future[_Slot | None] = loop.create_future()
            self._waiters.append(waiter)
            try:
                handed = await waiter
            except PoolClosed:
                return EvalError(ErrorCode.SANDBOX, "the evaluator is closed")
            except asyncio.CancelledError:
                if waiter.done() and not waiter.cancelled() and waiter.exception() is None:
                    handed = waiter.result()
                    if handed is not None:
                        await self._release(handed, healthy=True)
                    else:
                        self._wake_one()
                else:
                    with contextlib.suppress(ValueError):
                        self._waiters.remove(waiter)
                raise
            if handed is not None:
                return handed
            # None: a worker was discarded, so there is room to spawn; loop.

    async def _spawn(self) -> _Slot | EvalError:
        self._live += 1
        try:
            worker = await self.factory.spawn()
        except Exception as exc:
            self._live -= 1
            self._wake_one()
            log.warning("%s worker did not start: %s", self.backend, exc)
            return EvalError(ErrorCode.SANDBOX, f"could not start a PHP worker: {exc}")
        except asyncio.CancelledError:
            self._live -= 1
            self._wake_one()
            raise
        return _Slot(worker)

    async def _release(self, slot: _Slot, *, healthy: bool) -> None:
        worn = slot.requests >= self.max_requests or slot.busy_s >= self.max_busy_s
        if not healthy or worn or self._closed or not slot.worker.alive:
            await self._discard(slot)
            return
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(slot)
                return
        self._idle.append(slot)

    async def _discard(self, slot: _Slot) -> None:
        self._live -= 1
        try:
            await slot.worker.kill()
        except Exception:
            log.exception("%s worker did not die cleanly", self.backend)
        self._wake_one()

    def _wake_one(self) -> None:
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)
                return

    async def close(self) -> None:
        """Kill every idle worker now; busy ones are killed when their request ends."""
        if self._closed:
            return
        self._closed = True
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_exception(PoolClosed())
        idle, self._idle = self._idle, []
        for slot in idle:
            await self._discard(slot)
        try:
            await self.factory.cleanup()
        except Exception:
            log.exception("%s cleanup failed", self.backend)
