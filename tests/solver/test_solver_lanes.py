"""The solver shared fairly (issue 29): a live round's reveal is answered through a flood
of work nobody waits for and of expensive queries. Each waits on the real solver's work
(some of the flood still running or waiting when the reveal is answered), never on a
clock; closing the solver then ends the flood at once."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Sequence

import pytest

from rules.sets import CLASSIC, load_sets
from solver import FailureReason, Solution, SolveFailure, SolverProcess
from solver.process import Lane

pytestmark = pytest.mark.asyncio(loop_scope="function")

JS_DARTS = load_sets("sets.yaml")["js-darts"]
BELOW_1 = 0.3611
"""A js-darts Score below 1: the JavaScript search ran ~10 s into its memory limit."""
DIGITS = ("3489", "4658", "7468", "9975", "2542", "8851")


async def _ended(flood: Sequence[Awaitable[object]]) -> None:
    """Every call of the flood answered (a result, or a failure of the close), none raised."""
    for outcome in await asyncio.gather(*flood):
        assert isinstance(outcome, Solution | SolveFailure), outcome


async def test_work_ahead_of_need_takes_no_place_of_a_reveal() -> None:
    """Prepares beyond the queue's limit: the reveal asked after them still gets one."""
    async with SolverProcess(queue_limit=3, timeout_s=300) as shared:
        flood = [asyncio.ensure_future(shared.prepare(d, CLASSIC)) for d in DIGITS]
        await asyncio.sleep(0)
        reveal = await shared.best("3489", 501, CLASSIC)
        assert isinstance(reveal, Solution), reveal
    for outcome in await asyncio.gather(*flood):
        assert outcome is None or outcome.reason in {FailureReason.BUSY, FailureReason.CLOSED}


async def test_a_reveal_is_answered_while_expensive_queries_run() -> None:
    """Expensive queries asked first (JavaScript below Score 1, Scores out of ordinary
    reach) are not all answered when the reveal asked after them is."""
    async with SolverProcess(timeout_s=300, expensive_places=len(DIGITS)) as shared:
        flood = [asyncio.ensure_future(shared.best(d, BELOW_1, JS_DARTS)) for d in DIGITS[:4]]
        flood += [asyncio.ensure_future(shared.best(d, 1e308, CLASSIC)) for d in DIGITS[4:]]
        await asyncio.sleep(0)
        reveal = await shared.best("5813", 501, CLASSIC)
        assert isinstance(reveal, Solution), reveal
        assert not all(call.done() for call in flood)
    await _ended(flood)


async def test_a_reveal_is_answered_while_the_backfill_runs() -> None:
    """Best answers of finished games (the lowest lane) have a process of their own: a
    flood of them is not all solved when a live reveal is answered."""
    async with SolverProcess(timeout_s=300) as shared:
        flood = [
            asyncio.ensure_future(shared.best(d, BELOW_1, JS_DARTS, lane=Lane.BACKFILL))
            for d in DIGITS
        ]
        await asyncio.sleep(0)
        reveal = await shared.best("5813", 501, CLASSIC)
        assert isinstance(reveal, Solution), reveal
        assert not all(call.done() for call in flood)
    await _ended(flood)


async def test_an_expensive_call_holds_the_second_process_no_longer_than_its_budget() -> None:
    """Its own deadline is minutes away; the second process stops it at the budget."""
    async with SolverProcess(timeout_s=300, expensive_budget_s=0.2) as shared:
        assert not isinstance(await shared.status(wide=True), SolveFailure)  # started
        stopped = await shared.best(DIGITS[0], BELOW_1, JS_DARTS)
        assert isinstance(stopped, SolveFailure), stopped
        assert stopped.reason is FailureReason.TIMEOUT and "stopped" in stopped.message


async def test_the_second_process_takes_a_bounded_number_of_calls() -> None:
    """Past its places an expensive call is BUSY at once: none waits longer than the
    places' budgets, whoever floods it."""
    async with SolverProcess(timeout_s=300, expensive_places=2) as shared:
        flood = [asyncio.ensure_future(shared.best(d, 1e308, CLASSIC)) for d in DIGITS[:2]]
        await asyncio.sleep(0)
        busy = await shared.best(DIGITS[2], 1e308, CLASSIC)
        assert isinstance(busy, SolveFailure) and busy.reason is FailureReason.BUSY
    await _ended(flood)
