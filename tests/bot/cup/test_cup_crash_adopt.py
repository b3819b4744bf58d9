"""A process dying where Discord already did the step's work, on simcord: after its leg's
call was due but before it was posted, after Discord made a match's thread but before
it was kept, and after a leg's duel was opened but before it was kept (the duel then
played to its end). The next process adopts what Discord has (the thread, the finished
duel) and posts what it lacks (the call) once: one thread, one call, one duel a leg."""

from __future__ import annotations

import pytest

from bot.cup._matches import START_WINDOW_S, STEP_LEASE_S
from bot.storage import STARTING, CupPhase
from tests.bot.cup.test_cup_crash_windows import (
    a_drawn_cup,
    die,
    dying,
    match_threads,
    play_the_leg,
    schedule,
    writes_nothing,
)
from tests.bot.cup.test_cup_matches import ready, ready_message
from tests.support.sim import button_id

pytestmark = pytest.mark.asyncio(loop_scope="session")


def calls(thread) -> list:
    """The bot's Ready messages in the thread (each leg's call)."""
    return [
        m for m in thread.history()
        for row in m.components for c in getattr(row, "children", [])
        if getattr(c, "custom_id", "").startswith("fd:cup:ready:")
    ]  # fmt: skip


async def play_to_the_champion(world, cup, thread) -> None:
    world.digits.extend("7001")
    assert "opponent" in await ready(world.alice, thread)
    assert "is on" in await ready(world.bob, thread)
    await play_the_leg(world, thread)
    await world.env.advance_time(60)
    over = await world.store.cups.load(cup.id)
    assert over is not None and over.phase is CupPhase.OVER
    assert over.champion == str(world.alice.id)


async def test_a_leg_never_called_is_called_once_and_nobody_forfeits(
    world, admin, make_bot, monkeypatch
) -> None:
    cup = await a_drawn_cup(world, admin)
    face = schedule(world).matches.face

    dies = dying(world)

    monkeypatch.setattr(face, "leg_called", dies)
    await world.env.advance_time(30 * 60)  # drawn; the thread made and kept; dies calling
    (thread,) = match_threads(world)
    (row,) = (await world.store.cup_matches.of_cup(cup.id)).values()
    assert row.thread_id == thread.id and calls(thread) == []
    monkeypatch.undo()
    await world.env.restart_bot(make_bot())
    await world.env.advance_time(START_WINDOW_S + 30)
    stored = await world.store.cups.load(cup.id)
    assert stored is not None and stored.phase is CupPhase.DRAWN  # nobody forfeited
    assert len(calls(thread)) == 1 and "Leg 1" in ready_message(thread).content
    await world.env.advance_time(STEP_LEASE_S)  # within the new window: still waiting
    assert len(calls(thread)) == 1
    await play_to_the_champion(world, cup, thread)
    assert len(calls(thread)) == 1


async def test_a_thread_discord_made_before_the_process_died_is_adopted(
    world, admin, make_bot, monkeypatch
) -> None:
    cup = await a_drawn_cup(world, admin)
    face = schedule(world).matches.face
    make = face.match_opened

    async def makes_then_dies(*args, **kwargs):
        await make(*args, **kwargs)
        await die(world)

    monkeypatch.setattr(face, "match_opened", makes_then_dies)
    await world.env.advance_time(30 * 60)
    (thread,) = match_threads(world)
    (row,) = (await world.store.cup_matches.of_cup(cup.id)).values()
    assert row.thread_id is None
    monkeypatch.undo()
    await world.env.restart_bot(make_bot())
    await world.env.advance_time(STEP_LEASE_S + 30)
    assert [t.id for t in match_threads(world)] == [thread.id]  # adopted, not made twice
    (row,) = (await world.store.cup_matches.of_cup(cup.id)).values()
    assert row.thread_id == thread.id
    assert len(calls(thread)) == 1
    await play_to_the_champion(world, cup, thread)


async def test_a_duel_that_ended_before_it_was_kept_is_the_legs_result(
    world, admin, make_bot, monkeypatch
) -> None:
    """The process dies after opening the leg's duel, before keeping it; the duel goes on
    to its end (its own flow) before the next process looks: that duel is the leg."""
    cup = await a_drawn_cup(world, admin)
    await world.env.advance_time(30 * 60)
    (thread,) = match_threads(world)
    matches = world.store.cup_matches

    dies = dying(world)

    monkeypatch.setattr(matches, "release", writes_nothing)
    monkeypatch.setattr(matches, "started", dies)
    world.digits.extend("7001")
    assert "opponent" in await ready(world.alice, thread)
    message = ready_message(thread)
    await world.bob.click(message, custom_id=button_id(message, "fd:cup:ready:"))
    (row,) = (await matches.of_cup(cup.id)).values()
    assert row.game_id == STARTING
    await play_the_leg(world, thread)  # the duel ends; nobody kept it as the leg
    (duel,) = await world.store.games.history(world.guild.id, world.alice.id, limit=1)
    assert duel.state.outcome is not None
    monkeypatch.undo()
    await world.env.restart_bot(make_bot())
    await world.env.advance_time(STEP_LEASE_S + 60)
    games = await world.store.games.history(world.guild.id, world.alice.id, limit=5)
    assert [g.state.id for g in games] == [duel.state.id]  # the leg was not played twice
    over = await world.store.cups.load(cup.id)
    assert over is not None and over.phase is CupPhase.OVER
    assert over.champion == str(world.alice.id)
    (leg,) = await world.store.cups.legs(cup.id)  # the finished duel is the leg, once
    assert (leg.leg, leg.game_id, leg.result) == (1, duel.state.id, "first")
