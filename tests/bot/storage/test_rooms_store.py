"""`Store.rooms.find`: a room of this server by its id or a unique prefix (what `/game`
is given), on SQLite and PostgreSQL; an ambiguous prefix or another server's room is None."""

from __future__ import annotations

import rules
from bot.storage import RoomRecord, Store
from rules.room import new_room

T0 = 1_700_000_000.0


async def test_a_room_is_found_by_id_or_unique_prefix(store: Store) -> None:
    for room_id, guild in (("abc10000", 1), ("abc20000", 1), ("abd30000", 1), ("fff", 2)):
        state = new_room(room_id, rules.CLASSIC, "10", 2, T0)
        await store.rooms.save(RoomRecord(state, guild, 5, "en", T0), T0)
    found = await store.rooms.find(1, "abd")
    assert found is not None and found.state.id == "abd30000"
    exact = await store.rooms.find(1, "abc10000")
    assert exact is not None and exact.state.id == "abc10000"
    assert await store.rooms.find(1, "abc") is None  # two rooms start so
    assert await store.rooms.find(1, "fff") is None  # another server's
    assert await store.rooms.find(1, "  ") is None
    assert await store.rooms.find(1, "a%") is None  # a LIKE wildcard is text here
