"""A process dying inside a Cup's step, on simcord: between opening a match and keeping
its thread, and between taking a leg's start and keeping its duel (before the duel was
opened, and after). The dying process writes nothing more; the next process's schedule
finds the step half done past its lease and finishes it once: one thread, one duel,
one counted leg."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import discord
import pytest

from bot.cup._matches import STEP_LEASE_S
from bot.cup._views import COG_NAME
from bot.storage import STARTING, CupPhase
from tests.bot.cup.test_cup_matches import ready, ready_message
from tests.support.sim import answer, button_id

pytestmark = pytest.mark.asyncio(loop_scope="session")


def start_in(hours: float) -> str:
    return (discord.utils.utcnow() + timedelta(hours=hours)).strftime("%Y-%m-%d %H:%M")


def schedule(world):
    return world.bot.get_cog(COG_NAME).schedule


async def die(world) -> None:
    """The process dies here: the Cups' schedule stops and this task is gone; nothing
    after this point runs."""
    schedule(world).stop()
    task = asyncio.current_task()
    assert task is not None
    task.cancel()
    await asyncio.sleep(0)


def dying(world):
    """A step that, called, kills the process before doing anything (`die`)."""

    async def dies(*args, **kwargs) -> None:
        await die(world)

    return dies


async def writes_nothing(*args, **kwargs) -> None:
    """A store write that never happens (the process died before it)."""


async def a_drawn_cup(world, admin):
    """alice (seed 1) and bob checked in to a one-leg Cup that is drawn at the next look."""
    await admin.slash(
        world.channel, "cup create", name="Crash Cup", set="darts", start=start_in(0.5),
        seeding="elo", size=4, legs=1,
    )  # fmt: skip
    (cup,) = await world.store.cups.of_server(world.guild.id)
    await world.env.advance_time(1)
    announcement = world.channel.last_message
    for member in (world.alice, world.bob):
        await member.click(announcement, custom_id=button_id(announcement, "fd:cup:in:"))
    return cup


def match_threads(world) -> list:
    return [t for t in world.channel.threads if "Crash Cup" in t.name]


async def test_a_match_opened_without_its_thread_gets_one_once(
    world, admin, make_bot, monkeypatch
) -> None:
    cup = await a_drawn_cup(world, admin)
    face = schedule(world).matches.face

    dies = dying(world)

    monkeypatch.setattr(face, "match_opened", dies)
    await world.env.advance_time(30 * 60)  # drawn; the match opened; the process dies
    (row,) = (await world.store.cup_matches.of_cup(cup.id)).values()
    assert row.thread_id is None and match_threads(world) == []
    monkeypatch.undo()
    await world.env.restart_bot(make_bot())
    await world.env.advance_time(STEP_LEASE_S + 30)
    (thread,) = match_threads(world)
    assert "Leg 1" in ready_message(thread).content
    await world.env.advance_time(STEP_LEASE_S + 30)
    assert len(match_threads(world)) == 1  # made once
    stored = await world.store.cups.load(cup.id)
    assert stored is not None and stored.phase is CupPhase.DRAWN  # nobody forfeited
    world.digits.extend("7001")
    assert "opponent" in await ready(world.alice, thread)
    assert "is on" in await ready(world.bob, thread)
    await play_the_leg(world, thread)
    over = await world.store.cups.load(cup.id)
    assert over is not None and over.champion == str(world.alice.id)


async def play_the_leg(world, thread) -> None:
    round_message = thread.last_message
    assert "round 1" in round_message.embeds[0].title
    await answer(world.alice, round_message, "700+1")
    await answer(world.bob, round_message, "7+0+0+1")
    await world.env.advance_time(20)


@pytest.mark.parametrize("dies_at", ["start_leg", "started"])
async def test_a_leg_left_starting_is_started_once(
    world, admin, make_bot, monkeypatch, dies_at: str
) -> None:
    """`start_leg`: the process dies before opening the duel (the next process opens it
    past the lease); `started`: after opening it, before keeping it (the next process
    keeps the duel the players are in at its first look)."""
    cup = await a_drawn_cup(world, admin)
    await world.env.advance_time(30 * 60)
    (thread,) = match_threads(world)
    matches = world.store.cup_matches

    dies = dying(world)

    monkeypatch.setattr(matches, "release", writes_nothing)
    if dies_at == "start_leg":
        monkeypatch.setattr(schedule(world).matches.face, "start_leg", dies)
    else:
        monkeypatch.setattr(matches, "started", dies)
    world.digits.extend("7001")
    assert "opponent" in await ready(world.alice, thread)
    message = ready_message(thread)
    await world.bob.click(message, custom_id=button_id(message, "fd:cup:ready:"))
    (row,) = (await matches.of_cup(cup.id)).values()
    assert row.game_id == STARTING
    monkeypatch.undo()
    await world.env.restart_bot(make_bot())
    await world.env.advance_time(20 if dies_at == "started" else STEP_LEASE_S + 30)
    (row,) = (await matches.of_cup(cup.id)).values()
    assert row.game_id not in (None, STARTING)
    rounds = [m for m in thread.history() if m.embeds and "round 1" in m.embeds[0].title]
    assert len(rounds) == 1  # one duel, whichever process opened it
    await play_the_leg(world, thread)
    await world.env.advance_time(STEP_LEASE_S + 30)
    over = await world.store.cups.load(cup.id)
    assert over is not None and over.phase is CupPhase.OVER
    assert over.champion == str(world.alice.id)
    (leg,) = await world.store.cups.legs(cup.id)  # one duel, counted once
    assert (leg.leg, leg.game_id, leg.result) == (1, row.game_id, "first")
