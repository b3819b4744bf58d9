"""A Cup played on simcord from the draw to the champion: a thread per match with both
players mentioned, Ready buttons, a no-show that loses the match, a best-of-3 with a
drawn leg replayed, legs rated as duels, the next round opened as its matches end, a
restart in the middle of the final, finished threads archived, the bracket edited in
place, the champion announced once and the hall of fame."""

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
    return next(m for m in reversed(thread.history()) if any(
        getattr(c, "custom_id", "").startswith("fd:cup:ready:")
        for row in m.components for c in getattr(row, "children", [])
    ))  # fmt: skip


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


async def test_a_cup_of_four_is_played_to_its_champion(world, admin, make_bot) -> None:
    dave = world.guild.add_member(world.env.create_user("dave"))
    alice, bob, carol = world.alice, world.bob, world.carol
    await admin.slash(world.channel, "cup create", name="Night Cup", set="darts",
                      start=start_in(1.5), seeding="elo", size=4, legs=3)  # fmt: skip
    (cup,) = await world.store.cups.of_server(world.guild.id)
    await world.env.advance_time(31 * 60)
    announcement = world.channel.last_message
    for member in (alice, bob, carol, dave):  # all at 1000 Elo: seeded as they checked in
        await member.click(announcement, custom_id=button_id(announcement, "fd:cup:in:"))
    await world.env.advance_time(60 * 60)

    semi_one, semi_two = world.channel.threads[-2:]
    assert f"<@{alice.id}>" in ready_message(semi_one).content
    assert f"<@{dave.id}>" in ready_message(semi_one).content
    stranger = await ready(carol, semi_one)
    assert "Only this match's two players" in stranger

    # semi 1: dave never shows
    assert "opponent" in await ready(alice, semi_one)
    # semi 2: a drawn leg, replayed; then bob wins two
    await play_leg(world, semi_two, bob, carol, "700+1", "700+1")
    assert "Leg 2" in ready_message(semi_two).content
    await play_leg(world, semi_two, bob, carol, "700+1", "7+0+0+1")
    await play_leg(world, semi_two, bob, carol, "700+1", "7+0+0+1")
    stored = await world.store.cups.load(cup.id)
    assert stored is not None and stored.bracket is not None
    assert stored.bracket.match(1, 1).winning_seed == 2  # bob
    assert "goes through" in semi_two.last_message.content

    await world.env.advance_time(10 * 60)  # semi 1's start window ends
    assert "the other did not show" in semi_one.last_message.content
    for finished in (semi_one, semi_two):  # a server keeps 1,000 active threads at most
        patched = [r for r in world.env.http_requests
                   if r.method == "PATCH" and r.path == f"/channels/{finished.id}"]  # fmt: skip
        assert patched and world.bot.get_channel(finished.id) is None  # archived: uncached
    final = world.channel.threads[-1]
    assert final.id not in (semi_one.id, semi_two.id)
    assert f"<@{bob.id}>" in ready_message(final).content

    await play_leg(world, final, alice, bob, "700+1", "7+0+0+1")
    await world.env.restart_bot(make_bot())  # in the middle of the final
    await play_leg(world, final, alice, bob, "700+1", "7+0+0+1")

    over = await world.store.cups.load(cup.id)
    assert over is not None and over.phase is CupPhase.OVER and over.champion == str(alice.id)
    crowned = [m for m in world.channel.history() if "is the champion of" in m.content]
    assert len(crowned) == 1 and f"<@{alice.id}>" in crowned[0].content
    brackets = [m for m in world.channel.history() if "the bracket" in m.content]
    assert len(brackets) == 1 and "👑 Champion" in brackets[0].content  # edited in place
    ratings = {r.user_id: r.rating for r in await world.store.duel_leaderboard(world.guild.id)}
    assert ratings[alice.id] > 1000 > ratings[carol.id]  # legs are rated duels
    legs = await world.store.cups.legs(cup.id)
    assert [leg.result for leg in legs] == ["draw", "first", "first", "first", "first"]
    history = reply_text(await carol.slash(world.channel, "cup history"))
    assert "Night Cup" in history and f"<@{alice.id}>" in history
