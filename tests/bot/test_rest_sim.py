"""The bot-token budget in the running bot (simcord): a backlog refuses new games in the
player's language instead of queueing them, and a 429 that reaches the bot is never
retried by hand while the game it hit loses nothing."""

from __future__ import annotations

import pytest

from bot.games._discord import PauseKind
from tests.support.sim import reply_text, speak

pytestmark = pytest.mark.asyncio(loop_scope="session")


def bot_token_calls(env, since: int) -> list[str]:
    return [
        f"{r.method} {r.path}"
        for r in env.http_requests[since:]
        if not r.path.startswith(("/interactions/", "/webhooks/"))
    ]


async def test_a_backlog_refuses_new_games_in_the_players_language(world) -> None:
    budget = world.bot.budget
    budget.pause(60.0, PauseKind.LONG)  # as a 429 of a minute does
    since = len(world.env.http_requests)
    english = await world.alice.slash(world.channel, "training")
    assert "try again in a minute" in reply_text(english)
    speak(world.env, world.bob, "uk")
    ukrainian = await world.bob.slash(world.channel, "qualification")
    assert "Спробуйте ще раз за хвилину" in reply_text(ukrainian)
    duel = await world.alice.slash(world.channel, "duel", opponent=world.carol)
    assert "try again in a minute" in reply_text(duel)
    assert bot_token_calls(world.env, since) == []  # nothing queued, no thread made
    assert await world.store.games.active_game_of(world.guild.id, world.alice.id) is None
    assert budget.stats().refused_starts == 3
    await world.env.advance_time(61)
    world.digits.extend("3489")
    started = await world.alice.slash(world.channel, "training")
    assert "Your game is in" in reply_text(started)


async def test_a_429_on_round_1_is_not_retried_by_hand_and_pauses_every_call(world) -> None:
    """simcord's 429 is what discord.py raises (Cloudflare's, or its tries ran out): the
    post is not tried again by hand, every bot-token call pauses, the game is saved."""
    world.digits.extend("3489", "2476")
    world.env.inject_error("POST", "/channels/*/messages", status=429, times=1)
    since = len(world.env.http_requests)
    await world.alice.slash(world.channel, "training")
    posts = [c for c in bot_token_calls(world.env, since) if c.endswith("/messages")]
    assert len(posts) == 1
    assert world.bot.budget.stats().pauses[PauseKind.CLOUDFLARE] == 1
    game = await world.store.games.active_game_of(world.guild.id, world.alice.id)
    assert game is not None and len(game.state.rounds) == 1
    world.env._errors_acknowledged = len(world.env.errors)  # the failed post was logged


async def test_a_round_whose_post_hit_a_429_is_posted_after_the_pause(world) -> None:
    world.digits.extend("3489", "2476")
    world.env.inject_error("POST", "/channels/*/messages", status=429, times=1)
    await world.alice.slash(world.channel, "training")
    game = await world.store.games.active_game_of(world.guild.id, world.alice.id)
    assert game is not None
    world.env._errors_acknowledged = len(world.env.errors)
    await world.env.advance_time(30)
    stored = await world.store.games.load_game(game.state.id)
    assert stored is not None and stored.meta.round_message_id is not None
    assert stored.state.outcome is None


async def test_a_share_is_refused_while_optional_traffic_is_stopped(world) -> None:
    """Past the invalid-request limit a share says "try again" and gives its claim back:
    once traffic resumes, the same press posts it."""
    from tests.support.sim import answer, button_id

    world.digits.extend("7001")
    await world.alice.slash(world.channel, "training")
    thread = world.thread()
    await answer(world.alice, thread.last_message, "700+1")
    summary = thread.last_message
    share_id = button_id(summary, "fd:share:")
    budget = world.bot.budget
    for _ in range(budget.invalid_limit):
        budget.saw_status(403)
    before = len(world.channel.history())
    refused = await world.alice.click(summary, custom_id=share_id)
    assert "nothing was posted. Please try again in a minute" in reply_text(refused)
    assert len(world.channel.history()) == before
    await world.env.advance_time(601)  # the 403s are older than ten minutes now
    shared = await world.alice.click(summary, custom_id=share_id)
    assert "Shared in" in reply_text(shared)
    assert len(world.channel.history()) == before + 1
