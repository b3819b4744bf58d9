"""A win in a room of ten or more on simcord: its final table announces the achievement
for the first place, once; a room of two earns nothing."""

from __future__ import annotations

import pytest

from bot.storage import Source
from rules.achievements import Achievement
from tests.bot.rooms.test_rooms_sim import answer, live_round, open_full_room, players
from tests.support.sim import button_id, message_text

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_the_last_one_in_a_room_of_ten_wins_it(world) -> None:
    members = players(world, 10)
    thread = await open_full_room(world, members)
    first = live_round(thread)
    await answer(members[0], first, "12+34")
    for member in members[1:]:
        await member.click(first, custom_id=button_id(first, "fd:room:quit:"))
    table = message_text(thread.last_message)
    assert "one player is left in" in table
    assert f"🏅 <@{members[0].id}> earned **Room of ten**" in table
    held = await world.store.achievements.held(world.guild.id, members[0].id)
    assert [(e.achievement, e.source) for e in held] == [(Achievement.ROOM_WIN_10, Source.ROOM)]
    assert await world.store.achievements.held(world.guild.id, members[1].id) == []


async def test_a_room_of_two_earns_nothing(world) -> None:
    thread = await open_full_room(world, [world.alice, world.bob])
    first = live_round(thread)
    await answer(world.alice, first, "12+34")
    await world.bob.click(first, custom_id=button_id(first, "fd:room:quit:"))
    assert "🏅" not in message_text(thread.last_message)
    assert await world.store.achievements.held(world.guild.id, world.alice.id) == []
