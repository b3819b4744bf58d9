"""A room's lobby and its life across restarts on simcord: Start by the host, the lobby's
deadline (start with 2, else cancelled and saying so), leaving, buttons and timers after
a restart, a round the bot missed while down played again, a deleted thread voiding it."""

from __future__ import annotations

import pytest

from rules.room import Phase, RoomEnd
from tests.support.sim import button_id, message_text, reply_text, shown

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def open_lobby(world, size: int = 5):
    await world.alice.slash(world.channel, "room", size=size)
    return world.channel.last_message


def current(world, message):
    return next(m for m in world.channel.history() if m.id == message.id)


async def press(member, message, act: str):
    return await member.click(message, custom_id=button_id(message, f"fd:room:{act}:"))


async def test_the_host_starts_it_and_only_the_host(world) -> None:
    lobby = await open_lobby(world)
    early = await press(world.alice, lobby, "start")
    assert "at least 2 players" in reply_text(early)
    await press(world.bob, lobby, "join")
    lobby = current(world, lobby)
    assert "players 2/5" in lobby.content and f"<@{world.bob.id}>" in lobby.content
    refused = await press(world.bob, lobby, "start")
    assert "Only the host" in reply_text(refused)
    await press(world.alice, lobby, "start")
    assert "is playing in" in current(world, lobby).content
    assert "round 1 of 7" in world.thread().last_message.embeds[0].title


async def test_leaving_the_lobby_and_the_host_leaving_cancels_it(world) -> None:
    lobby = await open_lobby(world)
    second = await world.alice.slash(world.channel, "room")
    assert "already have a room waiting" in reply_text(second)
    await press(world.bob, lobby, "join")
    await press(world.bob, current(world, lobby), "leave")
    assert "players 1/5" in current(world, lobby).content
    await press(world.alice, current(world, lobby), "leave")
    closed = current(world, lobby)
    assert "cancelled: its host left" in closed.content and not closed.components
    again = await world.alice.slash(world.channel, "room")  # the host may open another
    assert again.response is not None and "**Room**" in again.response.content


async def test_at_the_deadline_one_player_is_cancelled(world) -> None:
    lobby = await open_lobby(world)
    await world.env.advance_time(301)
    closed = current(world, lobby)
    assert "cancelled: fewer than 2 players" in closed.content and not closed.components
    assert await world.store.rooms.open_rooms() == []


async def test_at_the_deadline_two_players_start_even_after_a_restart(world, make_bot) -> None:
    lobby = await open_lobby(world)
    await world.env.restart_bot(make_bot())
    await press(world.bob, lobby, "join")  # the button works after the restart
    await world.env.advance_time(301)  # the deadline was armed again by the recovery
    assert "is playing in" in current(world, lobby).content
    assert "round 1 of 7" in world.thread().last_message.embeds[0].title


async def test_a_round_missed_while_down_is_played_again(world, make_bot) -> None:
    world.digits.extend("3489")
    lobby = await open_lobby(world, size=2)
    await press(world.bob, lobby, "join")
    thread = world.thread()
    first = thread.last_message
    await world.alice.click(first, custom_id=button_id(first, "fd:room:answer:"))
    shown = await world.alice.click(first, custom_id=button_id(first, "fd:room:answer:"))
    await world.alice.submit_modal(shown, {"formula": "34+89"})
    world.bot.get_cog("Rooms").flow.close()  # the bot goes down: its timers stop
    await world.env.advance_time(600)
    await world.env.restart_bot(make_bot())

    again = thread.last_message
    assert again.id != first.id and "**3489**" in message_text(again)
    assert "Answered: 1 of 2" in message_text(again)  # the answer given stays
    shown = await world.bob.click(again, custom_id=button_id(again, "fd:room:answer:"))
    taken = await world.bob.submit_modal(shown, {"formula": "3+4+89"})
    assert "stays secret" in reply_text(taken)
    revealed = message_text(next(m for m in thread.history() if m.id == again.id))
    assert "34+89" in revealed and "3+4+89" in revealed and "auto-move" not in revealed


async def test_game_of_a_room_in_play_keeps_the_open_round_secret(world) -> None:
    lobby = await open_lobby(world, size=2)
    room_id = current_room_id(lobby)
    await press(world.bob, lobby, "join")
    first = world.thread().last_message
    shown_ = await world.alice.click(first, custom_id=button_id(first, "fd:room:answer:"))
    await world.alice.submit_modal(shown_, {"formula": "12+34"})
    replay = shown(await world.carol.slash(world.channel, "game", id=room_id[:8]))
    assert "still being played" in message_text(replay.message)
    assert "12+34" not in message_text(replay.message) and not replay.message.components


async def test_a_deleted_thread_voids_the_room(world) -> None:
    lobby = await open_lobby(world, size=2)
    await press(world.bob, lobby, "join")
    thread = world.thread()
    world.env.backend.delete_channel(thread.id)
    await world.env.settle()
    assert await world.store.rooms.open_rooms() == []
    rooms = world.bot.get_cog("Rooms").flow
    assert rooms.latest == {}
    stored = await world.store.rooms.load(current_room_id(lobby))
    assert stored is not None and stored.state.phase is Phase.OVER
    assert stored.state.end is RoomEnd.VOID


def current_room_id(lobby) -> str:
    return button_id(lobby, "fd:room:join:").split(":")[3]


async def test_an_unknown_set_is_refused_clearly_and_nothing_is_kept(world) -> None:
    refused = await world.alice.slash(world.channel, "room", set="nope")
    assert "nope" in reply_text(refused) and "darts" in reply_text(refused)
    assert await world.store.rooms.open_rooms() == []


async def test_a_thread_discord_refuses_voids_the_room_and_the_lobby_says_why(world) -> None:
    lobby = await open_lobby(world, size=2)
    world.env.inject_error(
        "POST", "/channels/*/messages/*/threads", status=403, code=50013, times=None
    )
    try:
        await press(world.bob, lobby, "join")
    finally:
        world.env.backend.faults.clear()
    closed = current(world, lobby)
    assert "could not open its thread" in closed.content and not closed.components
    assert await world.store.rooms.open_rooms() == []
    assert not world.channel.threads
