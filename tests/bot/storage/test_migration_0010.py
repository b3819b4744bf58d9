"""Migration 0010 on a database populated at 0009, SQLite and PostgreSQL: the servers'
settings and the daily posts' claims are kept, and read as "nothing cleared"."""

from __future__ import annotations

import sqlalchemy as sa

from bot.storage import ChannelGone, open_store
from bot.storage._engine import current_revision, make_engine, upgrade

CONFIG_0009 = [
    {"guild_id": 1, "channel_id": 10, "language": "uk", "timezone": "Europe/Kyiv",
     "channel_since": 100.0, "updated_at": 100.0},
    {"guild_id": 2, "channel_id": None, "language": None, "timezone": "UTC",
     "channel_since": None, "updated_at": 200.0},
]  # fmt: skip
POSTS_0009 = [
    {"guild_id": 1, "set_name": "darts", "period": "2026-01-01", "claimed_by": "a",
     "claimed_at": 300.0, "done_at": 301.0, "message_id": 77},
    {"guild_id": 1, "set_name": "darts", "period": "2026-01-02", "claimed_by": "b",
     "claimed_at": 400.0, "done_at": None, "message_id": None},
]  # fmt: skip


async def _insert(engine, table: str, rows: list[dict[str, object]]) -> None:
    columns = list(rows[0])
    names = ", ".join(f'"{c}"' for c in columns)
    values = ", ".join(f":{c}" for c in columns)
    async with engine.begin() as conn:
        await conn.execute(sa.text(f"INSERT INTO {table} ({names}) VALUES ({values})"), rows)


async def test_a_database_at_0009_upgrades_keeping_its_settings_and_claims(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        await upgrade(engine, "0009")
        await _insert(engine, "server_config", CONFIG_0009)  # type: ignore[arg-type]
        await _insert(engine, "daily_posts", POSTS_0009)
        await upgrade(engine, "0010")
        assert await current_revision(engine) == "0010"
    finally:
        await engine.dispose()
    store = await open_store(db_url)
    try:
        kyiv = await store.servers.settings(1)
        assert (kyiv.channel_id, kyiv.language, kyiv.timezone, kyiv.channel_since) == (
            10,
            "uk",
            "Europe/Kyiv",
            100.0,
        )
        assert (kyiv.cleared_channel_id, kyiv.cleared_reason, kyiv.cleared_at) == (None,) * 3
        assert [s.guild_id for s in await store.servers.with_channel()] == [1]
        assert await store.servers.post_done((1, "darts", "2026-01-01"))
        claim = await store.servers.claim_post((1, "darts", "2026-01-02"), "c", 1000.0, 300.0)
        assert claim is not None and claim.resumed_since == 400.0
        assert await store.servers.clear_channel(1, 10, ChannelGone.NOT_FOUND, 2000.0)
        assert (await store.servers.settings(1)).cleared_reason is ChannelGone.NOT_FOUND
    finally:
        await store.close()
