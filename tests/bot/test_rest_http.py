"""The bot's REST layer (`RestBudget`, `with_retry`, `response_trace`) through discord.py's
real `HTTPClient`, against a local server that speaks Discord's rate-limit protocol
(tests/support/discord_rest.py): the buckets, the global limit, 5xx bursts, 429s of
every kind, 403s. Loopback only; every loop is bounded.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import aiohttp
import discord
import discord.http
import pytest
import pytest_asyncio

from bot.games._discord import (
    BucketBusy,
    Lane,
    PauseKind,
    RestBudget,
    RestBusy,
    posts_in,
    response_trace,
    threads_in,
    with_retry,
)
from bot.play._ban import Banned
from tests.support.discord_rest import CLOUDFLARE, LONG_429, DiscordRest

pytestmark = pytest.mark.asyncio(loop_scope="function")

MAX_RATELIMIT_TIMEOUT = 30.0


def monotonic() -> float:
    return time.monotonic()


class Rest:
    """One discord.py client logged in to the server, with the bot's budget on it."""

    def __init__(self, server: DiscordRest, budget: RestBudget, client: discord.Client) -> None:
        self.server = server
        self.budget = budget
        self.client = client
        self.errors: list[int] = []

    def post(self, channel_id: int, content: str, nonce: str | None = None) -> Any:
        channel = self.client.get_partial_messageable(channel_id)
        chosen = nonce or secrets.token_hex(8)
        return lambda: channel.send(content, nonce=chosen)


async def _rest(
    server: DiscordRest, monkeypatch: pytest.MonkeyPatch, **budget: Any
) -> AsyncIterator[Rest]:
    monkeypatch.setattr(discord.http.Route, "BASE", server.route_base)  # this test's only
    errors: list[int] = []
    made = RestBudget(monotonic, on_error=errors.append, **budget)
    client = discord.Client(
        intents=discord.Intents.none(),
        http_trace=response_trace(made),
        max_ratelimit_timeout=MAX_RATELIMIT_TIMEOUT,
    )
    await client.http.static_login("test-token")
    rest = Rest(server, made, client)
    rest.errors = errors
    try:
        yield rest
    finally:
        await client.http.close()


@pytest_asyncio.fixture
async def rest(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Rest]:
    async with DiscordRest() as server:
        async for made in _rest(server, monkeypatch):
            yield made


async def _bounded(awaitable: Any, seconds: float = 60.0) -> Any:
    return await asyncio.wait_for(awaitable, seconds)


async def test_a_round_posted_under_a_503_burst_is_posted_once(rest: Rest) -> None:
    """discord.py raises a 503 at once; `with_retry` is the layer that retries it, and the
    nonce makes a retried post that had landed count once."""
    rest.server.fail("POST", r"/channels/7/messages", [503, 503, 503])
    message = await _bounded(with_retry(rest.post(7, "round 1"), "round 1", rest.budget))
    assert message.content == "round 1"
    assert rest.server.count("POST", r"/channels/7/messages") == 4
    assert len(rest.server.messages[7]) == 1
    assert rest.errors == [503, 503, 503]


async def test_a_500_burst_is_retried_by_discord_py_alone(rest: Rest) -> None:
    """discord.py tries a 500 five times itself (1, 3, 5, 7, 9 s apart); the bot adds no
    tries on top: at the deadline the caller is let go (here 3 s) and the server has
    seen discord.py's tries only (old code: up to 25 tries over 90 s under a lock)."""
    rest.server.fail("POST", r"/channels/8/messages", [500] * 10)
    calls: list[int] = []
    post = rest.post(8, "round 1")

    def counted() -> Any:
        calls.append(1)
        return post()

    with pytest.raises(RestBusy):
        await _bounded(with_retry(counted, "round 1", rest.budget, deadline_s=3.0))
    assert calls == [1]
    assert 1 <= rest.server.count("POST", r"/channels/8/messages") <= 3
    await rest.server.close()  # the try left in discord.py's hands now fails and ends


async def test_a_cloudflare_429_pauses_every_call_and_is_not_retried(rest: Rest) -> None:
    rest.server.fail("POST", r"/channels/9/messages", [CLOUDFLARE])
    with pytest.raises(discord.HTTPException) as raised:
        await _bounded(with_retry(rest.post(9, "round 1"), "round 1", rest.budget))
    assert raised.value.status == 429
    assert rest.server.count("POST", r"/channels/9/messages") == 1  # never retried by hand
    stats = rest.budget.stats()
    assert stats.pauses[PauseKind.CLOUDFLARE] == 1
    assert rest.budget.delay_s() > 1.0  # every bot-token call now waits out Retry-After (2 s)
    assert rest.budget.admit_start()  # a 2 s pause still shows a new game's round in time


async def test_a_429_longer_than_max_ratelimit_timeout_holds_its_bucket_alone(rest: Rest) -> None:
    rest.server.fail("POST", r"/channels/10/messages", [LONG_429])
    with pytest.raises(BucketBusy):
        await _bounded(
            with_retry(rest.post(10, "round 1"), "round 1", rest.budget, bucket=posts_in(10))
        )
    assert rest.server.count("POST", r"/channels/10/messages") == 1
    assert rest.budget.stats().pauses[PauseKind.BUCKET] == 1
    assert rest.budget.held_s(posts_in(10)) > MAX_RATELIMIT_TIMEOUT  # held for its 60 s
    assert rest.budget.delay_s() < 1.0  # every other call goes
    assert rest.budget.admit_start()
    other = await _bounded(
        with_retry(rest.post(11, "round 1"), "round 1", rest.budget, bucket=posts_in(11))
    )
    assert other.content == "round 1"


async def test_a_route_bucket_is_waited_out_by_discord_py_without_a_429(rest: Rest) -> None:
    """Ten posts in one channel, whose bucket allows five a second: discord.py reads the
    headers and waits; the server answers no 429."""
    posts = [with_retry(rest.post(11, f"m{i}"), "post", rest.budget) for i in range(10)]
    await _bounded(asyncio.gather(*posts))
    assert len(rest.server.messages[11]) == 10
    assert 429 not in rest.server.statuses()


async def test_a_thousand_games_stay_under_the_global_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """1,000 games' round posts at once, each in its own thread: the budget spaces them
    below the global limit, so the server answers no 429 and nothing is retried. Time
    runs ten times faster than Discord's (500 requests/s on both sides), same shape."""
    async with DiscordRest(global_limit=500) as server:
        async for rest in _rest(server, monkeypatch, global_limit=500):
            posts = [
                with_retry(rest.post(100_000 + game, "round 1"), "round", rest.budget)
                for game in range(1000)
            ]
            sent = await _bounded(asyncio.gather(*posts, return_exceptions=True), 120.0)
            assert all(isinstance(message, discord.Message) for message in sent)
            assert server.count("POST", r"/channels/\d+/messages", 200) == 1000  # once each
            assert rest.errors == []  # no failure reached with_retry: nothing retried by hand
            # the budget spends 80 % of the limit; only a stalled event loop (a loaded
            # machine) can bunch its calls into a global 429, which discord.py waits out
            assert sum(1 for s in server.seen if s.status == 429) < 20


async def test_without_the_budget_the_global_limit_answers_429s(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The harness is real: the same posts without the budget meet global 429s, which
    discord.py waits out itself, each request for five tries at most (some run out
    and raise the 429); the trace pauses the budget and counts them."""
    async with DiscordRest(global_limit=100) as server:
        async for rest in _rest(server, monkeypatch):
            posts = [rest.post(200_000 + game, "round 1")() for game in range(300)]
            sent = await _bounded(asyncio.gather(*posts, return_exceptions=True), 120.0)
            failed = [r for r in sent if isinstance(r, discord.HTTPException)]
            assert all(error.status == 429 for error in failed)
            assert sum(1 for s in server.seen if s.is_global) > 0
            assert rest.budget.stats().pauses[PauseKind.GLOBAL] > 0
            assert rest.budget.invalid_recent() > 0


async def test_invalid_requests_stop_optional_traffic(monkeypatch: pytest.MonkeyPatch) -> None:
    """403s pile up (a channel the bot lost): past the limit the optional lane refuses,
    loudly, and the games' lane still goes."""
    async with DiscordRest() as server:
        async for rest in _rest(server, monkeypatch, invalid_limit=20):
            for i in range(20):
                server.fail("POST", rf"/channels/{300 + i}/messages", [403])
                with pytest.raises(discord.Forbidden):
                    await _bounded(with_retry(rest.post(300 + i, "x"), "lost", rest.budget))
            assert rest.budget.invalid_recent() == 20
            assert not rest.budget.optional_allowed()
            share: Callable[[], Any] = rest.post(400, "a share")
            with pytest.raises(RestBusy):
                await with_retry(share, "share", rest.budget, lane=Lane.OPTIONAL)
            assert server.count("POST", r"/channels/400/messages") == 0
            await _bounded(with_retry(rest.post(401, "round"), "round", rest.budget))
            assert rest.budget.stats().refused_calls[Lane.OPTIONAL] == 1


async def test_why_the_deadline_never_cancels_a_try(monkeypatch: pytest.MonkeyPatch) -> None:
    """Cancelling a discord.py request while it waits out a global 429 leaves discord.py's
    global lock shut: every later request of the process waits forever. `with_retry`'s
    deadline lets the caller go and leaves the try alone, so later requests still go."""
    async with DiscordRest(global_limit=1) as server:
        async for rest in _rest(server, monkeypatch, global_limit=1000):
            cancelled = asyncio.create_task(rest.post(500, "a")())  # the login filled the second
            global_over = rest.client.http._global_over  # discord.py's global lock
            for _ in range(200):  # until discord.py waits out the server's global 429
                if not global_over.is_set():
                    break
                await asyncio.sleep(0.005)
            assert not global_over.is_set()
            cancelled.cancel()
            with pytest.raises(asyncio.TimeoutError):  # shut for good
                await asyncio.wait_for(rest.post(501, "b")(), 3.0)
    async with DiscordRest(global_limit=1) as server:
        async for rest in _rest(server, monkeypatch, global_limit=1000):
            with pytest.raises(RestBusy):
                await with_retry(rest.post(502, "a"), "a", rest.budget, deadline_s=0.2)
            later = await _bounded(with_retry(rest.post(503, "b"), "b", rest.budget), 10.0)
            assert later.content == "b"


# ------------------------------------------------ the harness is faithful (issue 28)


async def _raw(server: DiscordRest, method: str, path: str) -> tuple[int, Any, str]:
    """One request as anyone would send it: status, headers, body."""
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, server.route_base + path, json={}) as response,
    ):
        return response.status, response.headers, await response.text()


async def test_the_harness_limits_thread_creation_per_server_in_shared_scope() -> None:
    async with DiscordRest(guild_of={7: 1, 9: 1, 20: 2}) as server:
        server.limit_threads(1, 300.0)
        for path in ("/channels/7/threads", "/channels/9/messages/5/threads"):
            status, headers, body = await _raw(server, "POST", path)
            assert status == 429
            assert headers["X-RateLimit-Scope"] == "shared"
            assert headers["Retry-After"] in {"299", "300"}  # whole seconds, as Discord's
            assert 299.0 < float(json.loads(body)["retry_after"]) <= 300.0
        status, _, _ = await _raw(server, "POST", "/channels/20/threads")  # another server
        assert status == 200


async def test_the_harness_shares_a_bucket_hash_across_routes() -> None:
    async with DiscordRest(bucket_limit=2) as server:
        _, first, _ = await _raw(server, "POST", "/channels/7/threads")
        _, second, _ = await _raw(server, "POST", "/channels/7/messages/5/threads")
        assert first["X-RateLimit-Bucket"] == second["X-RateLimit-Bucket"]
        status, headers, _ = await _raw(server, "POST", "/channels/7/messages/6/threads")
        assert status == 429 and headers["X-RateLimit-Scope"] == "user"
        status, _, _ = await _raw(server, "POST", "/channels/8/threads")  # its own major
        assert status == 200


async def test_the_harness_keeps_interactions_outside_the_global_limit() -> None:
    async with DiscordRest(global_limit=2) as server:
        for channel in (1, 2):
            assert (await _raw(server, "POST", f"/channels/{channel}/messages"))[0] == 200
        assert (await _raw(server, "POST", "/channels/3/messages"))[0] == 429
        assert (await _raw(server, "POST", "/webhooks/1/abc/messages"))[0] == 200
        assert (await _raw(server, "POST", "/interactions/1/abc/callback"))[0] == 200


async def test_the_harness_bans_like_cloudflare() -> None:
    async with DiscordRest() as server:
        server.ban(60.0)
        for path in ("/channels/1/messages", "/webhooks/1/abc"):
            status, headers, body = await _raw(server, "POST", path)
            assert status == 429 and body.startswith("<html>")
            assert "Retry-After" not in headers and "Via" not in headers
            assert not any(name.lower().startswith("x-ratelimit") for name in headers)


async def test_a_servers_thread_limit_holds_its_channels_alone(rest: Rest) -> None:
    """A shared 429 on thread creation holds that channel's threads: a post elsewhere goes
    at once, nothing of the process pauses, and a shared 429 is no invalid request."""
    rest.server.guild_of.update({7: 1, 9: 1})
    rest.server.limit_threads(1, 300.0)
    http = rest.client.http

    def thread_in(channel: int) -> Callable[[], Any]:
        return lambda: http.start_thread_with_message(
            channel, 5, name="game", auto_archive_duration=60
        )

    with pytest.raises(BucketBusy) as busy:
        await _bounded(with_retry(thread_in(7), "thread", rest.budget, bucket=threads_in(7)))
    assert busy.value.params == {"minutes": 5}
    with pytest.raises(BucketBusy):  # told at once
        await _bounded(with_retry(thread_in(7), "thread", rest.budget, bucket=threads_in(7)))
    assert rest.server.count("POST", r"/channels/7/messages/5/threads") == 1
    with pytest.raises(BucketBusy):  # the same server's other channel: one shared 429
        await _bounded(with_retry(thread_in(9), "thread", rest.budget, bucket=threads_in(9)))
    posted = await _bounded(with_retry(rest.post(8, "round 2"), "round", rest.budget))
    assert posted.content == "round 2"
    assert rest.budget.delay_s() < 1.0
    assert rest.budget.invalid_recent() == 0  # shared scope: not counted toward a ban


async def test_a_ban_stops_every_call_with_one_probe_at_a_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 28: a ban's 429 paused bot-token calls 1 s and they burst again (100
    requests into a 10 s ban), and webhooks (interaction followups) never stopped. Now
    every call stops, bot token and webhook; probes go one at a time, 0.5, 1 and 2 s
    apart here; the first answered one ends the ban."""
    async with DiscordRest() as server:
        async for rest in _rest(server, monkeypatch, ban_backoff_s=0.5):
            session = rest.client.http._HTTPClient__session  # type: ignore[attr-defined]
            followups = discord.Webhook.partial(1, "token", session=session)  # as interactions'
            server.ban(3.0)
            answered = 0
            end = monotonic() + 4.5
            while monotonic() < end:
                calls = (
                    with_retry(rest.post(7, "round"), "round", rest.budget, deadline_s=0.2),
                    followups.send("round"),
                )
                for call in calls:
                    try:
                        await _bounded(call, 10.0)
                        answered += 1
                    except (discord.HTTPException, RestBusy, Banned):
                        pass
                await asyncio.sleep(0.02)
            bans = [s for s in server.seen if s.status == 429]
            assert 2 <= len(bans) <= 4, bans  # the first, then a probe per backoff
            assert rest.budget.invalid_recent() == len(bans)  # toward the 10,000 / 10 min
            assert answered > 0  # the probe after the ban ended it
            stats = rest.budget.stats()
            assert not stats.banned
            assert stats.ban_refused > 20  # refused unsent, bot token and webhook alike
            assert any(s.path.startswith("/webhooks/") and s.status == 200 for s in server.seen)


async def test_a_discord_429_whose_tries_ran_out_is_no_ban(rest: Rest) -> None:
    """A 429 with Discord's headers that discord.py's tries ran out on holds the bucket;
    nothing stops."""
    rest.server.fail("POST", r"/channels/12/messages", [LONG_429])
    with pytest.raises(BucketBusy):
        await _bounded(with_retry(rest.post(12, "x"), "x", rest.budget, bucket=posts_in(12)))
    assert not rest.budget.stats().banned
