"""SolverProcess: the solve runs in another process, never on the event loop's thread; slow
or bad calls come back as a SolveFailure, and memory stays bounded."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

import solver.solve
from rules.sets import CLASSIC
from solver import FailureReason, Solution, SolveFailure, SolverProcess
from solver.process import CALL_PEAK_MIB

pytestmark = pytest.mark.asyncio(loop_scope="module")
MEMORY_MB = 256


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def process() -> AsyncIterator[SolverProcess]:
    async with SolverProcess(cache_size=4, memory_mb=200, timeout_s=120) as opened:
        yield opened


def _refuse(*args: object, **kwargs: object) -> object:
    raise AssertionError("the solver ran in the event loop's process")


async def test_no_solver_code_runs_in_the_event_loops_process(
    process: SolverProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(solver.solve.Solver, "solve", _refuse)
    monkeypatch.setattr(solver.solve.Solver, "prepare", _refuse)
    status = await process.status()
    assert not isinstance(status, SolveFailure)
    pid, _, _ = status
    assert pid != os.getpid()
    assert await process.prepare("3489", CLASSIC) is None
    solution = await process.best("3489", 501, CLASSIC, top=2)
    assert isinstance(solution, Solution)
    assert solution.best.score == 0 and len(solution.candidates) == 2


async def test_a_solve_not_ready_in_time_is_a_failure_not_a_wait(process: SolverProcess) -> None:
    outcome = await process.best("9876", 501, CLASSIC, timeout_s=0)
    assert isinstance(outcome, SolveFailure) and outcome.reason is FailureReason.TIMEOUT
    # a call already past its deadline never starts; the process serves the next one
    later = await process.best("9876", 300, CLASSIC)
    assert isinstance(later, Solution)


async def test_bad_input_is_a_failure_with_the_reason(process: SolverProcess) -> None:
    outcome = await process.best("0999", 501, CLASSIC)
    assert isinstance(outcome, SolveFailure) and outcome.reason is FailureReason.INVALID
    assert "four digits" in outcome.message


async def test_a_full_queue_answers_busy_at_once() -> None:
    async with SolverProcess(queue_limit=1, timeout_s=120) as small:
        first = asyncio.ensure_future(small.best("1357", 501, CLASSIC))
        await asyncio.sleep(0)
        second = await small.best("2468", 501, CLASSIC)
        assert isinstance(second, SolveFailure) and second.reason is FailureReason.BUSY
        assert isinstance(await first, Solution)
    closed = await small.best("2468", 501, CLASSIC)
    assert isinstance(closed, SolveFailure) and closed.reason is FailureReason.CLOSED


async def test_memory_stays_bounded_over_many_digits(process: SolverProcess) -> None:
    for digits in ("2957", "9999", "4711", "5555", "6789", "3141", "2718"):
        assert isinstance(await process.best(digits, 501, CLASSIC), Solution)
    status = await process.status()
    assert not isinstance(status, SolveFailure)
    _, resident, _ = status
    assert resident < MEMORY_MB << 20


async def test_preparing_the_heaviest_digits_never_passes_the_memory_budget() -> None:
    """As production runs it (default cache and limit): more prepared Digits than the cache
    holds, the ones with the largest top levels (~600,000 values each); the peak resident
    size, not the size after each call, stays under the budget."""
    async with SolverProcess(timeout_s=120) as production:
        for digits in ("9779", "4658", "7468", "9975", "2542", "8851", "9032", "5237"):
            assert await production.prepare(digits, CLASSIC) is None
            assert isinstance(await production.best(digits, 437, CLASSIC), Solution)
        status = await production.status()
    assert not isinstance(status, SolveFailure)
    _, resident, peak = status
    assert peak < MEMORY_MB << 20, peak >> 20
    assert resident < peak


async def test_a_tight_budget_evicts_the_oldest_digits_before_a_call() -> None:
    """Room for about one prepared Digits: each prepare gives up the one before it, and
    the peak stays under the budget although the cache could hold six."""
    budget_mb = 176
    async with SolverProcess(memory_mb=budget_mb, timeout_s=120) as tight:
        for digits in ("9779", "4658", "7468"):
            assert await tight.prepare(digits, CLASSIC) is None
        assert await tight.is_prepared("7468", CLASSIC) is True
        assert await tight.is_prepared("9779", CLASSIC) is False
        status = await tight.status()
    assert not isinstance(status, SolveFailure)
    assert status[2] < budget_mb << 20, status[2] >> 20


async def test_a_calls_own_digits_are_never_evicted_to_make_room() -> None:
    """A budget below the idle process itself: every call evicts all it can, which must
    not include the Digits it is asked about (it was the least recently used, and went)."""
    async with SolverProcess(memory_mb=CALL_PEAK_MIB + 24, timeout_s=120) as starved:
        assert await starved.prepare("7468", CLASSIC) is None
        assert isinstance(await starved.best("7468", 300, CLASSIC), Solution)
        assert await starved.is_prepared("7468", CLASSIC) is True
        assert await starved.prepare("4658", CLASSIC) is None
        assert await starved.is_prepared("7468", CLASSIC) is False


async def test_a_days_digits_stay_prepared_through_its_replays() -> None:
    """The daily post prepares a 7-round day, then players replay it round by round
    (`/game`): with the production defaults every query finds its Digits prepared (with
    six places and plain LRU, each cold round evicted the next round's)."""
    day = ("3489", "1008", "5813", "2764", "6120", "7391", "4455")
    async with SolverProcess(timeout_s=120) as production:
        for digits in day:
            assert await production.prepare(digits, CLASSIC) is None
            assert not isinstance(await production.closest(digits, CLASSIC), SolveFailure)
        found = []
        for viewer in range(3):
            for digits in day:
                found.append(await production.is_prepared(digits, CLASSIC))
                assert isinstance(await production.best(digits, 300 - viewer, CLASSIC), Solution)
    assert all(found), found
