"""Discord's limits on simcord, for the whole bot (`SimLimits`): a channel's threads
under a long shared 429, a channel's followups under 429s, a Cloudflare ban.

simcord replaces discord.py's HTTP client and webhook adapter, so the bot's aiohttp
trace (`response_trace`), which sees every response in production, never runs. Here
every request passes through that same trace, built on the bot's own budget, before
and after it: a ban refuses a request before it leaves (`Banned`, one probe at a
time), every status counts toward the invalid-request window, a webhook's 429 holds
its interaction's followups. The faults answer as Discord does: a thread creation in
a limited channel raises `discord.RateLimited` (discord.py's own answer to a 429
longer than `max_ratelimit_timeout`), a followup 429 carries Retry-After and shared
scope, a ban's 429 has no rate-limit headers and an HTML body. Every request made is
recorded with its virtual moment, so a test can say what was sent into what."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import discord
import pytest
import simcord
import simcord.http
from yarl import URL

from bot.games._discord import RestBudget, response_trace

THREADS = re.compile(r"^/channels/(\d+)/(messages/\d+/)?threads$")
WEBHOOK = re.compile(r"^/webhooks/\d+/([^/]+)(/messages/.*)?$")


@dataclass(frozen=True)
class Sent:
    at: float
    method: str
    path: str
    status: int
    channel_id: int | None


class _Answer:
    """Enough of aiohttp's response for the trace and discord.HTTPException."""

    def __init__(self, status: int, headers: dict[str, str], content_type: str) -> None:
        self.status = status
        self.reason = "Too Many Requests" if status == 429 else "OK"
        self.headers = headers
        self.content_type = content_type


@dataclass
class SimLimits:
    env: simcord.Env
    budget: RestBudget
    clock: Callable[[], float]
    threads_until: dict[int, float] = field(default_factory=dict)
    followups_until: dict[int, float] = field(default_factory=dict)
    ban: tuple[float, float] = (0.0, 0.0)
    sent: list[Sent] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.trace = response_trace(self.budget)

    # ------------------------------------------------------------ the faults

    def limit_threads(self, channel_id: int, seconds: float) -> None:
        self.threads_until[channel_id] = self.clock() + seconds

    def limit_followups(self, channel_id: int, seconds: float) -> None:
        self.followups_until[channel_id] = self.clock() + seconds

    def ban_for(self, seconds: float) -> None:
        self.ban = (self.clock(), self.clock() + seconds)

    def banned(self) -> bool:
        return self.ban[0] <= self.clock() < self.ban[1]

    # ---------------------------------------------------------- the transport

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        bot_token = simcord.http.FakeHTTPClient.request
        webhooks = simcord.http.FakeWebhookAdapter.request
        limits = self

        async def http(client: Any, route: Any, **kwargs: Any) -> Any:
            return await limits._pass(route, lambda: bot_token(client, route, **kwargs))

        async def adapter(adapter: Any, route: Any, *args: Any, **kwargs: Any) -> Any:
            return await limits._pass(route, lambda: webhooks(adapter, route, *args, **kwargs))

        monkeypatch.setattr(simcord.http.FakeHTTPClient, "request", http)
        monkeypatch.setattr(simcord.http.FakeWebhookAdapter, "request", adapter)

    def _channel_of(self, path: str) -> int | None:
        if match := WEBHOOK.match(path):
            try:
                return int(self.env.backend.interaction_by_token(match[1]).channel_id)
            except Exception:
                return None
        if match := re.match(r"^/channels/(\d+)", path):
            return int(match[1])
        return None

    def _fault(self, method: str, path: str, channel_id: int | None) -> _Answer | None:
        if self.banned():  # the IP's: interaction callbacks too
            return _Answer(429, {}, "text/html")
        now = self.clock()
        if THREADS.match(path) and self.threads_until.get(channel_id or 0, 0.0) > now:
            raise discord.RateLimited(self.threads_until[channel_id or 0] - now)
        followup_post = method == "POST" and WEBHOOK.match(path) and "/messages" not in path
        if followup_post and self.followups_until.get(channel_id or 0, 0.0) > now:
            left = self.followups_until[channel_id or 0] - now
            headers = {
                "Retry-After": f"{max(1, round(left))}",  # whole seconds, as Discord sends
                "X-RateLimit-Scope": "shared",
                "X-RateLimit-Limit": "5",
                "X-RateLimit-Remaining": "0",
                "Via": "1.1 google",
            }
            return _Answer(429, headers, "application/json")
        return None

    async def _pass(self, route: Any, call: Callable[[], Any]) -> Any:
        path = re.sub(r"^.*?/api/v\d+", "", str(route.url))
        context = SimpleNamespace()
        request = SimpleNamespace(
            url=URL(f"https://discord.com/api/v10{path}"), method=route.method
        )
        starts: list[Any] = list(self.trace.on_request_start)
        for hook in starts:
            await hook(None, context, request)  # a ban refuses it here: never sent
        channel_id = self._channel_of(path)
        try:
            answer = self._fault(route.method, path, channel_id)
        except discord.RateLimited:
            self.sent.append(Sent(self.clock(), route.method, path, 429, channel_id))
            raise
        status = 200 if answer is None else answer.status
        self.sent.append(Sent(self.clock(), route.method, path, status, channel_id))
        response = answer or _Answer(200, {}, "application/json")
        end = SimpleNamespace(url=request.url, method=route.method, response=response)
        ends: list[Any] = list(self.trace.on_request_end)
        for hook in ends:
            await hook(None, context, end)
        if answer is not None:
            raise discord.HTTPException(answer, {"message": "limited", "code": 0})  # type: ignore[arg-type]
        return await call()

    def into(self, method: str, pattern: str, since: float, until: float) -> list[Sent]:
        """The requests made matching `method` and `pattern` between two moments."""
        return [
            s for s in self.sent
            if s.method == method and re.search(pattern, s.path) and since <= s.at < until
        ]  # fmt: skip
