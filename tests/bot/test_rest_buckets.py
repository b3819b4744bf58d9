"""A 429 pauses only what it names (issue 28): a long 429 of one bucket (thread creation
in one channel, as Discord's shared-scope limit on a server's threads answers) holds
that bucket alone. Games and starts elsewhere go on; a start in the limited channel is
told how many minutes to wait, in the player's language, with nothing used; a private
start is never refused for a bot-token backlog it does not use.

simcord replaces discord.py's `HTTPClient.request`, so the 429 is raised here as
discord.py raises one longer than `max_ratelimit_timeout`: `discord.RateLimited`.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.games._discord import PauseKind
from bot.settings import BotSettings
from tests.bot.games.test_interaction_rounds import bot_token_calls
from tests.support.sim import reply_text, speak

pytestmark = pytest.mark.asyncio(loop_scope="session")

THREAD_ROUTES = (
    "/channels/{channel_id}/threads",
    "/channels/{channel_id}/messages/{message_id}/threads",
)


class ThreadLimit:
    """Thread creation in one channel answered as Discord does under a long shared 429:
    discord.py raises `RateLimited` with the time left, the request counted."""

    def __init__(self, world: Any, channel_id: int, seconds: float) -> None:
        self.clock = world.bot.budget.clock
        self.until = self.clock() + seconds
        self.channel_id = channel_id
        self.refused = 0
        http = world.bot.http
        real = http.request

        async def request(route: discord.http.Route, **kwargs: Any) -> Any:
            limited = route.method == "POST" and route.path in THREAD_ROUTES
            if limited and route.channel_id == self.channel_id and self.clock() < self.until:
                self.refused += 1
                raise discord.RateLimited(self.until - self.clock())
            return await real(route, **kwargs)

        http.request = request


def threads_made(world: Any, since: int) -> list[str]:
    return [c for c in bot_token_calls(world.env, since) if c.endswith("/threads")]


async def test_a_long_429_on_one_channels_threads_holds_that_channel_alone(world) -> None:
    limit = ThreadLimit(world, world.channel.id, 300.0)
    elsewhere = world.env.create_guild("Other Club")
    other = elsewhere.create_text_channel("games")
    dave = elsewhere.add_member(world.env.create_user("dave"))
    world.digits.extend("3489", "2476")

    since = len(world.env.http_requests)
    refused = await world.alice.slash(world.channel, "training")
    assert limit.refused == 1
    assert await world.store.games.active_game_of(world.guild.id, world.alice.id) is None

    started = await dave.slash(other, "training")  # another server: its game goes
    assert "Your game is in" in reply_text(started), reply_text(started)
    assert len(other.threads) == 1 and other.threads[0].history()
    assert world.bot.budget.stats().pauses[PauseKind.LONG] == 0
    assert world.bot.budget.delay_s() < 1.0  # no bot-token call of the process waits

    assert "try again in 5 minutes" in reply_text(refused), reply_text(refused)
    assert not world.channel.threads
    assert [m for m in world.channel.history() if not m.flags.ephemeral] == []  # notice gone

    speak(world.env, world.bob, "uk")
    before = len(world.env.http_requests)
    again = await world.bob.slash(world.channel, "training")
    assert "Спробуйте ще раз за 5 хвилин" in reply_text(again), reply_text(again)
    assert threads_made(world, before) == []  # told at once: no 429 asked for again
    assert await world.store.games.active_game_of(world.guild.id, world.bob.id) is None
    assert limit.refused == 1  # alice's alone: the 429 was not asked for again
    assert len(threads_made(world, since)) == 1  # dave's

    await world.env.advance_time(301)
    later = await world.alice.slash(world.channel, "training")
    assert "Your game is in" in reply_text(later), reply_text(later)
    assert len(world.channel.threads) == 1


async def test_a_qualification_refused_for_a_held_channel_keeps_its_attempt(world) -> None:
    ThreadLimit(world, world.channel.id, 90.0)
    refused = await world.alice.slash(world.channel, "qualification")
    assert "try again in 2 minutes" in reply_text(refused), reply_text(refused)
    await world.env.advance_time(91)
    world.digits.extend("3489")
    started = await world.alice.slash(world.channel, "qualification")
    assert "Your game is in" in reply_text(started) or "<#" in reply_text(started)
    game = await world.store.games.active_game_of(world.guild.id, world.alice.id)
    assert game is not None and game.state.mode.value == "qualification"


class TestPrivateStarts:
    """A private game rides its player's interactions: a backlog of bot-token calls, or
    a held channel, refuses none of its starts."""

    @pytest.fixture
    def settings(self, settings: BotSettings) -> BotSettings:
        from bot.settings import SoloGames

        return settings.model_copy(update={"solo_games": SoloGames.PRIVATE})

    async def test_a_private_start_is_not_refused_for_a_backlog_it_does_not_use(
        self, world
    ) -> None:
        world.bot.budget.pause(60.0, PauseKind.LONG)
        ThreadLimit(world, world.channel.id, 300.0)
        since = len(world.env.http_requests)
        started = await world.alice.slash(world.channel, "training")
        assert "try again" not in reply_text(started), reply_text(started)
        game = await world.store.games.active_game_of(world.guild.id, world.alice.id)
        assert game is not None and game.meta.private
        assert bot_token_calls(world.env, since) == []
        assert world.bot.budget.stats().refused_starts == 0
