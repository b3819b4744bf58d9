"""The reveals' solver runs at the bot's own CPU priority, ahead of everything that may
wait: the backfill's process (nice 19) and the web pages' child (SCHED_IDLE, nice +10,
tests/bot/web/test_pages_child.py). An unprivileged process cannot lower a niceness
below its parent's, so "ahead" is the others stepping aside, never the solver raised."""

from __future__ import annotations

import os
from pathlib import Path

from bot.pages_child import NICENESS
from rules.sets import CLASSIC
from solver import Solution, SolveFailure, SolverProcess
from solver.process import BACKFILL_NICE, Lane


def _nice(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])


async def test_the_reveals_solver_runs_ahead_of_the_backfill_and_the_pages() -> None:
    async with SolverProcess(timeout_s=120) as solver:
        status = await solver.status()
        assert not isinstance(status, SolveFailure)
        main = status[0]
        assert os.sched_getscheduler(main) == os.SCHED_OTHER
        assert _nice(main) == os.nice(0)  # the bot's own: never lowered
        found = await solver.best("3489", 501, CLASSIC, lane=Lane.BACKFILL)
        assert isinstance(found, Solution)
        back = solver._back.worker.pid
        assert back is not None and back != main
        assert _nice(back) == min(os.nice(0) + BACKFILL_NICE, 19)
    assert NICENESS > 0  # and the pages' child steps aside further (SCHED_IDLE)
