"""Migration 0013 on a database populated at 0012, SQLite and PostgreSQL: every row is
kept, no summary is owed, and an owed summary is kept, updated and cleared."""

from __future__ import annotations

import sqlalchemy as sa

from bot.storage import Untold, open_store
from bot.storage._engine import current_revision, head_revision, make_engine, upgrade

CONFIG_0012 = [
    {"guild_id": 1, "channel_id": 10, "language": "uk", "timezone": "Europe/Kyiv",
     "channel_since": 100.0, "updated_at": 100.0, "web_on": True, "web_key": "k" * 24},
]  # fmt: skip


async def test_a_database_at_0012_upgrades_owing_no_summary(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        await upgrade(engine, "0012")
        columns = ", ".join(f'"{c}"' for c in CONFIG_0012[0])
        values = ", ".join(f":{c}" for c in CONFIG_0012[0])
        async with engine.begin() as conn:
            await conn.execute(
                sa.text(f"INSERT INTO server_config ({columns}) VALUES ({values})"), CONFIG_0012
            )
            await conn.execute(
                sa.text("INSERT INTO bot_state (name, value) VALUES ('tree', 'abc')")
            )
            await conn.execute(
                sa.text(
                    "INSERT INTO player_names (guild_id, user_id, name, seen_at) "
                    "VALUES (1, 7, 'Olena', 100.0)"
                )
            )
        await upgrade(engine)
        assert await current_revision(engine) == head_revision()
    finally:
        await engine.dispose()
    store = await open_store(db_url)
    try:
        kyiv = await store.servers.settings(1)
        assert (kyiv.channel_id, kyiv.language, kyiv.web_on) == (10, "uk", True)
        assert await store.get_state("tree") == "abc"
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
