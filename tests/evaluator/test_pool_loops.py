"""A pool used from a second event loop (a second `asyncio.run`, a test's own loop) hands
out futures of that loop: it keeps the loop it knows only while that loop runs."""

from __future__ import annotations

import asyncio

from evaluator.result import Evaluation
from evaluator.sandbox.pool import WorkerPool
from tests.evaluator.conftest import open_pool


def test_a_pool_answers_on_the_loop_it_is_asked_from() -> None:
    async def opened_and_used() -> WorkerPool:
        pool = await open_pool("local", pool_size=1)
        assert await pool.run("1+1") == Evaluation("1+1", 2)
        return pool

    pool = asyncio.run(opened_and_used())

    async def used_again() -> None:
        try:
            assert await pool.run("34+89") == Evaluation("34+89", 123)
        finally:
            await pool.close()

    asyncio.run(used_again())
