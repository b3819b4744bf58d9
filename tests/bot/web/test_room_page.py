"""A room's replay on the web: its places, and each ended round's formulas; a round
still being played shows none; a room of another server is not found."""

from __future__ import annotations

import rules
from bot.storage import RoomRecord
from rules.game import StartRound, Submit
from rules.room import Join, apply, new_room
from tests.bot.web.pages_site import ALICE, BOB, CAROL, GUILD, OTHER_GUILD, Site

T0 = 1_767_229_200.0


async def _room(site: Site, room_id: str, guild: int = GUILD) -> RoomRecord:
    """Alice, Bob and Carol: round 1 played (Carol misses it), round 2 open."""
    state = new_room(room_id, rules.CLASSIC, str(ALICE), 3, T0)
    state = apply(apply(state, Join(str(BOB))), Join(str(CAROL)))  # full: it starts
    state = apply(state, StartRound("3489", T0))
    state = apply(state, Submit(str(ALICE), "34+89", 123, T0 + 5))
    state = apply(state, Submit(str(BOB), "3*4+89", 101, T0 + 6))
    state = apply(state, rules.Expire(T0 + 200))
    state = apply(state, StartRound("7001", T0 + 210))
    state = apply(state, Submit(str(ALICE), "700+1", 701, T0 + 215))
    record = RoomRecord(state, guild_id=guild, channel_id=5, locale="en", created_at=T0)
    return await site.store.rooms.save(record, T0 + 215)


async def test_a_rooms_replay_shows_its_ended_rounds_only(site: Site) -> None:
    await _room(site, "room0001")
    response = await site.client.get(f"{site.base}r/room0001?lang=en")
    assert response.status == 200
    main = (await response.text()).split("<main>", 1)[1]
    assert "Room · darts · room0001" in main
    assert "<code>34+89</code>" in main and "<code>3*4+89</code>" in main
    assert main.count("no answer") + main.count("auto-move") >= 1  # Carol missed round 1
    assert "<code>3489</code>" in main and "<code>7001</code>" in main
    assert "700+1" not in main  # round 2 is still being played: its formulas are secret
    assert "the round is still being played" in main

    uk = await (await site.client.get(f"{site.base}r/room0001?lang=uk")).text()
    assert "Кімната · darts · room0001" in uk and "Місця" in uk


async def test_a_room_of_another_server_or_none_is_not_found(site: Site) -> None:
    await _room(site, "room0002", guild=OTHER_GUILD)
    assert (await site.client.get(f"{site.base}r/room0002")).status == 404
    assert (await site.client.get(f"{site.base}r/nosuchroom")).status == 404
