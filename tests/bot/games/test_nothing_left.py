"""Nothing left behind (issue 28): a private game's buttons are dispatched by their
custom_id, so discord.py keeps no View (nor the 15-minute timeout task it gives a View
on an ephemeral message) per message, and a finished game leaves no task, View or
interaction object alive. Counted in discord.py's own ViewStore and by the GC."""

from __future__ import annotations

import asyncio
import gc
from typing import Any

import discord
import pytest

from bot.settings import BotSettings, SoloGames
from rules import CLASSIC
from tests.bot.games.test_interaction_rounds import game_id_of, live_round
from tests.support.sim import answer

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest.fixture
def settings(settings: BotSettings) -> BotSettings:
    return settings.model_copy(update={"solo_games": SoloGames.PRIVATE})


def kept_views(world: Any) -> int:
    store = world.bot._connection._view_store
    return len(store._synced_message_views) + sum(len(items) for items in store._views.values())


def alive(kind: type) -> int:
    """How many of `kind` the GC finds. Counted against the figure at the test's start:
    a session's earlier tests (a fault test's stranded coroutine holds its interaction)
    may leave some; what a test's own game leaves is the difference."""
    gc.collect()
    return sum(1 for thing in gc.get_objects() if isinstance(thing, kind))


def latest(world: Any, member: Any) -> discord.Message:
    return [m for m in world.channel.history(viewer=member) if m.components][-1]


async def test_a_private_game_keeps_no_view_and_leaves_nothing_alive(world) -> None:
    views_before = kept_views(world)
    interactions, views = alive(discord.Interaction), alive(discord.ui.View)
    tasks_before = asyncio.all_tasks()
    world.digits.extend("3489", "2476", "1234")
    await world.alice.slash(world.channel, "training")
    game_id = await game_id_of(world, world.alice)
    for _ in range(2):
        rnd = live_round(world.env, game_id)
        assert rnd is not None
        await answer(world.alice, latest(world, world.alice), rnd.digits)
    assert kept_views(world) == views_before
    assert alive(discord.ui.View) == views  # each was kept by a 15-minute timeout task
    await world.alice.slash(world.channel, "resign")
    await world.env.advance_time(1)
    assert live_round(world.env, game_id) is None
    assert kept_views(world) == views_before
    left = [t for t in asyncio.all_tasks() if t not in tasks_before]
    assert [t.get_name() for t in left] == ["sweep:wake"]  # one per process, from the first game
    assert world.bot.announcer.carriers.get(game_id) is None
    assert alive(discord.Interaction) == interactions
    assert alive(discord.ui.View) == views


def round_tasks(before: set[asyncio.Task[object]]) -> list[str]:
    return sorted(
        t.get_name() for t in asyncio.all_tasks() - before if t.get_name().startswith("round:")
    )


async def test_running_games_share_one_round_timer_and_each_round_still_ends_on_time(
    world,
) -> None:
    """Three private games wait on one task (the round timers' waker), not one each; each
    round still times out at its own deadline (a missed round ends a Training), and an
    answer moves that game's timer to its next round."""
    world.digits.extend("3489", "2476", "1234", "5678", "1357", "2468")
    before = asyncio.all_tasks()
    games = []
    for member in (world.alice, world.bob, world.carol):
        await member.slash(world.channel, "training")
        games.append(await game_id_of(world, member))
    assert round_tasks(before) == ["round:wake"]
    await world.env.advance_time(CLASSIC.time_limit / 2)
    rnd = live_round(world.env, games[0])
    assert rnd is not None and rnd.number == 1
    await answer(world.alice, latest(world, world.alice), rnd.digits)  # alice's round 2 opens
    await world.env.advance_time(CLASSIC.time_limit / 2 - 2)
    assert [getattr(live_round(world.env, g), "number", None) for g in games] == [2, 1, 1]
    await world.env.advance_time(3)  # past bob's and carol's deadlines, not alice's
    assert [getattr(live_round(world.env, g), "number", None) for g in games] == [2, None, None]
    assert round_tasks(before) == ["round:wake"]  # alice's round 2
    await world.alice.slash(world.channel, "resign")
    await world.env.advance_time(1)
    assert round_tasks(before) == []


async def test_a_running_private_game_keeps_its_followup_as_data_not_a_webhook(world) -> None:
    """A running private game keeps its player's interaction for the steps no interaction
    brings (a timeout, /resign): its token, id and posted messages (`KeptVia`), about 420
    bytes, not discord.py's `Webhook` (730 with it); a `Webhook` is built per call and let
    go. The kept token still carries the game: /resign ends its round's message through it."""
    webhooks = alive(discord.Webhook)
    world.digits.extend("3489", "2476")
    await world.alice.slash(world.channel, "training")
    game_id = await game_id_of(world, world.alice)
    rnd = live_round(world.env, game_id)
    assert rnd is not None
    await answer(world.alice, latest(world, world.alice), rnd.digits)
    kept = world.bot.announcer.carriers.get(game_id)
    assert kept is not None and kept.posted
    assert alive(discord.Webhook) == webhooks
    assert not hasattr(kept, "__dict__")
    posted = len(world.env.backend.http_requests)
    await world.alice.slash(world.channel, "resign")
    await world.env.advance_time(1)
    assert live_round(world.env, game_id) is None
    through_kept = [r for r in world.env.backend.http_requests[posted:] if kept.token in r.path]
    assert through_kept  # the round's message, edited by the token that posted it


async def test_ended_private_games_leave_no_entry_in_the_bots_per_game_structures(world) -> None:
    """What the bot keeps per game is let go when each game ends, however many end: its
    record among the active games, its kept interaction (`Carriers`), its round timer
    and the timers' heap. (A guard for issue 28's "nothing left behind": the bench's
    second batch of ended games leaves only bounded caches, docs/BENCHMARKS.md "mem3".)"""
    world.digits.extend("3489", "2476", "1234", "5678", "1357", "2468")
    players = (world.alice, world.bob, world.carol)
    games = []
    for member in players:
        await member.slash(world.channel, "training")
        game_id = await game_id_of(world, member)
        rnd = live_round(world.env, game_id)
        assert rnd is not None
        await answer(member, latest(world, member), rnd.digits)
        games.append(game_id)
    service, carriers = world.bot.service, world.bot.announcer.carriers
    assert all(carriers.get(g) is not None and service.flow.timers.armed(g) for g in games)
    for member in players:
        await member.slash(world.channel, "resign")
    await world.env.advance_time(1)
    assert len(service.active) == 0
    assert [g for g in games if carriers.get(g) is not None or service.flow.timers.armed(g)] == []
    assert service.flow.timers._timers._heap == []
