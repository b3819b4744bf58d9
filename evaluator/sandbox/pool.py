"""A warm pool of PHP workers over any `WorkerFactory` (local bubblewrap, Docker).

Every failure folds into a `Verdict`: a timeout kills and replaces the worker
and answers `timeout`; a dead or babbling worker is discarded and answers
`sandbox` (or PHP's own fatal error); a full queue answers `sandbox` "busy".
Callers never see an exception, and a worker that failed once is never used
again.

Requests queue up and go to a free worker in batches (pipelining): one write
of several request lines, answers read back one by one, each delivered the
moment it arrives. Timeouts are per request, counted from the moment its
worker could start it. When a request ends its worker, the requests behind it
in the batch never ran: they go back to the head of the queue and are sent
again, each alone, so nobody is charged for a neighbour's timeout. PHP's worker
writes a batch's answers together, so a request that ends it takes its
neighbours' unwritten answers along: then every unanswered request of the
batch is sent again alone, and only the one that did it is judged and charged.

What happens to one batch on its worker is `_batch.py`; this module queues
requests, hands them to workers and replaces workers. A caller's request is
queued at once and its future is what the caller awaits (`submit`).

What runs in the background, and when: a worker with requests to answer is
driven by a task that lives while the queue has work for it (batch after
batch), and a worker that died or retired is replaced by a task that lives as
long as the spawn, so a formula that ends a worker costs nobody else its
replacement. Nothing else runs: an idle pool has no pending task once its
spawns finished (simcord's settle() requires that), no reader on any pipe,
and there is no supervisor to get wrong.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections import deque
from collections.abc import Awaitable, Iterable

from evaluator.result import ErrorCode, EvalError, Evaluation, Verdict
from evaluator.sandbox._batch import (
    Job,
    Slot,
    closed_error,
    drive,
    drop_cancelled,
    fail_all,
    in_lanes,
    kill,
    requeue,
    start,
    take_batch,
    waiting,
)
from evaluator.sandbox.base import Worker, WorkerFactory
from evaluator.sandbox.penalty import PenaltyBox
from evaluator.sandbox.program import PHP, WorkerProgram
from evaluator.sandbox.protocol import request_line
from evaluator.sandbox.stats import Counters, PoolObserver, PoolStats, RestartReason

log = logging.getLogger(__name__)

START_PROBE_S = 15.0
"""How long a new worker may take to answer the start probe (`1+1`, ours, not a player's):
a fresh container's first PHP run on a loaded machine took over the 2 s a player gets."""


class SandboxStartError(RuntimeError):
    """The pool's workers do not answer a trivial formula: the backend is broken."""


class WorkerPool:
    """At most `size` workers; at most `queue_limit` requests waiting for one."""

    def __init__(
        self,
        factory: WorkerFactory,
        *,
        size: int,
        timeout_s: float,
        queue_limit: int,
        max_requests: int = 100_000,
        max_busy_s: float = math.inf,
        penalties: PenaltyBox | None = None,
        observer: PoolObserver | None = None,
        program: WorkerProgram = PHP,
    ) -> None:
        """`max_requests` and `max_busy_s` retire a worker before PHP leaks or a
        lifetime CPU limit (RLIMIT_CPU, max_execution_time) could kill it mid-request.
        `penalties` slows callers whose formulas keep ending workers; `observer`
        hears each request's PHP latency and each restart. `program` says how the
        workers' answers read (PHP's worker by default; node's for JavaScript)."""
        if size < 1:
            raise ValueError("a pool needs at least one worker")
        self.factory = factory
        self.size = size
        self.timeout_s = timeout_s
        self.queue_limit = queue_limit
        self.max_requests = max_requests
        self.max_busy_s = max_busy_s
        self.penalties = penalties if penalties is not None else PenaltyBox()
        self.observer = observer
        self.program = program
        self._idle: list[Slot] = []
        self._queue: deque[Job] = deque()
        self._live = 0  # workers alive or being spawned
        self._spawning = 0
        self._tasks: set[asyncio.Task[None]] = set()  # batches and kills
        self._spawns: set[asyncio.Task[None]] = set()
        self._counters = Counters()
        self._dispatch_pending = False
        self._taking = 0  # drives between batches, about to take the queue: no dispatch needed
        self._closed = False
        self._loop: asyncio.AbstractEventLoop | None = None  # the one it runs on: `_running_loop`

    @property
    def backend(self) -> str:
        return self.factory.name

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def live_workers(self) -> int:
        return self._live

    def stats(self) -> PoolStats:
        depth = sum(not job.future.done() for job in self._queue)
        return self._counters.snapshot(
            self.backend, self.size, self._live, len(self._idle), self._spawning, depth
        )

    async def start(self) -> None:
        """Spawn every worker now and prove each one answers `1+1` with 2.

        Raises SandboxStartError with the backend's own words (e.g. bwrap's
        error) so a misconfigured host fails at startup, not on a player.
        """
        missing = self.size - self._live
        self._live += missing
        spawned = await asyncio.gather(*(self._spawn_for_start() for _ in range(missing)))
        slots = [Slot(w) for w in spawned if not isinstance(w, str)]
        problems = [w for w in spawned if isinstance(w, str)]
        self._live -= len(problems)
        probes = [self._job("1+1", raw=False, who=None) for _ in slots]
        for probe in probes:
            probe.alone = True  # a probe is never sent again
            probe.timeout_s = max(self.timeout_s, START_PROBE_S)
        # Each worker's probe is its first batch; a request that came meanwhile (no worker
        # was free) is its next.
        await asyncio.gather(*(self._drive(s, [p]) for s, p in zip(slots, probes, strict=True)))
        for probe in probes:
            verdict = probe.future.result()
            if not (isinstance(verdict, Evaluation) and verdict.value == 2):
                problems.append(
                    verdict.message if isinstance(verdict, EvalError) else repr(verdict)
                )
        if problems:
            await self.close()
            raise SandboxStartError(f"the {self.backend} sandbox does not work: {problems[0]}")

    async def _spawn_for_start(self) -> Worker | str:
        try:
            return await self.factory.spawn()
        except Exception as exc:
            log.warning("%s worker did not start: %s", self.backend, exc)
            return f"could not start a {self.program.name} worker: {exc}"

    async def run(self, expression: str, *, who: str | None = None) -> Verdict:
        """Evaluate one PHP expression (already passed by `check()`).

        `who` (the bot passes the player id) is whom a formula that ends its
        worker is charged to: such callers are slowed, nobody else."""
        return await self.submit(expression, who=who)

    def submit(self, code: str, *, who: str | None = None, raw: bool = False) -> Awaitable[Verdict]:
        """`run` without a coroutine of its own, for the bot's path: the request is queued
        now and the future its worker answers is handed back to be awaited (one
        coroutine less a formula). Anything but the plain case (closed, a caller
        to slow down, a full queue, too long) is `_queued`'s, which says so in a
        verdict. A caller cancelled while waiting cancels the future: a request not
        yet sent is then never sent, one sent has its answer read and dropped."""
        loop = self._running_loop()
        plain = not self._closed and (len(self._queue) < self.queue_limit or self._idle)
        if not plain or (who is not None and self.penalties.delay(who, loop.time()) > 0):
            return self._queued(code, raw=raw, who=who)
        try:
            line, nonce = request_line(code, raw=raw)
        except ValueError:
            return self._queued(code, raw=raw, who=who)
        future: asyncio.Future[Verdict] = asyncio.Future(loop=loop)  # not create_future's frame
        self._queue.append(Job(line, nonce, code, who, future))
        # `_wake`, inline (once per formula). Not while a worker is about to take the queue
        # (`_taking`): it takes this request, or its `finally` dispatches it.
        if (
            not self._dispatch_pending
            and not self._taking
            and (self._idle or self._live < self.size)
        ):
            self._dispatch_pending = True
            loop.call_soon(self._dispatch)
        return future

    def _running_loop(self) -> asyncio.AbstractEventLoop:
        """The loop its requests run on, asked again (a getpid()) only when the one it
        knows is not running: a second `asyncio.run`, a test's own loop."""
        if self._loop is None or not self._loop.is_running():
            self._loop = asyncio.get_running_loop()
        return self._loop

    async def run_raw(self, code: str, *, who: str | None = None) -> Verdict:
        """Run PHP statements as they are, skipping every whitelist. Tests only:
        it is how containment is proven against code the checker would refuse."""
        return await self.submit(code, who=who, raw=True)

    async def run_many(self, expressions: Iterable[str], *, raw: bool = False) -> list[Verdict]:
        """Evaluate many, in order, keeping every worker busy but the queue bounded."""
        items = list(expressions)
        lanes = min(len(items), self.size * 8, self.size + self.queue_limit)
        return await in_lanes(lambda code: self.submit(code, raw=raw), items, lanes)

    def _job(self, code: str, *, raw: bool, who: str | None) -> Job:
        line, nonce = request_line(code, raw=raw)
        return Job(line, nonce, code, who, asyncio.get_running_loop().create_future())

    async def _queued(self, code: str, *, raw: bool, who: str | None) -> Verdict:
        """A request the plain way could not take: answered closed, slowed down first (its
        caller keeps ending workers), answered busy or too long, or queued."""
        if self._closed:
            return closed_error()
        loop = asyncio.get_running_loop()
        wait = 0.0 if who is None else self.penalties.delay(who, loop.time())
        if wait > 0:
            self._counters.penalised += 1
            await asyncio.sleep(wait)
            if self._closed:
                return closed_error()
        if len(self._queue) >= self.queue_limit and not self._idle:
            drop_cancelled(self._queue)
            if len(self._queue) >= self.queue_limit:
                self._counters.busy += 1
                return EvalError(ErrorCode.SANDBOX, "the evaluator is busy; try again in a moment")
        try:
            job = self._job(code, raw=raw, who=who)
        except ValueError as exc:
            return EvalError(ErrorCode.TOO_LONG, str(exc))
        self._queue.append(job)
        self._wake()
        return await job.future

    def _wake(self) -> None:
        """Dispatch soon if a worker is free or missing. Every caller resumed in this turn
        of the loop queues first, then one dispatch sends them together: batches
        instead of one write each. With every worker busy nothing is scheduled: each
        takes its next batch from the queue when its batch is answered (`_drive`)."""
        if not self._dispatch_pending and (self._idle or self._live < self.size):
            self._dispatch_pending = True
            asyncio.get_running_loop().call_soon(self._dispatch)

    def _dispatch(self) -> None:
        """Hand queued requests to free workers; start spawns if short of workers. Every
        idle worker killed from outside goes first, not only one a request takes: a dead
        one left idle would never be replaced, and the pool would run a worker short."""
        self._dispatch_pending = False
        for slot in [slot for slot in self._idle if not slot.worker.alive]:
            self._idle.remove(slot)
            self._discard(slot, RestartReason.DIED)
        while self._idle and not self._closed and waiting(self._queue):
            slot = self._idle.pop()
            batch = take_batch(self._queue, 1 + len(self._idle))
            start(self._drive(slot, batch), self._tasks)
        if self._queue and not self._closed:
            self._ensure_workers()

    async def _drive(self, slot: Slot, batch: list[Job]) -> None:
        """Drive one worker through batch after batch while requests are queued."""
        clock = self._running_loop().time  # per task, not per batch: no getpid()
        try:
            while True:
                self._counters.batches += 1
                try:
                    outcome = await drive(self, slot.worker, batch, clock)
                except asyncio.CancelledError:  # the loop is going away
                    self._discard(slot, RestartReason.BACKEND)
                    raise
                if not self._account(slot, batch, *outcome):
                    return
                if not self._queue:  # the callers just answered may ask again at once
                    self._taking += 1
                    try:
                        await asyncio.sleep(0)
                    finally:
                        self._taking -= 1
                worn = slot.requests >= self.max_requests or slot.busy_s >= self.max_busy_s
                if worn or self._closed or not waiting(self._queue):
                    self._release(slot)
                    return
                batch = take_batch(self._queue, 1 + len(self._idle))
                if self._queue:  # the idle workers' share
                    self._wake()
        finally:
            self._dispatch()

    def _account(
        self,
        slot: Slot,
        batch: list[Job],
        answered: int,
        busy_s: float,
        reason: RestartReason | None,
        unsent: EvalError | None,
    ) -> bool:
        """A batch's bookkeeping (`_batch.Outcome`): what never ran goes back to the queue,
        a worker that must go is replaced. False if it went."""
        slot.requests += answered
        slot.busy_s += busy_s
        self._counters.requests += answered
        if answered < len(batch):
            self._counters.retried += requeue(self._queue, batch[answered:], unsent, self._closed)
        if reason is None:
            return True
        self._discard(slot, reason)
        return False

    def _release(self, slot: Slot) -> None:
        """A worker with nothing more to do: idle (unwatched), or retired if worn."""
        worn = slot.requests >= self.max_requests or slot.busy_s >= self.max_busy_s
        if worn or self._closed or not slot.worker.alive:
            self._discard(slot, RestartReason.WORN if worn else RestartReason.DIED)
        else:
            slot.worker.settle()
            self._idle.append(slot)

    def _discard(self, slot: Slot, reason: RestartReason) -> None:
        """Forget a worker now, kill it and start its replacement in the background."""
        slot.worker.settle()
        self._live -= 1
        if not self._closed:
            self._counters.restarts[reason] += 1
            if self.observer is not None:
                self.observer.worker_restarted(reason)
        start(kill(slot.worker, self.backend), self._tasks)
        self._ensure_workers()

    def _ensure_workers(self) -> None:
        while self._live < self.size and not self._closed:
            self._live += 1
            self._spawning += 1
            start(self._spawn(), self._spawns)

    async def _spawn(self) -> None:
        try:
            worker = await self.factory.spawn()
        except Exception as exc:
            self._live -= 1
            self._spawning -= 1
            self._counters.spawn_failures += 1
            log.warning("%s worker did not start: %s", self.backend, exc)
            if self._live == 0:  # nobody left to answer what waits: say why now
                error = EvalError(
                    ErrorCode.SANDBOX, f"could not start a {self.program.name} worker: {exc}"
                )
                fail_all(self._queue, error)
            return
        except asyncio.CancelledError:
            self._live -= 1
            self._spawning -= 1
            raise
        self._spawning -= 1
        if self._closed:
            self._live -= 1
            await kill(worker, self.backend)
            return
        self._idle.append(Slot(worker))
        self._dispatch()

    async def settled(self) -> None:
        """Wait until no batch, kill or spawn is in flight (tests; a graceful stop)."""
        while pending := self._tasks | self._spawns:
            await asyncio.gather(*pending, return_exceptions=True)

    async def close(self) -> None:
        """Kill every idle worker now; busy ones are killed when their batch ends."""
        if self._closed:
            return
        self._closed = True
        fail_all(self._queue, closed_error())
        for task in list(self._spawns):
            task.cancel()
        idle, self._idle = self._idle, []
        self._live -= len(idle)
        for slot in idle:
            await kill(slot.worker, self.backend)
        try:
            await self.factory.cleanup()
        except Exception:
            log.exception("%s cleanup failed", self.backend)
