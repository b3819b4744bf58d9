"""The solver shared fairly (issue 29): a live round's reveal is answered through a flood
of work nobody waits for and of expensive queries. Each waits on the real solver's work
(the flood's calls still running when the reveal is answered), never on a clock."""

from __future__ import annotations

import asyncio

import pytest

from rules.sets import CLASSIC, load_sets
from solver import Solution, SolverProcess
from solver.process import Lane

pytestmark = pytest.mark.asyncio(loop_scope="function")

JS_DARTS = load_sets("sets.yaml")["js-darts"]
EXPENSIVE = 0.3611
"""A js-darts Score below 1: the JavaScript search runs ~10 s into its memory limit."""


async def test_work_ahead_of_need_takes_no_place_of_a_reveal() -> None:
    """Prepares beyond the queue's limit: the reveal asked after them still gets one."""
    async with SolverProcess(queue_limit=3, timeout_s=300) as shared:
        flood = [
            asyncio.ensure_future(shared.prepare(digits, CLASSIC))
            for digits in ("9779", "4658", "7468", "9975", "2542", "8851")
        ]
        await asyncio.sleep(0)
        reveal = await shared.best("3489", 501, CLASSIC)
        assert isinstance(reveal, Solution), reveal
        await asyncio.gather(*flood)


async def test_a_reveal_is_answered_while_expensive_queries_run() -> None:
    """Expensive queries asked first (JavaScript below Score 1, a Score out of ordinary
    reach) are still running when the reveal asked after them is answered."""
    async with SolverProcess(timeout_s=300) as shared:
        expensive = [
            asyncio.ensure_future(shared.best("3489", EXPENSIVE, JS_DARTS)),
            asyncio.ensure_future(shared.best("3489", 1e308, CLASSIC)),
        ]
        await asyncio.sleep(0)
        reveal = await shared.best("5813", 501, CLASSIC)
        assert isinstance(reveal, Solution), reveal
        assert not expensive[0].done()
        await asyncio.gather(*expensive)


async def test_a_reveal_is_answered_while_the_backfill_runs() -> None:
    """Best answers of finished games (the lowest lane) have a process of their own: a
    flood of them is still being solved when a live reveal is answered."""
    async with SolverProcess(timeout_s=300) as shared:
        flood = [
            asyncio.ensure_future(shared.best(digits, EXPENSIVE, JS_DARTS, lane=Lane.BACKFILL))
            for digits in ("3489", "4658")
        ]
        await asyncio.sleep(0)
        reveal = await shared.best("5813", 501, CLASSIC)
        assert isinstance(reveal, Solution), reveal
        assert not flood[0].done()
        await asyncio.gather(*flood)
