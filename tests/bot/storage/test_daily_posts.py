"""Daily-post claims: one winner per (server, Set, period), a crashed claim taken over
after its lease; two bot processes racing on one PostgreSQL post each day once."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path

import pytest

from bot.storage import Store, open_store

HERE = Path(__file__).parent
KEY = (7, "darts", "2026-01-01")


async def test_one_claim_wins_a_crashed_one_is_taken_over_after_its_lease(store: Store) -> None:
    assert await store.servers.claim_post(KEY, "a", 1000.0, lease=300.0)
    assert not await store.servers.claim_post(KEY, "b", 1100.0, lease=300.0)
    assert await store.servers.claim_post(KEY, "b", 1301.0, lease=300.0)  # "a" died mid-post
    await store.servers.finish_post(KEY, "a", 1, 1302.0)  # the dead one's late mark: ignored
    assert not await store.servers.post_done(KEY)
    await store.servers.finish_post(KEY, "b", 2, 1303.0)
    assert await store.servers.post_done(KEY)
    assert not await store.servers.claim_post(KEY, "c", 9999.0, lease=300.0)


@pytest.mark.postgres
async def test_two_processes_on_one_postgres_post_each_day_once(postgres_url: str) -> None:
    """PostgreSQL only: one SQLite file serves one bot process (SHARD_COUNT>1 is refused)."""
    async with await open_store(postgres_url) as store:
        await _race(store, postgres_url)


async def _race(store: Store, db_url: str) -> None:
    guilds = range(1, 31)
    for guild in guilds:
        await store.servers.update(guild, 0.0, channel_id=guild)
    start_at = time.time() + 4.0
    runs = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            str(HERE / "daily_race.py"),
            db_url,
            owner,
            str(start_at),
            stdout=asyncio.subprocess.PIPE,
            cwd=HERE.parents[2],
        )
        for owner in ("one", "two")
    ]
    outputs = [await run.communicate() for run in runs]
    assert [run.returncode for run in runs] == [0, 0]
    made = [json.loads(out) for out, _ in outputs]
    everything = [tuple(post) for posts in made for post in posts]
    assert sorted(everything) == [(g, "darts", "2026-01-01") for g in guilds]  # once each
    for guild in guilds:
        assert await store.servers.post_done((guild, "darts", "2026-01-01"))


async def test_the_same_channel_set_again_keeps_when_it_was_set(store: Store) -> None:
    """Re-running /config channel after midnight must not skip the day that just ended."""
    await store.servers.update(KEY[0], 1000.0, channel_id=10)
    await store.servers.update(KEY[0], 2000.0, channel_id=10, language="uk")
    assert (await store.servers.settings(KEY[0])).channel_since == 1000.0
    await store.servers.update(KEY[0], 3000.0, channel_id=11)
    assert (await store.servers.settings(KEY[0])).channel_since == 3000.0
    await store.servers.update(KEY[0], 4000.0, channel_id=None)
    assert (await store.servers.settings(KEY[0])).channel_since is None
