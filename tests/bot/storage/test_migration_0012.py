"""Migration 0012 on a database populated at 0011, SQLite and PostgreSQL: the servers'
settings are kept, `player_names` starts empty; names are kept per server, a changed
name replaces the old one, a long one is cut, and a server the bot left keeps none."""

from __future__ import annotations

from bot.storage import open_store
from tests.bot.storage.migrating import upgrade_from

CONFIG_0011 = [
    {"guild_id": 1, "channel_id": 10, "language": "uk", "timezone": "Europe/Kyiv",
     "channel_since": 100.0, "updated_at": 100.0, "web_key": "k" * 22, "web_on": True},
]  # fmt: skip


async def test_a_database_at_0011_upgrades_and_keeps_names_per_server(db_url: str) -> None:
    await upgrade_from(db_url, "0011", {"server_config": CONFIG_0011})
    store = await open_store(db_url)
    try:
        kept = await store.servers.by_web_key("k" * 22)
        assert kept is not None and kept.guild_id == 1 and kept.timezone == "Europe/Kyiv"
        assert await store.names.of(1, [101]) == {}
        big = 2**63 - 1  # a snowflake at BIGINT's end
        await store.names.remember(1, {101: "Olena", big: "Бо́гдан"}, 10.0)
        await store.names.remember(2, {101: "olena on another server"}, 10.0)
        await store.names.remember(1, {101: "Olena K.", 103: "x" * 300}, 20.0)
        assert await store.names.of(1, [101, big, 103, 104]) == {
            101: "Olena K.", big: "Бо́гдан", 103: "x" * 100,
        }  # fmt: skip
        assert await store.names.of(1, []) == {}
        await store.names.forget_server(1)
        assert await store.names.of(1, [101, big]) == {}
        assert await store.names.of(2, [101]) == {101: "olena on another server"}
    finally:
        await store.close()
