"""A local worker's one timer a busy spell (`LocalWorker._on_deadline`): batch after batch
reuse the timer armed for the first, so a request late in the spell must still get its
own full time, no less, and be timed out, not left waiting."""

from __future__ import annotations

import asyncio

from evaluator.result import ErrorCode, EvalError, Evaluation
from tests.evaluator.conftest import open_pool

GUARD_S = 30.0  # a hang guard, not a measurement
TIMEOUT_S = 1.0


async def test_a_request_late_in_a_busy_spell_gets_its_own_time_and_times_out() -> None:
    pool = await open_pool("local", pool_size=1, timeout_s=TIMEOUT_S)
    loop = asyncio.get_running_loop()
    try:
        # One caller, request after request: one spell, one timer armed at the first
        # batch's deadline, which the spell outlives.
        first = loop.time()
        k = 0
        while loop.time() - first < TIMEOUT_S * 1.5:
            assert await pool.run(f"{k}+1") == Evaluation(f"{k}+1", k + 1)
            k += 1
        sent = loop.time()  # queued in the turn the drive takes it: the same spell
        hang = await asyncio.wait_for(pool.submit("usleep(20000000); return 1;", raw=True), GUARD_S)
        waited = loop.time() - sent
        assert isinstance(hang, EvalError) and hang.code == ErrorCode.TIMEOUT, hang
        assert waited >= TIMEOUT_S * 0.99, waited  # not cut short by the spell's first deadline
        assert await asyncio.wait_for(pool.run("34+89"), GUARD_S) == Evaluation("34+89", 123)
    finally:
        await pool.close()
