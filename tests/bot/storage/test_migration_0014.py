"""Migration 0014 on a database populated at 0013, SQLite and PostgreSQL: every server's
settings are kept and read as "solo games: the bot's own", and `/config games` is
stored, changed and unset without touching the rest."""

from __future__ import annotations

from bot.storage import open_store
from tests.bot.storage.migrating import upgrade_from

CONFIG_0013: list[dict[str, object]] = [
    {"guild_id": 1, "channel_id": 10, "language": "uk", "timezone": "Europe/Kyiv",
     "channel_since": 100.0, "updated_at": 100.0, "web_on": True, "web_key": "k" * 24},
    {"guild_id": 2, "channel_id": None, "language": None, "timezone": "UTC",
     "channel_since": None, "updated_at": 200.0, "web_on": False, "web_key": None},
]  # fmt: skip


async def test_a_database_at_0013_upgrades_with_the_bots_own_solo_games(db_url: str) -> None:
    await upgrade_from(db_url, "0013", {"server_config": CONFIG_0013})
    store = await open_store(db_url)
    try:
        kyiv = await store.servers.settings(1)
        assert (kyiv.channel_id, kyiv.language, kyiv.timezone) == (10, "uk", "Europe/Kyiv")
        assert (kyiv.web_on, kyiv.web_key, kyiv.solo_games) == (True, "k" * 24, None)
        assert (await store.servers.settings(2)).solo_games is None

        threads = await store.servers.update(1, 300.0, solo_games="thread")
        assert threads.solo_games == "thread" and threads.channel_id == 10 and threads.web_on
        private = await store.servers.update(1, 400.0, solo_games="private")
        assert private.solo_games == "private"
        unset = await store.servers.update(1, 500.0, solo_games=None)
        assert unset.solo_games is None and unset.language == "uk"
        fresh = await store.servers.update(3, 600.0, solo_games="thread")  # no row yet
        assert fresh.solo_games == "thread" and fresh.timezone == "UTC"
    finally:
        await store.close()
