"""The midnight benchmark on a handful of servers: it runs, and it ends cleanly."""

from __future__ import annotations

import argparse
import asyncio
import gc
import sys
from pathlib import Path
from typing import Any

from tests.support.paths import ROOT

if str(ROOT) not in sys.path:  # `bench` is a top-level folder, not an installed package
    sys.path.insert(0, str(ROOT))

from bench.bench_midnight import run


async def test_bench_midnight_leaves_no_reveal_behind(tmp_path: Path) -> None:
    """Reveals asked often enough to be in flight at the end: none of them may outlive the
    solver (it failed with "cannot schedule new futures after shutdown")."""
    loop = asyncio.get_running_loop()
    errors: list[dict[str, Any]] = []
    loop.set_exception_handler(lambda _, context: errors.append(context))
    args = argparse.Namespace(
        servers=6, played=2, players=1, reveals=40.0, games_rate=5.0, quiet=1.0, sample=1,
        baseline=0.0,
    )  # fmt: skip
    lines = await run(args, f"sqlite+aiosqlite:///{tmp_path}/m.db", f"{tmp_path}/old.db")
    gc.collect()  # a task that failed unseen reports it when collected
    assert any("| posts made | 6 |" in line for line in lines)
    assert errors == []
