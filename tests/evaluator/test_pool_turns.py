"""The loop turns a formula costs the pool: a worker that is about to take the queue again
is not raced by a dispatch, and what it leaves of a burst goes to the idle workers at once.

With one caller the drive of the worker that just answered takes the caller's next
request itself (it yields one turn for exactly that); a dispatch scheduled as well found
nothing to do, one loop turn and a `waitpid` of every idle worker a formula for nothing."""

from __future__ import annotations

import asyncio
from typing import Any

from evaluator.result import Evaluation
from evaluator.sandbox.pool import WorkerPool
from tests.evaluator.conftest import open_pool


def _count_dispatches(pool: WorkerPool) -> list[int]:
    calls = [0]
    dispatch = pool._dispatch

    def counted(*args: Any) -> None:
        calls[0] += 1
        dispatch(*args)

    pool._dispatch = counted  # type: ignore[method-assign]
    return calls


async def test_one_caller_in_a_loop_costs_no_dispatch_a_formula() -> None:
    pool = await open_pool("local", pool_size=2)
    try:
        calls = _count_dispatches(pool)
        for k in range(40):
            assert await pool.run(f"{k}+1") == Evaluation(f"{k}+1", k + 1)
        assert calls[0] <= 3, calls[0]  # the first request's, and none per formula after
    finally:
        await pool.close()


async def test_a_burst_while_a_worker_takes_the_queue_reaches_the_idle_worker() -> None:
    """The caller resumes in the turn where the drive that answered it is about to take the
    queue: of the 8 it sends then, that worker takes its share and the idle one the rest."""
    pool = await open_pool("local", pool_size=2)
    try:
        assert await pool.run("1+1") == Evaluation("1+1", 2)  # a drive now yields one turn
        burst = [pool.submit(f"{k}*2") for k in range(8)]  # queued now, in that turn
        verdicts = await asyncio.gather(*burst)
        assert verdicts == [Evaluation(f"{k}*2", 2 * k) for k in range(8)]
        await pool.settled()
        # Each worker answered its start probe; one `1+1` and its share, the other its share.
        served = sorted(slot.requests for slot in pool._idle)
        assert served == [1 + 4, 1 + 1 + 4], served
    finally:
        await pool.close()
