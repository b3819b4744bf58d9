"""The storage benchmark on a tiny data set, so the script cannot rot between runs."""

from __future__ import annotations

import sys

from tests.support.paths import ROOT

if str(ROOT) not in sys.path:  # `bench` is a top-level folder, not an installed package
    sys.path.insert(0, str(ROOT))

from bench._storage_data import Dataset
from bench.bench_storage import report, run_one


async def test_bench_loads_and_measures(db_url: str) -> None:
    data = Dataset(games=300, rounds=3000, guilds=2, players_per_guild=20)
    result = await run_one(db_url, data, samples=5)
    assert data.loaded_rounds == 3000
    timings = result["timings"]
    assert set(timings) >= {"qualification_leaderboard", "duel_leaderboard", "player_stats"}
    assert all(len(samples) >= 5 for samples in timings.values())
    text = report(data, {"db": result}, 5)
    assert "300 games (3,000 rounds" in text and "| qualification_leaderboard |" in text
