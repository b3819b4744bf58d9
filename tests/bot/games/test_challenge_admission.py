"""Accepting a challenge starts a game, and a Rematch asks for one (issue 20): while the
bot-token backlog would show a first round late, or Discord will not make the duel's
thread, the player hears "try again" in their language and nothing is used up -- the
challenge stays open, the Rematch can be pressed again."""

from __future__ import annotations

import discord
import pytest

from bot.games._discord import PauseKind
from bot.storage import ChallengeStatus
from tests.support.sim import button_id, public_message, reply_text, speak

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def challenge_of(world, challenger, opponent):
    posted = await challenger.slash(world.channel, "duel", opponent=opponent)
    offer = public_message(posted)
    challenge_id = button_id(offer, "fd:duel:yes:").removeprefix("fd:duel:yes:")
    return offer, challenge_id


async def status(world, challenge_id: str) -> ChallengeStatus:
    challenge = await world.store.challenges.load_challenge(challenge_id)
    assert challenge is not None
    return challenge.status


async def test_a_backlog_refuses_an_accept_and_leaves_the_challenge_open(world) -> None:
    offer, challenge_id = await challenge_of(world, world.alice, world.bob)
    world.bot.budget.pause(60.0, PauseKind.LONG)  # as a 429 of a minute does
    refused = await world.bob.click(offer, custom_id=button_id(offer, "fd:duel:yes:"))
    assert "try again in a minute" in reply_text(refused)
    assert world.channel.threads == []
    assert await status(world, challenge_id) is ChallengeStatus.PENDING
    speak(world.env, world.bob, "uk")
    again = await world.bob.click(offer, custom_id=button_id(offer, "fd:duel:yes:"))
    assert "Спробуйте ще раз за хвилину" in reply_text(again)
    await world.env.advance_time(61)
    world.digits.extend("3489")
    await world.bob.click(offer, custom_id=button_id(offer, "fd:duel:yes:"))
    assert await status(world, challenge_id) is ChallengeStatus.ACCEPTED
    assert "round 1 of" in world.thread().last_message.embeds[0].title


async def test_a_thread_discord_rate_limits_at_the_accept_leaves_the_challenge_open(
    world, monkeypatch
) -> None:
    offer, challenge_id = await challenge_of(world, world.alice, world.bob)

    async def limited(self, **kwargs):
        raise discord.RateLimited(120.0)

    monkeypatch.setattr(discord.PartialMessage, "create_thread", limited)
    refused = await world.bob.click(offer, custom_id=button_id(offer, "fd:duel:yes:"))
    assert "try again in 2 minutes" in reply_text(refused)
    assert await status(world, challenge_id) is ChallengeStatus.PENDING
    assert await world.store.games.active_game_of(world.guild.id, world.bob.id) is None
    monkeypatch.undo()
    await world.env.advance_time(121)  # the pause the 429 set is over
    world.digits.extend("3489")
    await world.bob.click(offer, custom_id=button_id(offer, "fd:duel:yes:"))
    assert await status(world, challenge_id) is ChallengeStatus.ACCEPTED
    assert await world.store.games.active_game_of(world.guild.id, world.bob.id) is not None


async def test_a_backlog_refuses_a_rematch_and_it_can_be_pressed_again(world) -> None:
    offer, _ = await challenge_of(world, world.alice, world.bob)
    world.digits.extend("3489")
    await world.bob.click(offer, custom_id=button_id(offer, "fd:duel:yes:"))
    thread = world.thread()
    game = await world.store.games.active_game_of(world.guild.id, world.bob.id)
    await world.bob.slash(thread, "resign")
    summary = next(m for m in thread.history() if m.components)
    rematch_id = button_id(summary, "fd:rematch:")
    world.bot.budget.pause(60.0, PauseKind.LONG)
    refused = await world.alice.click(summary, custom_id=rematch_id)
    assert "try again in a minute" in reply_text(refused)
    assert await world.store.challenges.rematch_of(game.state.id) is None  # not used up
    await world.env.advance_time(61)
    summary = next(m for m in thread.history() if m.id == summary.id)
    asked = await world.alice.click(summary, custom_id=button_id(summary, "fd:rematch:"))
    assert "Rematch challenge posted" in reply_text(asked)
    assert await world.store.challenges.rematch_of(game.state.id) is not None


async def test_a_backlog_refuses_accepting_a_rematch_and_leaves_it_open(world) -> None:
    offer, _ = await challenge_of(world, world.alice, world.bob)
    world.digits.extend("3489", "2476")
    await world.bob.click(offer, custom_id=button_id(offer, "fd:duel:yes:"))
    thread = world.thread()
    await world.bob.slash(thread, "resign")
    summary = next(m for m in thread.history() if m.components)
    await world.alice.click(summary, custom_id=button_id(summary, "fd:rematch:"))
    rematch = world.channel.last_message
    accept = button_id(rematch, "fd:duel:yes:")
    world.bot.budget.pause(60.0, PauseKind.LONG)
    refused = await world.bob.click(rematch, custom_id=accept)
    assert "try again in a minute" in reply_text(refused)
    assert await status(world, accept.removeprefix("fd:duel:yes:")) is ChallengeStatus.PENDING
    await world.env.advance_time(61)
    await world.bob.click(rematch, custom_id=accept)
    assert await status(world, accept.removeprefix("fd:duel:yes:")) is ChallengeStatus.ACCEPTED
