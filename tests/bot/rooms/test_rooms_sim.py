"""Rooms end to end on simcord (issue 30): a lobby filled by Join, a thread, rounds with
secret answers and a live "who has answered" line, auto-moves, a drop-out, two misses in
a row, a restart mid-round, the final table; and a round's bot-token calls, the same for
3, 10 and 20 players (answers and the progress line ride the players' interactions)."""

from __future__ import annotations

import re

import discord
import pytest
import simcord

import rules
from tests.support.sim import button_id, message_text, reply_text, shown

pytestmark = pytest.mark.asyncio(loop_scope="session")

QUICK = {"start_score": 501, "goal": 100, "bonus": 50, "max_rounds": 4, "min_rounds": 4,
         "time_limit": 60}  # fmt: skip
FORMULAS = ["12+34", "1+2+34", "1*2+34", "12*3+4", "1+23+4", "12+3*4", "1+2*34", "1*23+4"]
ROUND_CALLS = ["PATCH /channels/{id}/messages/{id}", "POST /channels/{id}/messages"]
"""A round ended and the next posted: the reveal (an edit of the round's message) and the
next round's message. Nothing else, whatever the number of players."""


def bot_token_calls(env: simcord.Env, since: int) -> list[str]:
    calls = []
    for r in env.http_requests[since:]:
        if r.path.startswith(("/interactions/", "/webhooks/")):
            continue
        route = "/".join("{id}" if part.isdigit() else part for part in r.path.split("/"))
        calls.append(f"{r.method} {route}")
    return sorted(calls)


def players(world, n: int) -> list[simcord.MemberActor]:
    extra = [world.guild.add_member(world.env.create_user(f"p{i}")) for i in range(n - 3)]
    return [world.alice, world.bob, world.carol, *extra][:n]


async def open_full_room(world, members: list[simcord.MemberActor]):
    await world.store.sets.save_server_set(world.guild.id, rules.validate_set("quick", QUICK))
    opened = await members[0].slash(world.channel, "room", set="quick", size=len(members))
    assert opened.response is not None and "Room" in opened.response.content
    lobby = world.channel.last_message
    again = await members[0].click(lobby, custom_id=button_id(lobby, "fd:room:join:"))
    assert "in this room already" in reply_text(again)
    for member in members[1:]:
        await member.click(lobby, custom_id=button_id(lobby, "fd:room:join:"))
    lobby = next(m for m in world.channel.history() if m.id == lobby.id)
    assert "is playing in" in lobby.content and not lobby.components
    return world.thread()


def live_round(thread):
    message = thread.last_message
    assert message.components, message_text(message)
    return message


async def answer(member, message, formula: str):
    shown = await member.click(message, custom_id=button_id(message, "fd:room:answer:"))
    if shown.modal is None:
        return shown
    return await member.submit_modal(shown, {"formula": formula})


def seen(thread, message_id: int):
    return next(m for m in thread.history() if m.id == message_id)


@pytest.mark.parametrize("n", [3, 10, 20])
async def test_a_room_is_played_end_to_end(world, make_bot, n: int) -> None:
    members = players(world, n)
    stranger = world.guild.add_member(world.env.create_user("onlooker"))
    thread = await open_full_room(world, members)
    first = live_round(thread)
    assert "round 1 of 4" in first.embeds[0].title and "**1234**" in message_text(first)

    # round 1: everyone but the last answers; the last gets the auto-move
    taken = await answer(members[0], first, "12+34")
    assert "stays secret" in reply_text(taken) and "46" in reply_text(taken)
    assert "12+34" not in message_text(seen(thread, first.id))
    assert "Answered: 1 of" in message_text(seen(thread, first.id))
    edits_from, since_first = len(world.env.http_requests), discord.utils.utcnow().timestamp()
    twice = await answer(members[0], first, "1+2+34")
    assert "already answered" in reply_text(twice)
    watcher = await stranger.click(first, custom_id=button_id(first, "fd:room:answer:"))
    assert "Only the room's players" in reply_text(watcher)
    wrong = await answer(members[1], first, "21+34")
    assert "21+34" in reply_text(wrong) and "stays secret" not in reply_text(wrong)
    for i, member in enumerate(members[1:-1], start=1):
        await answer(member, first, FORMULAS[i % len(FORMULAS)])
    await world.env.advance_time(1)  # the throttled progress edit: at most once a second
    assert f"Answered: {n - 1} of {n}" in message_text(seen(thread, first.id))
    edits = [r for r in world.env.http_requests[edits_from:]
             if r.method == "PATCH" and r.path.endswith("/messages/@original")]  # fmt: skip
    seconds = discord.utils.utcnow().timestamp() - since_first
    assert 1 <= len(edits) <= seconds  # one edit a second at most (an edit each would be n-2)
    since = len(world.env.http_requests)
    await world.env.advance_time(60)
    assert bot_token_calls(world.env, since) == ROUND_CALLS
    reveal = message_text(seen(thread, first.id))
    assert "12+34" in reveal and "auto-move `12+34`" in reveal
    assert not seen(thread, first.id).components

    # round 2: a restart mid-round; the second player leaves; the last misses again: out
    second = live_round(thread)
    assert "round 2 of 4" in second.embeds[0].title
    await answer(members[0], second, "12+34")
    await world.env.restart_bot(make_bot())
    for i, member in enumerate(members[2:-1], start=2):
        await answer(member, second, FORMULAS[i % len(FORMULAS)])
    left = await members[1].click(second, custom_id=button_id(second, "fd:room:quit:"))
    assert "You left the room" in reply_text(left)
    await world.env.advance_time(61)
    assert "is out: two auto-moves in a row" in message_text(seen(thread, second.id))
    if n == 3:  # one player is left in: the room ends
        table = message_text(thread.last_message)
        assert "one player is left in (round 2)" in table
        assert_places(table, members)
        return

    # round 3: the last player is out and not waited for
    third = live_round(thread)
    since = len(world.env.http_requests)
    out = await answer(members[-1], third, "12+34")
    assert "out of this room" in reply_text(out)
    for member in [members[0], *members[2:-1]]:
        await answer(member, third, "12+34")
    assert "revealed" in seen(thread, third.id).embeds[0].title  # everyone in answered
    assert bot_token_calls(world.env, since) == ROUND_CALLS

    # round 4, the last: the final table
    fourth = live_round(thread)
    for member in [members[0], *members[2:-1]]:
        await answer(member, fourth, "12+34")
    table = message_text(thread.last_message)
    assert "The room is over" in table and "all 4 rounds played" in table
    assert_places(table, members)
    assert button_id(thread.last_message, "fd:room:share:")
    assert await world.store.rooms.open_rooms() == []


def assert_places(table: str, members: list[simcord.MemberActor]) -> None:
    """Everyone has a line; the last to go out (the one who missed twice, at the round's
    end) above the one who left during it."""
    lines = [line for line in table.splitlines() if "Score **" in line]
    assert len(lines) == len(members)
    assert f"<@{members[-1].id}>" in lines[-2] and "out in round 2" in lines[-2]
    assert f"<@{members[1].id}>" in lines[-1] and "left in round 2" in lines[-1]


async def test_a_room_of_two_fills_and_a_leaver_ends_it(world) -> None:
    thread = await open_full_room(world, [world.alice, world.bob])
    first = live_round(thread)
    await answer(world.alice, first, "12+34")
    await world.bob.click(first, custom_id=button_id(first, "fd:room:quit:"))
    table = message_text(thread.last_message)
    assert "one player is left in" in table
    assert table.index(f"<@{world.alice.id}>") < table.index(f"<@{world.bob.id}>")

    # /game with the id the table gives: the table, then each round that is over
    room_id = re.search(r"`([0-9a-f]{8})`", table)
    assert room_id is not None
    replay = shown(await world.carol.slash(world.channel, "game", id=room_id[1]))
    assert "one player is left in" in message_text(replay.message)
    page = await world.carol.click(replay.message, label="Next ▶")
    assert "12+34" in message_text(shown(page).message)
    history = shown(await world.bob.slash(world.channel, "history"))
    assert f"`{room_id[1]}`" in message_text(history.message)
    assert "place 2 of 2" in message_text(history.message)
