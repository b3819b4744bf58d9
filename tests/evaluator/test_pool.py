"""The warm pool on every backend: PHP's surprises, failures folded into verdicts."""

from __future__ import annotations

import asyncio
import os
import signal
import struct
from collections.abc import Callable

import pytest

from evaluator.result import ErrorCode, EvalError, Evaluation
from evaluator.sandbox.local import LocalWorker, LocalWorkerFactory, SandboxUnavailable
from evaluator.sandbox.pool import SandboxStartError, WorkerPool
from evaluator.sandbox.stats import PoolStats, RestartReason
from evaluator.service import make_pool
from tests.evaluator.conftest import TIMEOUT_S, open_pool, test_settings

# RULES.md's surprises and friends: (formula, PHP type, value).
VALUES = [
    ("34+89", "int", 123),
    ("5^3", "int", 6),
    ("5&2", "int", 0),
    ("023", "int", 19),
    ("7/2", "float", 3.5),
    ("9/3", "int", 3),
    ("1<<64", "int", 0),
    ("1<<63", "int", -(2**63)),
    ("hexdec(63)", "int", 99),
    ("octdec(17)", "int", 15),
    ("bindec(101)", "int", 5),
    ("pow(2,3)", "int", 8),
    ("pow(2,-1)", "float", 0.5),
    ("pow(2,64)", "float", 2.0**64),
    ("sqrt(16)", "float", 4.0),
    ("0.1+0.2", "float", 0.30000000000000004),
    ("9223372036854775807+1", "float", 9.2233720368547758e18),
    ("-7%3", "int", -1),
    ("7/2%2", "int", 1),
    ("pow(98,76)", "float", 98.0**76),
]

ERRORS = [
    ("08", ErrorCode.SYNTAX, "ParseError"),
    ("3--4", ErrorCode.SYNTAX, "ParseError"),
    ("3+", ErrorCode.SYNTAX, "ParseError"),
    ("1/0", ErrorCode.PHP, "DivisionByZeroError"),
    ("1%0", ErrorCode.PHP, "DivisionByZeroError"),
    ("1<<-1", ErrorCode.PHP, "ArithmeticError"),
    ("sqrt(-1)", ErrorCode.NOT_FINITE, None),
    ("pow(0,-1)", ErrorCode.NOT_FINITE, None),
    ("pow(10,400)", ErrorCode.NOT_FINITE, None),
]


def bits(x: float) -> bytes:
    return struct.pack("<d", x)


async def test_php_values(pool: WorkerPool) -> None:
    """One pool for the whole table (a Docker pool is slow to start); all mismatches at once."""
    verdicts = await pool.run_many(formula for formula, _, _ in VALUES)
    wrong = []
    for (formula, kind, value), verdict in zip(VALUES, verdicts, strict=True):
        if not (
            isinstance(verdict, Evaluation)
            and verdict.formula == formula
            and verdict.php_type == kind
            and bits(float(verdict.value)) == bits(float(value))
            and (kind == "float" or verdict.value == value)
        ):
            wrong.append((formula, kind, value, verdict))
    assert not wrong


async def test_php_errors(pool: WorkerPool) -> None:
    verdicts = await pool.run_many(formula for formula, _, _ in ERRORS)
    wrong = [
        (formula, code, php_class, verdict)
        for (formula, code, php_class), verdict in zip(ERRORS, verdicts, strict=True)
        if not (
            isinstance(verdict, EvalError)
            and verdict.code == code
            and verdict.error_class == php_class
            and verdict.message
        )
    ]
    assert not wrong


async def test_negative_zero_and_messages(pool: WorkerPool) -> None:
    zero = await pool.run("-0/1")
    assert isinstance(zero, Evaluation)
    assert zero.value == 0
    neg = await pool.run("-(0/2)")
    assert isinstance(neg, Evaluation)
    assert neg.php_type == "int"
    division = await pool.run("1/0")
    assert isinstance(division, EvalError)
    assert division.message == "Division by zero"
    literal = await pool.run("08")
    assert isinstance(literal, EvalError)
    assert "Invalid numeric literal" in literal.message


async def test_run_many_keeps_order(pool: WorkerPool) -> None:
    formulas = [f"{i}*2" for i in range(300)] + ["1/0", "08", "7/2"]
    verdicts = await pool.run_many(formulas)
    assert [v.value for v in verdicts[:300] if isinstance(v, Evaluation)] == [
        i * 2 for i in range(300)
    ]
    assert [getattr(v, "code", None) for v in verdicts[300:302]] == ["php", "syntax"]
    assert verdicts[302] == Evaluation("7/2", 3.5)


async def test_concurrent_callers_get_their_own_answers(pool: WorkerPool) -> None:
    callers = pool.size + pool.queue_limit  # as many as fit without "busy"
    verdicts = await asyncio.gather(*(pool.run(f"{i}+{i}") for i in range(callers)))
    assert [v.value for v in verdicts if isinstance(v, Evaluation)] == [
        2 * i for i in range(callers)
    ]


async def test_timeout_kills_and_replaces(pool: WorkerPool) -> None:
    loop = asyncio.get_running_loop()
    started = loop.time()
    verdict = await pool.run_raw("while (true) {}")
    elapsed = loop.time() - started
    assert isinstance(verdict, EvalError)
    assert verdict.code == ErrorCode.TIMEOUT
    assert elapsed >= TIMEOUT_S * 0.9  # not before its time; a loaded machine may be later
    assert pool.live_workers <= pool.size
    assert await pool.run("34+89") == Evaluation("34+89", 123)


async def test_exiting_worker_is_replaced(pool: WorkerPool) -> None:
    died = await pool.run_raw("exit(3);")
    assert isinstance(died, EvalError)
    assert died.code == ErrorCode.SANDBOX
    assert "died" in died.message
    for _ in range(pool.size * 2):
        assert await pool.run("2*47+6") == Evaluation("2*47+6", 100)


async def test_killed_local_worker_is_replaced() -> None:
    pool = await open_pool("local", pool_size=1)
    try:
        slot = pool._idle[0]  # the one warm worker, killed from outside
        worker = slot.worker
        assert isinstance(worker, LocalWorker)
        worker._proc.kill()
        worker._proc.wait(timeout=5)
        assert not worker.alive
        assert await pool.run("700+1") == Evaluation("700+1", 701)
        await pool.settled()
        assert pool._idle[0].worker is not worker
    finally:
        await pool.close()


async def test_a_worker_killed_while_idle_is_replaced_though_another_took_the_request() -> None:
    """The chaos run's kill: SIGKILL from outside, nobody reaps it, and the request goes to
    the other idle worker. The dead one must not stay counted as idle (the pool would run a
    worker short until a request happened to pick it): it is replaced at the next dispatch."""
    pool = await open_pool("local", pool_size=2)
    try:
        dead = pool._idle[0].worker  # dispatch takes the last idle worker: not this one
        assert isinstance(dead, LocalWorker)
        os.kill(dead.pid, signal.SIGKILL)
        dead._proc.wait(timeout=5)  # a hang guard: SIGKILL ends it at once
        assert await pool.run("700+1") == Evaluation("700+1", 701)
        await pool.settled()
        assert dead not in [slot.worker for slot in pool._idle]
        assert pool.live_workers == 2
        assert all(slot.worker.alive for slot in pool._idle)
        assert pool.stats().restarts[RestartReason.DIED] == 1
    finally:
        await pool.close()


async def test_a_worker_killed_mid_batch_leaves_every_formula_a_verdict() -> None:
    """Issue 29's suspicion: SIGKILL from outside while a batch is in flight (answers are
    written together, so none has come). Every formula of it is sent again alone and
    answered, and the next one too: nothing waits for an answer that cannot come."""
    pool = await open_pool("local", pool_size=1)
    try:
        worker = pool._idle[0].worker
        assert isinstance(worker, LocalWorker)
        batch = [pool.run_raw("usleep(500000); return 0;"), pool.run("34+89"), pool.run("7/2")]
        calls = [asyncio.ensure_future(call) for call in batch]
        for _ in range(100):  # until the batch is written and its answers awaited
            if worker.watching:
                break
            await asyncio.sleep(0)
        assert worker.watching
        os.kill(worker.pid, signal.SIGKILL)  # the first formula cannot be done yet
        got = await asyncio.wait_for(asyncio.gather(*calls), 20)  # a hang guard only
        assert got[1:] == [Evaluation("34+89", 123), Evaluation("7/2", 3.5)]
        assert await asyncio.wait_for(pool.run("700+1"), 20) == Evaluation("700+1", 701)
        assert pool.stats().retried == 3  # the whole batch, each sent again alone
        assert pool.stats().restarts[RestartReason.DIED] == 1
    finally:
        await pool.close()


async def test_workers_are_reused_and_retired() -> None:
    pool = await open_pool("local", pool_size=1, max_requests=3)
    try:
        first = pool._idle[0].worker
        for i in range(2):  # the probe was request 1
            assert await pool.run(f"{i}+1") == Evaluation(f"{i}+1", i + 1)
        await pool.settled()
        assert not first.alive  # retired after its third request
        assert pool._idle[0].worker is not first  # and already replaced
        assert await pool.run("1+2") == Evaluation("1+2", 3)
        await pool.settled()
        assert pool._idle[0].worker is not first
    finally:
        await pool.close()


async def until(pool: WorkerPool, holds: Callable[[PoolStats], bool]) -> None:
    """Yield to the loop (no clock moves) until the pool's own stats say `holds`.

    The pool signals no event when a worker takes a request; its stats change in the
    turn of the loop that hands it over, so each turn is read, never a clock."""
    async with asyncio.timeout(30):
        while not holds(pool.stats()):  # noqa: ASYNC110 - a turn of the loop, not a clock
            await asyncio.sleep(0)


def working(stats: PoolStats) -> bool:
    """Every request so far is on a worker: none queued, none idle."""
    return stats.idle_workers == 0 and stats.queue_depth == 0


@pytest.mark.parametrize("entry", ["run", "submit"])
async def test_queue_full_is_busy(entry: str) -> None:
    """By `run` and by `submit` (the bot's path: the caller awaits its future)."""
    pool = await open_pool("local", pool_size=1, queue_limit=1)
    try:
        slow = asyncio.create_task(pool.run_raw("usleep(300000); return 1;"))
        await until(pool, working)
        queued = asyncio.create_task(pool.run("2+2"))
        await until(pool, lambda stats: stats.queue_depth == 1)
        busy = await (pool.run("3+3") if entry == "run" else pool.submit("3+3"))
        assert isinstance(busy, EvalError)
        assert busy.code == ErrorCode.SANDBOX
        assert "busy" in busy.message
        assert await slow == Evaluation("usleep(300000); return 1;", 1)
        assert await queued == Evaluation("2+2", 4)
    finally:
        await pool.close()


async def test_a_cancelled_request_shifts_no_answer() -> None:
    """Its answer is still read off the channel (and dropped), so the worker stays usable."""
    pool = await open_pool("local", pool_size=1)
    try:
        worker = pool._idle[0].worker
        task = asyncio.create_task(pool.run_raw("usleep(200000); return 1;"))
        await until(pool, working)  # sent to the worker: its answer will come
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        # The late answer (1) must not be read as this request's answer.
        assert await pool.run("5*5") == Evaluation("5*5", 25)
        await pool.settled()
        assert pool._idle[0].worker is worker
    finally:
        await pool.close()


async def test_close_kills_workers_and_answers_closed() -> None:
    pool = await open_pool("local", pool_size=2)
    slow = asyncio.create_task(pool.run_raw("usleep(200000); return 1;"))
    await until(pool, lambda stats: stats.idle_workers == 1 and stats.queue_depth == 0)
    idle = [slot.worker for slot in pool._idle]
    assert len(idle) == 1
    await pool.close()
    assert not idle[0].alive  # idle workers die at once
    assert await slow == Evaluation("usleep(200000); return 1;", 1)
    assert pool.live_workers == 0  # the busy one died when its request ended
    after = await pool.run("1+1")
    assert isinstance(after, EvalError)
    assert after.code == ErrorCode.SANDBOX
    assert "closed" in after.message
    await pool.close()  # idempotent


async def test_close_wakes_waiters() -> None:
    pool = await open_pool("local", pool_size=1)
    slow = asyncio.create_task(pool.run_raw("usleep(300000); return 1;"))
    await until(pool, working)
    waiting = asyncio.create_task(pool.run("1+1"))
    await until(pool, lambda stats: stats.queue_depth == 1)
    await pool.close()
    verdict = await waiting
    assert isinstance(verdict, EvalError)
    assert "closed" in verdict.message
    await slow


def test_refuses_to_run_without_bubblewrap() -> None:
    with pytest.raises(SandboxUnavailable, match="apt-get install bubblewrap"):
        LocalWorkerFactory(test_settings("local", bwrap_path="no-such-bwrap"))


async def test_unsandboxed_only_when_allowed() -> None:
    settings = test_settings(
        "local", bwrap_path="no-such-bwrap", allow_unsandboxed=True, pool_size=1
    )
    factory = LocalWorkerFactory(settings)
    assert factory.name == "local-unsandboxed"
    pool = make_pool(factory, settings)
    await pool.start()
    try:
        assert await pool.run("34+89") == Evaluation("34+89", 123)
    finally:
        await pool.close()


async def test_broken_sandbox_fails_at_start() -> None:
    settings = test_settings("local", bwrap_path="false", pool_size=1)  # `false` exits at once
    pool = make_pool(LocalWorkerFactory(settings), settings)
    with pytest.raises(SandboxStartError, match="does not work"):
        await pool.start()
    assert pool.closed


class _SlowFirstAnswer:
    """A real local worker whose first answer comes `delay` late (a cold container).

    Late on paper: the answer is handed over at once if `delay` more seconds fit before
    the caller's deadline, and a TimeoutError is raised if they do not, as a real wait
    would end, so the test waits for no clock."""

    def __init__(self, worker: LocalWorker, delay: float) -> None:
        self.worker, self.delay = worker, delay

    @property
    def alive(self) -> bool:
        return self.worker.alive

    async def send(self, data: bytes) -> None:
        await self.worker.send(data)

    async def receive(self, deadline: float) -> bytes:
        line = await self.worker.receive(deadline)
        if self.delay:
            late = asyncio.get_running_loop().time() + self.delay
            self.delay = 0.0
            if late > deadline:
                raise TimeoutError
        return line

    def ready_line(self) -> bytes | None:
        return None  # every answer through `receive`, where the delay is

    def settle(self) -> None:
        self.worker.settle()

    async def kill(self) -> None:
        await self.worker.kill()


class _SlowFactory:
    def __init__(self, inner: LocalWorkerFactory, delay: float) -> None:
        self.inner, self.delay, self.name = inner, delay, inner.name

    async def spawn(self) -> _SlowFirstAnswer:
        return _SlowFirstAnswer(await self.inner.spawn(), self.delay)  # type: ignore[arg-type]

    async def cleanup(self) -> None:
        await self.inner.cleanup()


async def test_a_worker_slow_to_answer_its_first_request_still_starts() -> None:
    """The start probe allows a cold worker more than a player's timeout; players' requests
    on it keep the pool's own."""
    settings = test_settings("local", pool_size=1, timeout_s=0.3)
    pool = make_pool(_SlowFactory(LocalWorkerFactory(settings), 0.6), settings)  # type: ignore[arg-type]
    await pool.start()
    try:
        assert await pool.run("34+89") == Evaluation("34+89", 123)
    finally:
        await pool.close()


async def test_not_a_number_is_a_php_error(pool: WorkerPool) -> None:
    verdict = await pool.run_raw("return 'x';")
    assert isinstance(verdict, EvalError)
    assert verdict.code == ErrorCode.PHP
    assert "string" in verdict.message
