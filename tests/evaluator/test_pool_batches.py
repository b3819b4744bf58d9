"""Pipelining, replacement off the request path, penalties and stats, on every backend.

No timing assertions: a request "answered within its normal time" is proven
structurally, by answering it while the replacement worker's spawn is held
back on purpose (a design that spawned on the request path would hang there,
and the generous `wait_for` below would fail it).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest

from evaluator.result import ErrorCode, EvalError, Evaluation, Verdict
from evaluator.sandbox.base import Worker, WorkerFactory
from evaluator.sandbox.penalty import PenaltyBox
from evaluator.sandbox.pool import WorkerPool
from evaluator.sandbox.stats import RestartReason
from tests.evaluator.conftest import factory_for, test_settings

GUARD_S = 20.0  # a hang guard, not a measurement


class GatedFactory:
    """A real backend whose spawns wait for `gate`: replacements can be held back."""

    def __init__(self, inner: WorkerFactory) -> None:
        self.inner = inner
        self.name = inner.name
        self.gate = asyncio.Event()
        self.gate.set()
        self.spawns = 0

    async def spawn(self) -> Worker:
        await self.gate.wait()
        self.spawns += 1
        return await self.inner.spawn()

    async def cleanup(self) -> None:
        await self.inner.cleanup()


class Recorder:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.restarts: list[RestartReason] = []

    def php_latency(self, seconds: float) -> None:
        self.latencies.append(seconds)

    def worker_restarted(self, reason: RestartReason) -> None:
        self.restarts.append(reason)


async def make(backend: str, size: int, **pool: Any) -> tuple[WorkerPool, GatedFactory]:
    settings = test_settings(backend, pool_size=size)
    factory = GatedFactory(factory_for(backend, settings))
    made = WorkerPool(
        factory, size=size, timeout_s=settings.timeout_s, queue_limit=settings.queue_limit, **pool
    )
    await made.start()
    return made, factory


@pytest.fixture
async def one(backend: str) -> AsyncIterator[WorkerPool]:
    made, _ = await make(backend, 1, penalties=PenaltyBox(free_kills=1, refill_s=1000))
    try:
        yield made
    finally:
        await made.close()


async def queued_behind_slow(pool: WorkerPool, *calls: Any) -> list[Verdict]:
    """`calls` queue up while the only worker is busy, so they go as one batch."""
    slow = asyncio.create_task(pool.run_raw("usleep(300000); return 0;"))
    await asyncio.sleep(0.1)
    tasks = [asyncio.create_task(call) for call in calls]
    await slow
    return list(await asyncio.wait_for(asyncio.gather(*tasks), GUARD_S))


async def test_a_batch_neighbour_that_hangs_costs_the_others_nothing(one: WorkerPool) -> None:
    got = await queued_behind_slow(
        one,
        one.run("34+89", who="alice"),
        one.run_raw("while (true) {}", who="mallory"),
        one.run("7/2", who="bob"),
        one.run("hexdec(63)", who="carol"),
    )
    assert got[0] == Evaluation("34+89", 123)
    assert isinstance(got[1], EvalError) and got[1].code == ErrorCode.TIMEOUT
    assert got[2:] == [Evaluation("7/2", 3.5), Evaluation("hexdec(63)", 99)]
    stats = one.stats()
    # bob and carol were behind mallory, sent again; alice too when her answer was still
    # held back for the batch's one write (unless a millisecond passed before mallory)
    assert stats.retried in (3, 4)
    assert stats.restarts[RestartReason.TIMEOUT] == 2  # the batch's worker, mallory's alone
    now = asyncio.get_running_loop().time()
    left = [round(one.penalties.tokens(w, now)) for w in ("alice", "mallory", "bob", "carol")]
    assert left == [1, 0, 1, 1]  # only mallory was charged (her one free kill)


async def test_a_batch_neighbour_that_dies_costs_the_others_nothing(one: WorkerPool) -> None:
    got = await queued_behind_slow(
        one, one.run_raw("exit(3);", who="mallory"), one.run("34+89"), one.run("7/2")
    )
    assert isinstance(got[0], EvalError) and got[0].code == ErrorCode.SANDBOX
    assert "died" in got[0].message
    assert got[1:] == [Evaluation("34+89", 123), Evaluation("7/2", 3.5)]
    assert one.stats().restarts[RestartReason.DIED] == 2  # the batch's worker, mallory's alone


async def test_a_formula_that_ends_its_worker_mid_batch_costs_only_itself(
    one: WorkerPool,
) -> None:
    """Answers of a batch are written together, so mallory's exit takes the answers
    before hers along: every unanswered request is sent again alone, each gets its
    own verdict, and only mallory is charged."""
    got = await queued_behind_slow(
        one,
        one.run("34+89", who="alice"),
        one.run("7/2", who="bob"),
        one.run_raw("exit(3);", who="mallory"),
        one.run("hexdec(63)", who="carol"),
        one.run("2**10", who="dave"),
    )
    assert got[:2] == [Evaluation("34+89", 123), Evaluation("7/2", 3.5)]
    assert isinstance(got[2], EvalError) and "died" in got[2].message
    assert got[3:] == [Evaluation("hexdec(63)", 99), Evaluation("2**10", 1024)]
    stats = one.stats()
    assert stats.retried >= 3  # mallory, carol and dave at least, each sent alone
    assert stats.restarts[RestartReason.DIED] == 2  # the batch's worker, mallory's alone
    now = asyncio.get_running_loop().time()
    people = ("alice", "bob", "mallory", "carol", "dave")
    assert [round(one.penalties.tokens(w, now)) for w in people] == [1, 1, 0, 1, 1]


async def test_a_fatal_error_is_reported_in_phps_words(one: WorkerPool) -> None:
    verdict = await one.run_raw("function f() {} function f() {}")
    assert isinstance(verdict, EvalError)
    assert (verdict.code, verdict.error_class) == (ErrorCode.PHP, "FatalError")
    assert "Cannot redeclare f()" in verdict.message
    assert await one.run("34+89") == Evaluation("34+89", 123)


async def test_an_honest_request_does_not_wait_for_a_replacement(backend: str) -> None:
    """The attacker ends one worker while the other is busy; its replacement's spawn is
    held back; the honest request is answered by the busy worker once it is free."""
    pool, factory = await make(backend, 2)
    try:
        busy = asyncio.create_task(pool.run_raw("usleep(300000); return 0;"))
        await asyncio.sleep(0.1)
        factory.gate.clear()  # no replacement can start until the honest answer is in
        died = await pool.run_raw("exit(3);", who="mallory")
        assert isinstance(died, EvalError) and died.code == ErrorCode.SANDBOX
        honest = await asyncio.wait_for(pool.run("34+89", who="alice"), GUARD_S)
        assert honest == Evaluation("34+89", 123)
        assert pool.stats().spawning == 1  # the replacement was still on its way
        factory.gate.set()
        await pool.settled()
        assert pool.stats().idle_workers == 2
        assert await busy == Evaluation("usleep(300000); return 0;", 0)
    finally:
        factory.gate.set()
        await pool.close()


async def test_an_attacker_who_keeps_ending_workers_is_slowed(one: WorkerPool) -> None:
    for _ in range(2):  # one free kill, then in debt
        assert isinstance(await one.run_raw("exit(3);", who="mallory"), EvalError)
    await one.settled()
    held = asyncio.create_task(one.run_raw("exit(3);", who="mallory"))
    assert await asyncio.wait_for(one.run("34+89", who="alice"), GUARD_S) == Evaluation(
        "34+89", 123
    )
    await asyncio.sleep(0)
    assert not held.done()  # waiting out the penalty, holding no worker
    stats = one.stats()
    assert stats.penalised == 1
    assert stats.queue_depth == 0 and stats.idle_workers == 1
    held.cancel()
    with pytest.raises(asyncio.CancelledError):
        await held


async def test_an_idle_pool_has_no_pending_task_once_replaced(one: WorkerPool) -> None:
    await one.run_raw("exit(3);")
    await one.settled()
    current = asyncio.current_task()
    assert [t for t in asyncio.all_tasks() if t is not current] == []
    assert one.stats().idle_workers == 1
    worker = one._idle[0].worker
    assert getattr(worker, "watching", False) is False  # no reader left on its pipes


async def test_busy_workers_take_requests_in_batches(backend: str) -> None:
    recorder = Recorder()
    pool, _ = await make(backend, 2, observer=recorder)
    try:
        formulas = [f"{i}*3" for i in range(400)]
        got = await asyncio.gather(*(pool.run(f) for f in formulas[:32]))
        got += await pool.run_many(formulas[32:])
        assert [v.value for v in got if isinstance(v, Evaluation)] == [i * 3 for i in range(400)]
        stats = pool.stats()
        assert stats.requests == 402  # with the two start probes
        assert stats.batches < stats.requests  # several requests per write
        assert len(recorder.latencies) == stats.requests
        assert all(0 <= s < 5 for s in recorder.latencies)
    finally:
        await pool.close()


async def test_stats_count_restarts_by_reason(one: WorkerPool) -> None:
    recorder = Recorder()
    one.observer = recorder
    await one.run_raw("while (true) {}")
    await one.run_raw("exit(1);")
    await one.run_raw('echo \'{"ok":true}\', PHP_EOL; fprintf(STDERR, "{}\\n"); return 1;')
    await one.settled()
    stats = one.stats()
    assert stats.restarts[RestartReason.TIMEOUT] == 1
    assert stats.restarts[RestartReason.DIED] == 1
    assert stats.restarts[RestartReason.PROTOCOL] == 1
    assert recorder.restarts == [RestartReason.TIMEOUT, RestartReason.DIED, RestartReason.PROTOCOL]
    assert (stats.live_workers, stats.idle_workers, stats.queue_depth) == (1, 1, 0)
