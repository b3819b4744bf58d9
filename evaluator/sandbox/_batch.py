"""The queue's batches: which waiting requests go together, and one batch on one worker.

The pool (`pool.py`) decides when a worker takes a batch; this is what happens
then: one write of the batch's request lines, then each answer read, checked
against its own request's nonce and delivered to its caller the moment it
arrives (PHP's worker writes a batch's answers together: one wake-up a batch).
Every failure folds into the verdict of the request it happened on (a timeout,
a dead or babbling worker, a backend error), so callers never see an
exception; the `Outcome` says whether the worker must go, and why, and the
requests behind a failure go back to the queue (`requeue`). When the worker
wrote its answers together and several are missing, nobody knows which request
ended it: they all go back, each to be judged alone.

A request whose caller was cancelled stays in the queue as a cancelled future
until a batch would take it: it is dropped then, never sent.

`drive` runs once per batch and its loop once per answer, so it reads what it
needs of the pool once a batch and leaves the bookkeeping to once a batch too.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Protocol

from evaluator.result import ErrorCode, EvalError, Verdict
from evaluator.sandbox.base import Worker, WorkerDied
from evaluator.sandbox.penalty import PenaltyBox
from evaluator.sandbox.program import WorkerProgram
from evaluator.sandbox.protocol import MAX_BATCH, ProtocolError, encode_batch
from evaluator.sandbox.stats import PoolObserver, RestartReason

log = logging.getLogger("evaluator.sandbox.pool")

MAX_BATCH_BYTES = 32 * 1024
"""A batch is one write into an empty pipe: well under its 64 KiB, so it never blocks."""


@dataclass(slots=True)
class Slot:
    worker: Worker
    requests: int = 0
    busy_s: float = 0.0


@dataclass(slots=True, eq=False)
class Job:
    line: bytes
    nonce: str
    formula: str
    who: str | None
    future: asyncio.Future[Verdict]
    alone: bool = False  # sent again after a neighbour ended its worker: never batched again
    timeout_s: float | None = None  # None: the pool's


Outcome = tuple[int, float, RestartReason | None, EvalError | None]
"""How a batch ended: (answered, busy_s, reason, unsent). The first `answered` jobs have
their verdicts (the rest never ran); `reason` is why the worker must go (None: it may
take another batch), and `unsent` what a job already sent alone gets when the worker
took no batch. A plain tuple: a NamedTuple's `__new__` is a Python call per batch."""


class Owner(Protocol):
    """What driving a batch reads of the pool."""

    timeout_s: float
    penalties: PenaltyBox
    observer: PoolObserver | None
    program: WorkerProgram

    @property
    def backend(self) -> str: ...

    @property
    def closed(self) -> bool: ...


def closed_error() -> EvalError:
    return EvalError(ErrorCode.SANDBOX, "the evaluator is closed")


def take_batch(queue: deque[Job], workers: int) -> list[Job]:
    """The head of the queue (a live job: the pool dropped cancelled ones before it): one
    request sent again alone, or this worker's share of what waits among `workers`.
    A job whose caller was cancelled is dropped, never sent."""
    batch = [queue.popleft()]
    if batch[0].alone:
        return batch
    share = min(MAX_BATCH, -(-(len(queue) + 1) // workers))
    size = len(batch[0].line)
    while queue and len(batch) < share:
        job = queue[0]
        if job.future.done():
            queue.popleft()
            continue
        size += len(job.line)
        if job.alone or size > MAX_BATCH_BYTES:
            break
        batch.append(queue.popleft())
    return batch


def waiting(queue: deque[Job]) -> bool:
    """Whether a request waits for a worker, once those at the head of the queue whose
    caller was cancelled are dropped (they are never sent)."""
    while queue and queue[0].future.done():
        queue.popleft()
    return bool(queue)


def fail_all(queue: deque[Job], error: EvalError) -> None:
    """Every request still waiting answered `error` (no worker can start; the pool closed)."""
    while queue:
        job = queue.popleft()
        if not job.future.done():
            job.future.set_result(error)


def start(work: Coroutine[Any, Any, None], tasks: set[asyncio.Task[None]]) -> None:
    """`work` as a task of the running loop, in `tasks` while it runs (`WorkerPool.settled`)."""
    task = asyncio.get_running_loop().create_task(work)
    tasks.add(task)
    task.add_done_callback(tasks.discard)


async def kill(worker: Worker, backend: str) -> None:
    """Kill a worker; a failure to is logged, never raised (it is being forgotten anyway)."""
    try:
        await worker.kill()
    except Exception:
        log.exception("%s worker did not die cleanly", backend)


def drop_cancelled(queue: deque[Job]) -> None:
    """Every request whose caller was cancelled out of the queue (when it looks full)."""
    live = [job for job in queue if not job.future.done()]
    if len(live) < len(queue):
        queue.clear()
        queue.extend(live)


async def in_lanes(
    submit: Callable[[str], Awaitable[Verdict]], items: list[str], lanes: int
) -> list[Verdict]:
    """Each of `items` submitted in order by `lanes` callers, one at a time each (so at
    most `lanes` wait at once), their verdicts in the items' order (`run_many`)."""
    results: list[Verdict | None] = [None] * len(items)
    cursor = iter(range(len(items)))

    async def lane() -> None:
        for index in cursor:
            results[index] = await submit(items[index])

    await asyncio.gather(*(lane() for _ in range(max(1, lanes))))
    return [r for r in results if r is not None]


def requeue(queue: deque[Job], jobs: list[Job], unsent: EvalError | None, closed: bool) -> int:
    """Requests that never ran go back first in the queue, each to be sent alone (how
    many went back); one that was already sent again gets `unsent` (its worker took no
    batch), and every one gets `closed_error()` once the pool is closed."""
    back = 0
    for job in reversed(jobs):
        if job.future.done():
            continue
        if closed or job.alone:
            job.future.set_result(closed_error() if closed else unsent or closed_error())
            continue
        job.alone = True
        back += 1
        queue.appendleft(job)
    return back


async def drive(
    owner: Owner, worker: Worker, batch: list[Job], now: Callable[[], float]
) -> Outcome:
    """Send one batch and deliver every answer as it comes; `now` is the loop's clock.

    The verdict of each job is set on its future (unless its caller is gone); a
    failure is that job's verdict, and the jobs behind it never ran. Cancelled
    (the loop is going away): the jobs not answered are cancelled too."""
    try:
        try:
            await worker.send(encode_batch([job.line for job in batch]))
        except Exception as exc:  # nothing ran: nobody to blame
            log.warning("%s worker took no batch: %s", owner.backend, exc)
            died = isinstance(exc, WorkerDied)
            name = owner.program.name
            unsent = EvalError(ErrorCode.SANDBOX, f"the {name} worker took no request: {exc}")
            return 0, 0.0, RestartReason.DIED if died else RestartReason.BACKEND, unsent
        decode, ready, receive = owner.program.decode, worker.ready_line, worker.receive
        observer, timeout_s = owner.observer, owner.timeout_s
        together = owner.program.answers_together
        answered = 0
        reason: RestartReason | None
        first = started = now()
        for job in batch:
            try:
                line = ready()  # answered before we asked: no waiting, and no clock read
                finished = started
                if line is None or not line.strip():
                    limit = timeout_s if job.timeout_s is None else job.timeout_s
                    while line is None or not line.strip():  # PHP's stderr notes start with one
                        line = await receive(started + limit)
                    finished = now()
                verdict, bye = decode(line, job.formula, job.nonce)
                reason = RestartReason.DIRTY if bye else None
            except Exception as exc:
                verdict, reason = _failure(owner, exc)
                if together and answered + 1 < len(batch) and not owner.closed:
                    # Answers written together: any unanswered one may have ended the
                    # worker and taken the others' along. Nobody is blamed or charged;
                    # each is sent again alone, where the one that did it is judged.
                    return answered, now() - first, reason, None
                bye = True
                finished = now()
            answered += 1
            if not job.future.done():
                job.future.set_result(verdict)
            if observer is not None:
                observer.php_latency(finished - started)
            started = finished
            if bye:
                if reason is not RestartReason.BACKEND:  # the formula ended its worker
                    owner.penalties.charge(job.who, finished)
                return answered, finished - first, reason, None
        return answered, started - first, None, None
    except asyncio.CancelledError:
        for job in batch:
            job.future.cancel()  # an answered one stays answered
        raise


def _failure(owner: Owner, exc: Exception) -> tuple[EvalError, RestartReason]:
    """The verdict a request gets when reading its answer failed, and why its worker goes."""
    name = owner.program.name
    if owner.closed:
        return closed_error(), RestartReason.BACKEND
    if isinstance(exc, TimeoutError):
        message = f"{name} took longer than {owner.timeout_s:g} s"
        return EvalError(ErrorCode.TIMEOUT, message), RestartReason.TIMEOUT
    if isinstance(exc, WorkerDied):
        log.warning("%s worker died: %s", owner.backend, exc)
        fatal = owner.program.fatal(exc.last_words)
        died = EvalError(ErrorCode.SANDBOX, f"the {name} worker died: {exc}")
        return fatal or died, RestartReason.DIED
    if isinstance(exc, ProtocolError):
        log.warning("%s worker broke the protocol: %s", owner.backend, exc)
        message = f"the {name} worker misbehaved: {exc}"
        return EvalError(ErrorCode.SANDBOX, message), RestartReason.PROTOCOL
    log.error("%s worker failed", owner.backend, exc_info=exc)
    return EvalError(ErrorCode.SANDBOX, f"the sandbox failed: {exc}"), RestartReason.BACKEND
