"""Migration 0023 (cup4) on a database populated at 0022, SQLite and PostgreSQL: a Cup
set up before keeps the hour's lead time it was promised, and a new one keeps its own."""

from __future__ import annotations

from dataclasses import replace

from bot.storage import open_store
from tests.bot.storage.migrating import upgrade_from

CUP = {
    "id": 7, "guild_id": 1, "channel_id": 5, "name": "Cup", "set_name": "darts",
    "starts_at": 1000.0, "zone": "UTC", "repeat": "weekly", "size": 8, "legs": 3,
    "seeding": "elo", "locale": "uk", "phase": "scheduled", "version": 1,
    "created_by": "9", "created_at": 1.0, "updated_at": 1.0,
}  # fmt: skip


async def test_a_database_at_0022_upgrades_and_keeps_its_cups(db_url: str) -> None:
    await upgrade_from(db_url, "0022", {"cups": [CUP]})
    store = await open_store(db_url)
    try:
        old = await store.cups.load(7)
        assert old is not None and (old.name, old.size, old.locale) == ("Cup", 8, "uk")
        assert old.lead_s == 3600.0
        changed = await store.cups.save(replace(old, lead_s=600.0), 2.0)
        assert (await store.cups.load(7)) == changed and changed.lead_s == 600.0
    finally:
        await store.close()
