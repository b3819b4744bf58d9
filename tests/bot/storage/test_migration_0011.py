"""Migration 0011 on a database populated at 0010, SQLite and PostgreSQL: the servers'
settings are kept and read as "web off, no page key"; turning the web on makes a key
that stays when it is turned off and on again, and only a server with its web on is
found by its key."""

from __future__ import annotations

from bot.storage import ChannelGone, open_store
from tests.bot.storage.migrating import upgrade_from

CONFIG_0010: list[dict[str, object]] = [
    {"guild_id": 1, "channel_id": 10, "language": "uk", "timezone": "Europe/Kyiv",
     "channel_since": 100.0, "updated_at": 100.0, "cleared_channel_id": None,
     "cleared_reason": None, "cleared_at": None},
    {"guild_id": 2, "channel_id": None, "language": None, "timezone": "UTC",
     "channel_since": None, "updated_at": 200.0, "cleared_channel_id": 20,
     "cleared_reason": "not_found", "cleared_at": 150.0},
]  # fmt: skip


async def test_a_database_at_0010_upgrades_with_the_web_off(db_url: str) -> None:
    await upgrade_from(db_url, "0010", {"server_config": CONFIG_0010})
    store = await open_store(db_url)
    try:
        kyiv = await store.servers.settings(1)
        assert (kyiv.channel_id, kyiv.language, kyiv.timezone) == (10, "uk", "Europe/Kyiv")
        assert (kyiv.web_on, kyiv.web_key) == (False, None)
        other = await store.servers.settings(2)
        assert (other.cleared_channel_id, other.cleared_reason) == (20, ChannelGone.NOT_FOUND)
        assert not other.web_on

        on = await store.servers.set_web(1, True, 300.0)
        assert on.web_on and on.web_key is not None and len(on.web_key) >= 20
        assert on.channel_id == 10  # the rest of /config is untouched
        found = await store.servers.by_web_key(on.web_key)
        assert found is not None and found.guild_id == 1
        off = await store.servers.set_web(1, False, 400.0)
        assert off.web_key == on.web_key and not off.web_on
        assert await store.servers.by_web_key(on.web_key) is None
        again = await store.servers.set_web(1, True, 500.0)
        assert again.web_key == on.web_key
        fresh = await store.servers.set_web(3, True, 600.0)  # a server with no row yet
        assert fresh.web_key not in (None, on.web_key)
        assert await store.servers.by_web_key("not-a-key") is None
    finally:
        await store.close()
