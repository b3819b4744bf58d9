"""Migration 0025 (`rooms.owed`) on a database populated at 0024, SQLite and PostgreSQL:
a room stored before owes nothing and loads as it was; an owed reveal and final table
are kept, listed by `owing` in any phase, and struck off."""

from __future__ import annotations

import json
from dataclasses import replace

import rules
from bot.storage import TABLE, OwedShow, open_store
from rules.game import StartRound
from rules.room import Join, Phase, apply, new_room
from tests.bot.storage.migrating import upgrade_from

T0 = 1_000_000.0
STATE = apply(
    apply(new_room("room1", rules.CLASSIC, "10", 2, T0), Join("11")), StartRound("1234", T0)
)
ROOMS_0024: list[dict[str, object]] = [
    {"id": "room1", "guild_id": 1, "channel_id": 5, "thread_id": 7, "lobby_message_id": 6,
     "round_message_id": 8, "locale": "uk", "phase": Phase.PLAYING.value, "version": 3,
     "state": json.dumps(STATE.to_dict()), "created_at": T0, "updated_at": T0},
]  # fmt: skip


async def test_a_database_at_0024_upgrades_and_keeps_what_rooms_owe(db_url: str) -> None:
    await upgrade_from(db_url, "0024", {"rooms": ROOMS_0024})
    store = await open_store(db_url)
    try:
        old = await store.rooms.load("room1")
        assert old is not None and old.owed == () and old.state == STATE
        assert (old.version, old.round_message_id, old.locale) == (3, 8, "uk")
        assert await store.rooms.owing() == []

        owed = (OwedShow(1, 8), OwedShow(TABLE))
        owing = await store.rooms.save(replace(old, owed=owed), T0 + 1)
        assert [r.owed for r in await store.rooms.owing()] == [owed]
        over = replace(owing, state=replace(owing.state, phase=Phase.OVER))
        over = await store.rooms.save(over, T0 + 2)
        assert await store.rooms.open_rooms() == []
        assert [r.state.id for r in await store.rooms.owing()] == ["room1"]  # ended, still owed
        await store.rooms.save(replace(over, owed=()), T0 + 3)
        assert await store.rooms.owing() == []
    finally:
        await store.close()
