"""The simcord load run on two games, so the script cannot rot between runs (it did: the
bot became an AutoShardedClient, which simcord will not start without a shard count,
and a finished game's last message gained a Share button, counted as "still playing")."""

from __future__ import annotations

import sys

from tests.support.paths import ROOT

if str(ROOT) not in sys.path:  # `bench` is a top-level folder, not an installed package
    sys.path.insert(0, str(ROOT))

from bench.bench_bot import report, run


async def test_bench_bot_plays_every_round_and_reports() -> None:
    result = await run(games=2, guilds=1, pool_size=1)
    assert result["games"] == 2
    assert result["answers"] == 14  # darts: 7 rounds each, every one answered
    assert result["finished"] == 2
    assert result["p50_ms"] > 0 and result["inner_p50_ms"] > 0
    text = report(result, 1)
    assert "| answers handled | 14 (2 games finished) |" in text
