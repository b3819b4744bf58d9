"""Local workers run as SCHED_BATCH: a batch written into a worker's stdin wakes it without
taking the bot's core (the kernel's wake-up preemption skips batch tasks), and a formula
still gets its answer (bench_pool measures what it buys)."""

from __future__ import annotations

import os
from pathlib import Path

from evaluator.result import Evaluation
from evaluator.sandbox.local import LocalWorker
from tests.evaluator.conftest import open_pool


def _policies(pid: int) -> set[int]:
    """The scheduling policy of `pid` and of each of its descendants (bwrap's php)."""
    found = {os.sched_getscheduler(pid)}
    for task in Path(f"/proc/{pid}/task").iterdir():
        children = (task / "children").read_text().split()
        for child in map(int, children):
            found |= _policies(child)
    return found


async def test_local_workers_are_batch_tasks() -> None:
    pool = await open_pool("local", pool_size=1)
    try:
        worker = pool._idle[0].worker
        assert isinstance(worker, LocalWorker)
        assert await pool.run("34+89") == Evaluation("34+89", 123)
        assert _policies(worker.pid) == {os.SCHED_BATCH}
        assert os.sched_getscheduler(0) == os.SCHED_OTHER  # the bot itself is not
    finally:
        await pool.close()
