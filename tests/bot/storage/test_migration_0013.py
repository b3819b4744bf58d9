"""Migration 0013 on a database populated at 0012, SQLite and PostgreSQL: every row is
kept, no summary is owed, and an owed summary is kept, updated and cleared."""

from __future__ import annotations

from bot.storage import Untold, open_store
from tests.bot.storage.migrating import upgrade_from

CONFIG_0012 = [
    {"guild_id": 1, "channel_id": 10, "language": "uk", "timezone": "Europe/Kyiv",
     "channel_since": 100.0, "updated_at": 100.0, "web_on": True, "web_key": "k" * 24},
]  # fmt: skip


async def test_a_database_at_0012_upgrades_owing_no_summary(db_url: str) -> None:
    await upgrade_from(
        db_url,
        "0012",
        {
            "server_config": CONFIG_0012,
            "bot_state": [{"name": "tree", "value": "abc"}],
            "player_names": [{"guild_id": 1, "user_id": 7, "name": "Olena", "seen_at": 100.0}],
        },
    )
    store = await open_store(db_url)
    try:
        kyiv = await store.servers.settings(1)
        assert (kyiv.channel_id, kyiv.language, kyiv.web_on) == (10, "uk", True)
        assert await store.install.get_state("tree") == "abc"
        assert await store.names.of(1, [7]) == {7: "Olena"}
        assert await store.untold.all() == []
        await store.untold.keep(Untold("g1", 1, 1, 500.0))
        await store.untold.keep(Untold("g2", 2, 1, 400.0))
        await store.untold.keep(Untold("g1", 1, 2, 800.0))  # tried again: updated
        assert await store.untold.all() == [Untold("g2", 2, 1, 400.0), Untold("g1", 1, 2, 800.0)]
        await store.untold.told("g2")
        assert await store.untold.all() == [Untold("g1", 1, 2, 800.0)]
    finally:
        await store.close()
