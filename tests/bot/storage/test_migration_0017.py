"""Migration 0017 on a database populated at 0016, SQLite and PostgreSQL: what was there
stays, and rooms are stored, resumed by phase and refused when stale."""

from __future__ import annotations

from dataclasses import replace

import pytest

import rules
from bot.storage import RoomRecord, StaleGame, open_store
from rules.game import StartRound, Submit
from rules.room import Begin, Join, Phase, apply, new_room
from tests.bot.storage.migrating import upgrade_from

T0 = 1_700_000_000.0


async def test_a_database_at_0016_upgrades_and_keeps_rooms(db_url: str) -> None:
    config = {"guild_id": 1, "timezone": "UTC", "updated_at": 1.0, "web_on": False}
    await upgrade_from(db_url, "0016", {"server_config": [{**config, "solo_games": "thread"}]})
    store = await open_store(db_url)
    try:
        assert (await store.servers.settings(1)).solo_games == "thread"
        lobby = new_room("room1", rules.CLASSIC, "10", 3, T0)
        record = RoomRecord(lobby, guild_id=1, channel_id=5, locale="uk", created_at=T0)
        saved = await store.rooms.save(record, T0)
        assert saved.version == 1
        with pytest.raises(StaleGame):
            await store.rooms.save(record, T0)  # a second room of that id

        state = apply(apply(lobby, Join("11")), Begin("10"))
        state = apply(apply(state, StartRound("3489", T0)), Submit("10", "34+89", 123, T0 + 1))
        playing = await store.rooms.save(
            RoomRecord(state, 1, 5, "uk", T0, thread_id=7, round_message_id=8, version=1), T0
        )
        with pytest.raises(StaleGame):
            await store.rooms.save(saved, T0)  # version 1 again: another writer moved on
        assert [r.state for r in await store.rooms.open_rooms()] == [state]
        loaded = await store.rooms.load("room1")
        assert loaded == playing and loaded.state.scores[0] == 501
        assert loaded.state.rounds[0].answers[0] is not None

        other = new_room("room2", rules.CLASSIC, "12", 2, T0 + 1)
        await store.rooms.save(RoomRecord(other, 2, 6, "en", T0 + 1), T0 + 1)
        assert [r.state.id for r in await store.rooms.open_rooms()] == ["room1", "room2"]
        over = apply(other, rules.Expire(T0 + 400))
        assert over.phase is Phase.OVER
        await store.rooms.save(RoomRecord(over, 2, 6, "en", T0 + 1, version=1), T0 + 400)
        assert [r.state.id for r in await store.rooms.open_rooms()] == ["room1"]
        assert await store.rooms.load("missing") is None

        # room1 ends with places: each player's place is kept for /history, once
        state = apply(state, Submit("11", "3+4+89", 96, T0 + 2))
        state = apply(state, rules.Resign("11"))
        assert state.phase is Phase.OVER and state.standings
        ended = await store.rooms.save(replace(playing, state=state), T0 + 3)
        assert [r.state.id for r in await store.rooms.history(1, "11", limit=5)] == ["room1"]
        assert await store.rooms.history(1, "12", limit=5) == []  # room2 was cancelled
        assert await store.rooms.history(2, "11", limit=5) == []
        await store.rooms.save(ended, T0 + 4)  # saved again: no second place
        assert len(await store.rooms.history(1, "10", limit=5)) == 1
    finally:
        await store.close()
