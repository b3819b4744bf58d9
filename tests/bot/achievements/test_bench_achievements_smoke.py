"""The achievements bench runs (a tiny size): its numbers live in docs/BENCHMARKS.md."""

from __future__ import annotations

from bench.bench_achievements import run


async def test_the_bench_measures_both_steps() -> None:
    saves, hooks = await run(players=2, games=2)
    assert len(saves) == len(hooks) == 4
