"""Migration 0022 on a database populated at 0021, SQLite and PostgreSQL: a server's
settings stay as they were, its name is unknown until the bot sees it, then kept (a
name unchanged writes nothing new, a new one replaces it), and a server never configured
gets a settings row with the defaults and its name."""

from __future__ import annotations

from bot.storage import open_store
from tests.bot.storage.migrating import upgrade_from


async def test_a_database_at_0021_upgrades_and_keeps_server_names(db_url: str) -> None:
    config = {
        "guild_id": 1, "timezone": "Europe/Kyiv", "updated_at": 1.0, "web_on": True,
        "web_key": "k0123456789abcdef", "solo_games": "private", "language": "uk",
    }  # fmt: skip
    await upgrade_from(db_url, "0021", {"server_config": [config]})
    store = await open_store(db_url)
    try:
        before = await store.servers.settings(1)
        assert (before.timezone, before.web_on, before.solo_games, before.language) == (
            "Europe/Kyiv", True, "private", "uk",
        )  # fmt: skip
        assert before.guild_name is None
        await store.servers.name_server(1, "Дартс-клуб", 2.0)
        await store.servers.name_server(1, "Дартс-клуб", 3.0)
        named = await store.servers.settings(1)
        assert named.guild_name == "Дартс-клуб"
        assert named.timezone == "Europe/Kyiv" and named.web_key == before.web_key
        await store.servers.name_server(1, "N" * 150, 4.0)  # longer than Discord allows
        assert (await store.servers.settings(1)).guild_name == "N" * 100
        assert (await store.servers.by_web_key("k0123456789abcdef")) is not None

        await store.servers.name_server(2, "New server", 5.0)
        fresh = await store.servers.settings(2)
        assert (fresh.guild_name, fresh.timezone, fresh.web_on, fresh.channel_id) == (
            "New server", "UTC", False, None,
        )  # fmt: skip
    finally:
        await store.close()
