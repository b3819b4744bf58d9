"""The Cups' look benchmark on two Cups, so the script cannot rot between runs (its
numbers are in docs/BENCHMARKS.md, never asserted here)."""

from __future__ import annotations

import sys

import pytest

from tests.support.paths import ROOT

if str(ROOT) not in sys.path:  # `bench` is a top-level folder, not an installed package
    sys.path.insert(0, str(ROOT))

from bench.bench_cup import load, measure, report
from bot.storage import open_store

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_bench_cup_looks_at_every_cup_and_reports(tmp_path) -> None:
    store = await open_store(f"sqlite+aiosqlite:///{tmp_path}/cup.sqlite3")
    try:
        await load(store, 2)
        times = await measure(store, 1)
    finally:
        await store.close()
    text = report(2, 1, times)
    assert "| run_due (a look) |" in text and "2 drawn Cups of 64 players" in text
