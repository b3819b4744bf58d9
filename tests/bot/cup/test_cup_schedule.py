"""A Cup from its schedule on simcord: the announcement an hour before its start (who
qualified mentioned, a Check in button that survives a restart), check-ins, no-shows
whose places go to the next on the board, the draw at the start (once, across a restart),
the next weekly Cup made once; and a Cup with fewer than 2 players cancelled and said so."""

from __future__ import annotations

from datetime import timedelta

import discord
import pytest

from bot.storage import CupPhase
from tests.bot.daily.seeds import played
from tests.support.sim import button_id, reply_text

pytestmark = pytest.mark.asyncio(loop_scope="session")

PERFECT = [("(1+2)*34-2", 100), ("1*2*34+32", 100), ("12*3+64", 100), ("1+2+3+45", 51)]


def start_in(hours: float) -> str:
    return (discord.utils.utcnow() + timedelta(hours=hours)).strftime("%Y-%m-%d %H:%M")


def cup_messages(world) -> list[discord.Message]:
    return [m for m in world.channel.history() if "🏆" in m.content or "👑" in m.content]


async def a_board(world, count: int) -> list:
    """`count` players on today's Qualification board of darts, fastest (seed 1) first."""
    members = [world.alice, world.bob, world.carol]
    members += [world.guild.add_member(world.env.create_user(f"q{i}")) for i in range(count - 3)]
    for rank, member in enumerate(members):
        period = discord.utils.utcnow().strftime("%Y-%m-%d")
        await played(
            world.store,
            world.guild.id,
            f"{rank:032x}",
            member.id,
            PERFECT,
            period=period,
            seconds=10.0 + rank,
        )
    return members


async def test_a_weekly_cup_is_announced_checked_in_to_and_drawn_once(
    world, admin, make_bot
) -> None:
    board = await a_board(world, 10)
    outsider = world.guild.add_member(world.env.create_user("outsider"))
    made = await admin.slash(
        world.channel,
        "cup create",
        name="Friday Cup",
        set="darts",
        start=start_in(2),
        repeat="weekly",
        size=8,
        legs=3,
        seeding="day",
    )
    assert "is set up" in reply_text(made)
    (cup,) = await world.store.cups.of_server(world.guild.id)

    await world.env.advance_time(50 * 60)
    assert cup_messages(world) == []  # an hour before the start, not earlier
    await world.env.advance_time(11 * 60)
    (announcement,) = cup_messages(world)
    text = announcement.content
    assert "**Friday Cup**" in text and "Qualified by the Qualification of the last day" in text
    for member in board[:8]:
        assert f"<@{member.id}>" in text
    assert f"<@{board[8].id}>" not in text
    check_in = button_id(announcement, f"fd:cup:in:{cup.id}")

    early = await world.alice.click(announcement, custom_id=check_in)
    assert "You are checked in to **Friday Cup**" in reply_text(early)
    again = await world.alice.click(announcement, custom_id=check_in)
    assert "checked in to **Friday Cup** already" in reply_text(again)
    await world.env.restart_bot(make_bot())  # the button and the schedule outlive it
    # board[1] and board[4] do not check in: board[8] and board[9] take their places
    for member in [*board[2:4], *board[5:]]:
        done = await member.click(announcement, custom_id=check_in)
        assert "You are checked in" in reply_text(done)
    refused = await outsider.click(announcement, custom_id=check_in)
    assert "cannot be drawn" in reply_text(refused)  # not on the board (test_cup_check_in)
    await world.env.restart_bot(make_bot())

    await world.env.advance_time(60 * 60)
    drawn = await world.store.cups.load(cup.id)
    assert drawn is not None and drawn.phase is CupPhase.DRAWN and drawn.bracket is not None
    expected = [board[i].id for i in (0, 2, 3, 5, 6, 7, 8, 9)]
    assert drawn.bracket.entrants == tuple(str(p) for p in expected)
    first = drawn.bracket.match(1, 0)
    assert first.seeds == (1, 8) and first.decision is None
    bracket_messages = [m for m in cup_messages(world) if "the bracket" in m.content]
    assert len(bracket_messages) == 1 and len(cup_messages(world)) == 2
    shown = bracket_messages[0].content
    assert "**Round 1**" in shown and "**Semi-finals**" in shown and "**Final**" in shown
    assert f"<@{board[0].id}> (1) vs <@{board[9].id}> (8) · 0:0" in shown
    late = await world.carol.click(announcement, custom_id=check_in)
    assert "closed: it has started" in reply_text(late)

    cups = await world.store.cups.of_server(world.guild.id)
    following = [c for c in cups if c.id != cup.id]
    assert len(following) == 1 and following[0].starts_at == cup.starts_at + 7 * 86400
    assert following[0].phase is CupPhase.SCHEDULED and following[0].name == "Friday Cup"
    await world.env.restart_bot(make_bot())
    await world.env.advance_time(60)
    assert len(await world.store.cups.of_server(world.guild.id)) == 2  # made once
    assert len(cup_messages(world)) == 2  # nothing announced twice


async def test_fewer_than_two_players_cancel_the_cup(world, admin) -> None:
    await admin.slash(
        world.channel,
        "cup create",
        name="Open Cup",
        set="darts",
        start=start_in(0.5),
        seeding="elo",
        size=4,
        legs=1,
    )
    (cup,) = await world.store.cups.of_server(world.guild.id)
    await world.env.advance_time(1)  # within the hour: announced at once
    (announcement,) = cup_messages(world)
    assert "Open entry" in announcement.content
    await world.bob.click(announcement, custom_id=button_id(announcement, "fd:cup:in:"))
    await world.env.advance_time(30 * 60)
    stored = await world.store.cups.load(cup.id)
    assert stored is not None and stored.phase is CupPhase.CANCELLED
    assert "fewer than 2 players checked in" in cup_messages(world)[-1].content
