"""A weekly Cup of 8 played on simcord from its schedule to the champion: check-ins, a
thread per match with both players mentioned, Ready buttons, no-shows (one side, both
sides) that decide a match, a best-of-3 with a drawn leg replayed, legs rated as duels,
the next round opened as its matches end, a restart in the middle of round 2, finished
threads archived, the bracket edited in place, the champion announced once and the hall
of fame."""

from __future__ import annotations

from datetime import timedelta

import discord
import pytest

from bot.storage import CupPhase
from tests.support.sim import answer, button_id, reply_text

pytestmark = pytest.mark.asyncio(loop_scope="session")


def start_in(hours: float) -> str:
    return (discord.utils.utcnow() + timedelta(hours=hours)).strftime("%Y-%m-%d %H:%M")


def ready_message(thread) -> discord.Message:
    return next(
        m
        for m in reversed(thread.history())
        if any(
            getattr(c, "custom_id", "").startswith("fd:cup:ready:")
            for row in m.components
            for c in getattr(row, "children", [])
        )
    )


async def ready(member, thread) -> str:
    message = ready_message(thread)
    return reply_text(await member.click(message, custom_id=button_id(message, "fd:cup:ready:")))


async def play_leg(world, thread, first, second, first_formula: str, second_formula: str):
    """Both press Ready; the leg's duel (Digits 7001: `700+1` reaches 0) is played."""
    world.digits.extend("7001")
    assert "opponent" in await ready(first, thread)
    assert "is on" in await ready(second, thread)
    round_message = thread.last_message
    assert "round 1" in round_message.embeds[0].title
    await answer(first, round_message, first_formula)
    await answer(second, round_message, second_formula)
    await world.env.advance_time(20)  # the schedule's next look sees the leg's end


def thread_of(world, first, second):
    """The latest match thread whose leg calls mention both players."""
    for thread in reversed(world.channel.threads):
        calls = [m.content for m in thread.history() if "Leg " in m.content]
        if calls and f"<@{first.id}>" in calls[0] and f"<@{second.id}>" in calls[0]:
            return thread
    raise AssertionError(f"no match thread of {first.id} and {second.id}")


async def test_a_weekly_cup_of_eight_is_played_to_its_champion(world, admin, make_bot) -> None:
    alice, bob, carol, dave = (
        world.alice,
        world.bob,
        world.carol,
        world.guild.add_member(world.env.create_user("dave")),
    )
    e1, e2, e3, e4 = (world.guild.add_member(world.env.create_user(f"e{i}")) for i in range(4))
    await admin.slash(
        world.channel,
        "cup create",
        name="Night Cup",
        set="darts",
        start=start_in(1.5),
        repeat="weekly",
        seeding="elo",
        size=8,
        legs=3,
    )
    (cup,) = await world.store.cups.of_server(world.guild.id)
    await world.env.advance_time(31 * 60)
    announcement = world.channel.last_message
    for member in (alice, bob, carol, dave, e1, e2, e3, e4):  # all at 1000 Elo: seeded so
        await member.click(announcement, custom_id=button_id(announcement, "fd:cup:in:"))
    await world.env.advance_time(60 * 60)
    assert len(await world.store.cups.of_server(world.guild.id)) == 2  # next week's is made

    # round 1: 1-8 (e4 does not show), 4-5 (neither shows), 2-7 (a drawn leg), 3-6 (e2 absent)
    first_match = thread_of(world, alice, e4)
    assert "Only this match's two players" in await ready(carol, first_match)
    assert "opponent" in await ready(alice, first_match)
    assert "opponent" in await ready(carol, thread_of(world, carol, e2))
    third = thread_of(world, bob, e3)
    await play_leg(world, third, bob, e3, "700+1", "700+1")
    assert "Leg 2" in ready_message(third).content  # the drawn leg is played again
    await play_leg(world, third, bob, e3, "700+1", "7+0+0+1")
    await play_leg(world, third, bob, e3, "700+1", "7+0+0+1")
    assert "goes through" in third.last_message.content
    await world.env.advance_time(10 * 60)  # the start windows end
    assert "the other did not show" in first_match.last_message.content
    assert "neither showed" in thread_of(world, dave, e1).last_message.content
    patched = [
        r
        for r in world.env.http_requests
        if r.method == "PATCH" and r.path == f"/channels/{third.id}"
    ]
    assert patched and world.bot.get_channel(third.id) is None  # archived: uncached

    # round 2: a restart in the middle of it
    semi_one, semi_two = thread_of(world, alice, dave), thread_of(world, bob, carol)
    await play_leg(world, semi_one, alice, dave, "700+1", "7+0+0+1")
    await play_leg(world, semi_two, bob, carol, "700+1", "7+0+0+1")
    await world.env.restart_bot(make_bot())
    await play_leg(world, semi_one, alice, dave, "700+1", "7+0+0+1")
    await play_leg(world, semi_two, bob, carol, "700+1", "7+0+0+1")

    final = thread_of(world, alice, bob)
    await play_leg(world, final, alice, bob, "700+1", "7+0+0+1")
    await play_leg(world, final, alice, bob, "700+1", "7+0+0+1")

    over = await world.store.cups.load(cup.id)
    assert over is not None and over.phase is CupPhase.OVER and over.champion == str(alice.id)
    crowned = [m for m in world.channel.history() if "is the champion of" in m.content]
    assert len(crowned) == 1 and f"<@{alice.id}>" in crowned[0].content
    brackets = [m for m in world.channel.history() if "the bracket" in m.content]
    assert len(brackets) == 1 and "👑 Champion" in brackets[0].content  # edited in place
    ratings = {
        r.user_id: r.rating for r in await world.store.boards.duel_leaderboard(world.guild.id)
    }
    assert ratings[alice.id] > 1000 > ratings[e3.id]  # legs are rated duels
    legs = await world.store.cups.legs(cup.id)
    assert [leg.result for leg in legs] == ["draw"] + ["first"] * 8
    history = reply_text(await carol.slash(world.channel, "cup history"))
    assert "Night Cup" in history and f"<@{alice.id}>" in history
