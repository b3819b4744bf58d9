"""A round's reveal or a room's final table that Discord refuses is owed, not lost: it is
stored with the room and tried again, through a restart, until it lands, once (the chaos
run lost reveals this way: the flow logged the failed edit and moved on)."""

from __future__ import annotations

import pytest

from bot.storage import TABLE
from rules.room_state import Phase
from tests.bot.rooms.test_rooms_sim import answer, live_round, open_full_room, seen
from tests.support.sim import button_id, message_text

pytestmark = pytest.mark.asyncio(loop_scope="session")

EDIT = ("PATCH", "/channels/*/messages/*")
POST = ("POST", "/channels/*/messages")


def tables(thread) -> list[str]:
    return [m.content for m in thread.history() if "The room is over" in m.content]


async def test_a_refused_reveal_is_owed_and_lands_once_later(world) -> None:
    thread = await open_full_room(world, [world.alice, world.bob])
    first = live_round(thread)
    world.env.inject_error(*EDIT, status=500, times=None)
    try:
        await answer(world.alice, first, "12+34")
        await answer(world.bob, first, "1+2+34")  # the round ends: its reveal is refused
    finally:
        world.env.backend.faults.clear()
    assert "revealed" not in (seen(thread, first.id).embeds[0].title or "")
    second = live_round(thread)
    assert "round 2 of 4" in second.embeds[0].title  # the room goes on meanwhile
    record = (await world.store.rooms.open_rooms())[0]
    assert [(o.round, o.message_id) for o in record.owed] == [(1, first.id)]

    await world.env.advance_time(16)  # tried again
    revealed = seen(thread, first.id)
    assert "round 1 of 4" in revealed.embeds[0].title and "revealed" in revealed.embeds[0].title
    assert "12+34" in message_text(revealed) and not revealed.components
    assert live_round(thread).id == second.id and "revealed" not in second.embeds[0].title
    record = (await world.store.rooms.open_rooms())[0]
    assert record.owed == ()
    world.env._errors_acknowledged = len(world.env.errors)  # the refused edits were logged


async def test_a_refused_final_table_is_owed_through_a_restart(world, make_bot) -> None:
    thread = await open_full_room(world, [world.alice, world.bob])
    await answer(world.alice, live_round(thread), "12+34")
    await answer(world.bob, live_round(thread), "1+2+34")
    second = live_round(thread)
    world.env.inject_error(*POST, status=500, times=None)
    try:
        await world.bob.click(second, custom_id=button_id(second, "fd:room:quit:"))  # over
    finally:
        world.env.backend.faults.clear()
    assert tables(thread) == []
    [record] = await world.store.rooms.owing()
    assert record.state.phase is Phase.OVER and [o.round for o in record.owed] == [TABLE]

    await world.env.restart_bot(make_bot())  # the owed table is in the store, not in memory
    await world.env.advance_time(16)
    assert len(tables(thread)) == 1
    assert await world.store.rooms.owing() == []
    await world.env.advance_time(3600)
    assert len(tables(thread)) == 1
    world.env._errors_acknowledged = len(world.env.errors)


async def test_a_reveal_whose_message_is_gone_is_not_owed_for_ever(world) -> None:
    thread = await open_full_room(world, [world.alice, world.bob])
    first = live_round(thread)
    world.env.inject_error(*EDIT, status=404, code=10008, times=None)  # Unknown Message
    try:
        await answer(world.alice, first, "12+34")
        await answer(world.bob, first, "1+2+34")
    finally:
        world.env.backend.faults.clear()
    assert "round 2 of 4" in live_round(thread).embeds[0].title
    assert await world.store.rooms.owing() == []  # nothing can show it there: not owed
    edits = len(world.env.http_requests)
    await world.env.advance_time(20)
    assert not [r for r in world.env.http_requests[edits:] if r.method == "PATCH"]
    world.env._errors_acknowledged = len(world.env.errors)


async def test_a_round_whose_post_failed_owes_no_reveal_in_the_round_befores_message(
    world,
) -> None:
    thread = await open_full_room(world, [world.alice, world.bob])
    first = live_round(thread)
    await answer(world.alice, first, "12+34")
    world.env.inject_error(*POST, status=500, times=None)  # round 2's post: the room is void
    try:
        await answer(world.bob, first, "1+2+34")
    finally:
        world.env.backend.faults.clear()
    await world.env.advance_time(60)
    kept = seen(thread, first.id)
    assert "round 1 of 4" in kept.embeds[0].title and "revealed" in kept.embeds[0].title
    assert [m for m in thread.history() if "The room is void" in m.content]  # its table, owed
    assert await world.store.rooms.owing() == []
    world.env._errors_acknowledged = len(world.env.errors)
