"""worker.js answers a batch in one write; what that must not cost, on every backend.

All requests below are queued in one turn of the loop on a pool of one idle worker, so
they reach it as one batch (the pool's `_dispatch` runs after every caller queued).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from evaluator.result import ErrorCode, EvalError, Evaluation
from evaluator.sandbox.pool import WorkerPool
from evaluator.sandbox.stats import RestartReason
from tests.evaluator.js.conftest import open_node_pool


@pytest.fixture
async def one(js_backend: str) -> AsyncIterator[WorkerPool]:
    """One worker, and time enough for a replacement's first answer: nothing here times
    out on purpose, and a fresh container's node on a loaded machine took over 1 s."""
    opened = await open_node_pool(js_backend, pool_size=1, timeout_s=15.0)
    try:
        yield opened
    finally:
        await opened.close()


async def test_a_formula_that_ends_its_worker_mid_batch_costs_only_itself(
    one: WorkerPool,
) -> None:
    """mallory's exit takes the unwritten answers before hers along: each unanswered
    request is sent again alone and gets its own verdict (worker.js and
    `NodeProgram.answers_together` must agree, or alice and bob are told "died")."""
    got = await asyncio.gather(
        one.run("34+89", who="alice"),
        one.run("Math.sqrt(16)", who="bob"),
        one.run_raw("process.exit(3)", who="mallory"),
        one.run("7/2", who="carol"),
    )
    assert list(got[:2]) == [Evaluation("34+89", 123.0), Evaluation("Math.sqrt(16)", 4.0)]
    assert isinstance(got[2], EvalError) and got[2].code == ErrorCode.SANDBOX, got[2]
    assert "died" in got[2].message
    assert got[3] == Evaluation("7/2", 3.5)
    assert one.stats().restarts[RestartReason.DIED] >= 1
    now = asyncio.get_running_loop().time()
    tokens = [round(one.penalties.tokens(w, now)) for w in ("alice", "bob", "carol")]
    assert tokens == [round(one.penalties.tokens("nobody", now))] * 3  # none charged


LEAVES = "this.q = 5, Math.q = 6, ({}).constructor.prototype.r = 7"
READS = "(this.q | 0) + (Math.q | 0) + (({}).r | 0) + 1"
"""A formula that is not pure (a fresh context each) leaving state behind, and one that
reads it: 1 unless the context (or its Math, or Object's prototype) was shared."""


async def test_formulas_that_are_not_pure_get_a_context_each_within_a_batch(
    one: WorkerPool,
) -> None:
    """Two such formulas in one batch: the second's context is made for it, after the
    answers before it were written, not the first's context reused."""
    formulas = [LEAVES, READS, "34+89", LEAVES, LEAVES, READS, READS, "Math.abs(0-2)", READS]
    got = await asyncio.gather(*(one.run(f) for f in formulas))
    for formula, verdict in zip(formulas, got, strict=True):
        if formula == READS:
            assert verdict == Evaluation(READS, 1.0), verdict
        elif formula == LEAVES:
            assert isinstance(verdict, Evaluation) and verdict.value == 7.0, verdict
    assert got[2] == Evaluation("34+89", 123.0)
    assert one.stats().batches <= 3  # the start probe, this batch (and a spare)


async def test_a_long_batch_of_long_answers_is_written_whole(one: WorkerPool) -> None:
    """40 answers of ~10 KB in one batch, ~400 KB: more than the pipe holds, so worker.js
    writes them in parts (every 16 KiB, each write whole) while the pool reads."""
    formulas = [f"throw '{k}'.repeat(5000)" for k in range(10, 50)]
    got = await asyncio.gather(*(one.run(f) for f in formulas))
    for k, verdict in enumerate(got, start=10):
        assert isinstance(verdict, EvalError) and verdict.code == ErrorCode.RUNTIME, verdict
        assert verdict.message == str(k) * 5000
    assert not any(one.stats().restarts.values())


async def test_answers_before_a_formula_that_hangs_do_not_wait_for_it(js_backend: str) -> None:
    """Only a formula that is not pure can take long, and the answers before it are
    written before it runs: alice is answered, not sent again after mallory's timeout
    (only mallory and bob, behind her, go back to the queue)."""
    pool = await open_node_pool(js_backend, pool_size=1, timeout_s=5.0)
    try:
        got = await asyncio.gather(
            pool.run("34+89", who="alice"),
            pool.run("for (;;) {}", who="mallory"),
            pool.run("7/2", who="bob"),
        )
        assert got[0] == Evaluation("34+89", 123.0)
        assert isinstance(got[1], EvalError) and got[1].code == ErrorCode.TIMEOUT, got[1]
        assert got[2] == Evaluation("7/2", 3.5)
        assert pool.stats().retried == 2
    finally:
        await pool.close()
