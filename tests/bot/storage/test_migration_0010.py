"""Migration 0010 on a database populated at 0009, SQLite and PostgreSQL: the servers'
settings and the daily posts' claims are kept, and read as "nothing cleared"."""

from __future__ import annotations

from bot.storage import ChannelGone, open_store
from tests.bot.storage.migrating import upgrade_from

CONFIG_0009: list[dict[str, object]] = [
    {"guild_id": 1, "channel_id": 10, "language": "uk", "timezone": "Europe/Kyiv",
     "channel_since": 100.0, "updated_at": 100.0},
    {"guild_id": 2, "channel_id": None, "language": None, "timezone": "UTC",
     "channel_since": None, "updated_at": 200.0},
]  # fmt: skip
POSTS_0009: list[dict[str, object]] = [
    {"guild_id": 1, "set_name": "darts", "period": "2026-01-01", "claimed_by": "a",
     "claimed_at": 300.0, "done_at": 301.0, "message_id": 77},
    {"guild_id": 1, "set_name": "darts", "period": "2026-01-02", "claimed_by": "b",
     "claimed_at": 400.0, "done_at": None, "message_id": None},
]  # fmt: skip


async def test_a_database_at_0009_upgrades_keeping_its_settings_and_claims(db_url: str) -> None:
    await upgrade_from(
        db_url, "0009", {"server_config": CONFIG_0009, "daily_posts": POSTS_0009}, to="0010"
    )
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
