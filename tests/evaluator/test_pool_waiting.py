"""A request that waits for a worker: its caller may go away, and workers may still be
starting. A caller's request is queued at once and the caller awaits its future
(`WorkerPool.submit`), so a cancelled caller leaves a cancelled future in the queue:
it must never be sent, counted or make the queue look full; and a request made while
every worker is still being probed must be answered when the probes end (nothing else
would dispatch it: no worker was free when it came)."""

from __future__ import annotations

import asyncio

import pytest

from evaluator.result import Evaluation
from evaluator.sandbox.local import LocalWorkerFactory
from evaluator.service import make_pool
from tests.evaluator.conftest import open_pool, test_settings
from tests.evaluator.test_pool import until, working

GUARD_S = 20.0  # a hang guard, not a measurement


async def test_a_cancelled_request_that_waited_is_never_sent() -> None:
    pool = await open_pool("local", pool_size=1)
    try:
        slow = asyncio.create_task(pool.run_raw("usleep(300000); return 1;"))
        await until(pool, working)
        head, second, amid, last = (
            asyncio.create_task(pool.run(formula)) for formula in ("2+2", "3+3", "4+4", "5+5")
        )
        await until(pool, lambda stats: stats.queue_depth == 4)
        for cancelled in (head, amid):  # the batch to come's head, and one inside it
            cancelled.cancel()
            with pytest.raises(asyncio.CancelledError):
                await cancelled
        assert pool.stats().queue_depth == 2
        assert await slow == Evaluation("usleep(300000); return 1;", 1)
        assert await second == Evaluation("3+3", 6)
        assert await last == Evaluation("5+5", 10)
        await pool.settled()
        stats = pool.stats()
        assert stats.requests == 4  # the start probe, the slow one, 3+3 and 5+5: no other
        assert stats.retried == 0
    finally:
        await pool.close()


async def test_a_cancelled_caller_does_not_fill_the_queue() -> None:
    pool = await open_pool("local", pool_size=1, queue_limit=1)
    try:
        slow = asyncio.create_task(pool.run_raw("usleep(300000); return 1;"))
        await until(pool, working)
        gone = asyncio.create_task(pool.run("2+2"))
        await until(pool, lambda stats: stats.queue_depth == 1)
        gone.cancel()
        with pytest.raises(asyncio.CancelledError):
            await gone
        kept = asyncio.create_task(pool.run("3+3"))  # the queue's one place is free again
        assert await asyncio.wait_for(kept, GUARD_S) == Evaluation("3+3", 6)
        assert await slow == Evaluation("usleep(300000); return 1;", 1)
        assert pool.stats().busy == 0
    finally:
        await pool.close()


async def test_a_request_made_while_the_workers_start_is_answered() -> None:
    settings = test_settings("local", pool_size=2)
    pool = make_pool(LocalWorkerFactory(settings), settings)
    try:
        starting = asyncio.create_task(pool.start())
        await asyncio.sleep(0)  # start() has counted its workers and is spawning them
        assert pool.live_workers == 2
        early = await asyncio.wait_for(pool.run("34+89"), GUARD_S)
        assert early == Evaluation("34+89", 123)
        await starting
    finally:
        await pool.close()
