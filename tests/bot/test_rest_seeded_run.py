"""Issue 28's "done when" run on the faithful harness (tests/support/discord_rest.py),
with discord.py's real HTTPClient and the bot's REST layer (`RestBudget`, `with_retry`,
`Followups`): one server's threads under a 5-minute shared 429, a second channel's
followups under 429s, and a Cloudflare ban in the middle, while games in twenty other
channels post their rounds. Every game elsewhere keeps moving, each round is posted
exactly once (a refused post is tried again later, as `Shows` does), a start in the
limited channel is told at once how long to wait with nothing used, and the ban is
probed one call at a time. The harness runs in real time, so the ban is 2 s, not 60;
the 5-minute 429 is whole (it outlasts the run, as it would). Seeded: the order in
which the games take turns comes from the seed."""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from collections.abc import AsyncIterator
from typing import Any

import discord
import discord.http
import pytest
import pytest_asyncio

from bot.games._discord import (
    BucketBusy,
    RestBudget,
    RestBusy,
    response_trace,
    threads_in,
    with_retry,
)
from bot.games._followups import Followups
from bot.games._riding import KeptVia
from bot.play._ban import Banned
from tests.support.discord_rest import LONG_429, DiscordRest

pytestmark = pytest.mark.asyncio(loop_scope="function")

SEED = 28
GAMES = 20
ROUNDS = 6
LIMITED_GUILD, LIMITED_CHANNEL = 1, 7
FOLLOWUP_CHANNEL = 8
REPOST_AFTER_S = 0.3
"""A refused round post is tried again after this (`Shows`' REPOST_AFTER_S, scaled)."""


@pytest_asyncio.fixture
async def client(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[tuple[Any, ...]]:
    async with DiscordRest(global_limit=500) as server:
        monkeypatch.setattr(discord.http.Route, "BASE", server.route_base)
        budget = RestBudget(time.monotonic, global_limit=500, ban_backoff_s=0.5)
        made = discord.Client(
            intents=discord.Intents.none(), http_trace=response_trace(budget),
            max_ratelimit_timeout=30.0,
        )  # fmt: skip
        await made.http.static_login("test-token")
        try:
            yield server, budget, made
        finally:
            await made.http.close()


async def test_a_limited_channel_a_followup_429_and_a_ban_cost_no_game_elsewhere(
    client: tuple[Any, ...],
) -> None:
    server, budget, made = client
    rng = random.Random(SEED)
    server.guild_of.update({LIMITED_CHANNEL: LIMITED_GUILD})
    server.limit_threads(LIMITED_GUILD, 300.0)
    refused: list[str] = []

    async def round_post(channel_id: int, number: int) -> None:
        """One round's post, tried again until Discord takes it (its nonce: once)."""
        channel = made.get_partial_messageable(channel_id)
        nonce = secrets.token_hex(8)
        for _ in range(200):  # bounded: 60 s of retries at most
            try:
                await with_retry(
                    lambda: channel.send(f"round {number}", nonce=nonce), "round", budget,
                    deadline_s=1.0,
                )  # fmt: skip
                return
            except (RestBusy, Banned, discord.HTTPException) as error:
                refused.append(type(error).__name__)
                await asyncio.sleep(REPOST_AFTER_S)
        raise AssertionError(f"round {number} in {channel_id} never posted")

    async def game(channel_id: int) -> None:
        for number in range(1, ROUNDS + 1):
            await asyncio.sleep(rng.uniform(0.0, 0.3))
            await round_post(channel_id, number)

    async def ban_in_the_middle() -> None:
        await asyncio.sleep(0.8)
        server.ban(2.0)

    session = made.http._HTTPClient__session  # type: ignore[attr-defined]
    webhook = discord.Webhook.partial(1, "tok8", session=session)
    kept = KeptVia(webhook, time.monotonic, time.monotonic(), FOLLOWUP_CHANNEL)
    followups = Followups(budget, cap_s=0.5)
    server.fail("POST", r"/webhooks/1/tok8", [LONG_429, LONG_429, LONG_429])

    channels = [100 + i for i in range(GAMES)]
    rng.shuffle(channels)
    runs = [asyncio.create_task(game(c)) for c in channels]
    ban = asyncio.create_task(ban_in_the_middle())

    # a start in the limited channel: told at once how long to wait, nothing made
    http = made.http
    start = lambda: http.start_thread_with_message(  # noqa: E731
        LIMITED_CHANNEL, 5, name="game", auto_archive_duration=60
    )
    with pytest.raises(BucketBusy) as busy:
        await with_retry(start, "thread", budget, bucket=threads_in(LIMITED_CHANNEL))
    assert busy.value.params == {"minutes": 5}
    with pytest.raises(BucketBusy):  # again: told without a request
        await with_retry(start, "thread", budget, bucket=threads_in(LIMITED_CHANNEL))
    # the followup channel: its 429 is given up at the cap, not waited out for 60 s
    with pytest.raises(RestBusy):
        await followups.post(lambda: kept.post(content="round 1"), "round 1 in 8")

    await asyncio.wait_for(asyncio.gather(*runs, ban), 90.0)
    for channel_id in channels:  # every game elsewhere moved on: each round once
        assert [m["content"] for m in server.messages[channel_id]] == [
            f"round {n}" for n in range(1, ROUNDS + 1)
        ], channel_id
    assert server.count("POST", rf"/channels/{LIMITED_CHANNEL}/messages/5/threads") == 1
    assert followups.late == 1
    games = tuple(f"/channels/{c}/" for c in channels)
    bans = [s for s in server.seen if s.status == 429 and s.path.startswith(games)]
    # the calls in flight when it began, then one probe at a time (0.5, 1, 2 s apart)
    assert bans and len(bans) <= GAMES + 4, bans
    assert budget.ban.bans == 1 and not budget.stats().banned  # one ban, met and left
