"""SolverProcess's limits, each really hit: a call past its deadline is stopped and its
process replaced, the memory budget is enforced by the kernel, honest calls are answered
while a hostile one runs, and a person's call goes before work queued ahead of need."""

from __future__ import annotations

import asyncio

import pytest

from rules.sets import CLASSIC
from solver import FailureReason, Solution, SolveFailure, SolverProcess
from solver.process import ordinary

pytestmark = pytest.mark.asyncio(loop_scope="module")

HEAVY = "9779"  # among the largest top levels: `prepare` takes about a second
HUGE_SCORE = 1e308


async def _pid(process: SolverProcess, *, wide: bool = False) -> int:
    status = await process.status(wide=wide)
    assert not isinstance(status, SolveFailure), status
    return status[0]


async def test_a_call_past_its_deadline_is_stopped_and_the_process_replaced() -> None:
    async with SolverProcess(timeout_s=120) as process:
        before = await _pid(process)
        outcome = await process.prepare(HEAVY, CLASSIC, timeout_s=0.05)
        assert isinstance(outcome, SolveFailure) and outcome.reason is FailureReason.TIMEOUT
        after = await _pid(process)
        assert after != before  # the old process was killed, not left working
        assert isinstance(await process.best("3489", 501, CLASSIC), Solution)


async def test_the_memory_budget_is_enforced_and_the_process_replaced() -> None:
    """100 MiB holds the solver and a cold solve, not the top level of the heaviest
    Digits (~45 MiB more at its peak): that call fails, the next one is served."""
    async with SolverProcess(memory_mb=100, timeout_s=120) as small:
        before = await _pid(small)
        assert isinstance(await small.best("1234", 501, CLASSIC), Solution)
        outcome = await small.prepare(HEAVY, CLASSIC)
        assert isinstance(outcome, SolveFailure) and outcome.reason is FailureReason.MEMORY
        assert await _pid(small) != before
        assert isinstance(await small.best("3489", 300, CLASSIC), Solution)


async def test_an_honest_reveal_is_answered_while_a_hostile_one_runs() -> None:
    """A Score of 1e308 (after `pow(3,489)`-like answers) is solved in the second
    process: a reveal on ordinary Scores does not queue behind it."""
    assert not ordinary(HUGE_SCORE, CLASSIC) and ordinary(501, CLASSIC)
    async with SolverProcess(timeout_s=120) as process:
        assert await process.prepare("3489", CLASSIC) is None
        hostile = asyncio.ensure_future(process.best("5185", HUGE_SCORE, CLASSIC, top=3))
        await asyncio.sleep(0)
        honest = await process.best("3489", 300, CLASSIC)
        assert isinstance(honest, Solution)
        assert not hostile.done()
        found = await hostile
        assert isinstance(found, Solution) and found.best.score < HUGE_SCORE
        assert await _pid(process, wide=True) != await _pid(process)


async def test_a_reveal_goes_before_prepares_queued_ahead_of_it() -> None:
    async with SolverProcess(timeout_s=120) as process:
        assert await process.prepare("3489", CLASSIC) is None
        ahead = [
            asyncio.ensure_future(process.prepare(d, CLASSIC)) for d in ("9779", "4658", "7468")
        ]
        await asyncio.sleep(0)
        reveal = await process.best("3489", 300, CLASSIC)
        assert isinstance(reveal, Solution)
        assert sum(task.done() for task in ahead) <= 1  # only the one already running
        assert [await task for task in ahead] == [None, None, None]


async def test_a_cancelled_waiter_gives_its_turn_away() -> None:
    async with SolverProcess(timeout_s=120) as process:
        running = asyncio.ensure_future(process.prepare(HEAVY, CLASSIC))
        await asyncio.sleep(0)
        waiting = asyncio.ensure_future(process.best("1234", 501, CLASSIC))
        await asyncio.sleep(0)
        waiting.cancel()
        assert await running is None
        assert isinstance(await process.best("3489", 501, CLASSIC), Solution)
