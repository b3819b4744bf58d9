"""A local server that speaks Discord's REST rate-limit protocol, for discord.py's real
`HTTPClient` (simcord replaces `HTTPClient.request`, so none of discord.py's own
rate-limit handling runs there).

What it does, as Discord documents it (discord.com/developers/docs/topics/rate-limits):
- buckets keyed by their `X-RateLimit-Bucket` hash and major parameter, the hash shared
  by routes Discord limits together (`SHARED`: a thread made from a message or not, a
  message's edit and delete): `X-RateLimit-Limit/Remaining/Reset-After/Bucket` on every
  answer, a 429 with `retry_after` (JSON), `X-RateLimit-Scope: user` and a `Via`
  header when a bucket is spent; `Retry-After` in whole seconds, as Discord sends it;
- the global limit (`global_limit` requests per second per token): a 429 with
  `X-RateLimit-Global: true`, `"global": true` and `Retry-After`; interaction
  callbacks and webhook (followup) calls are outside it, as on Discord;
- thread creation limited per server (`limit_threads`): every channel of the server
  answers a 429 of `X-RateLimit-Scope: shared` with a long `Retry-After` until then;
- a Cloudflare ban (`ban`): every request, bot token or webhook, answered 429 with an
  HTML body and no `Retry-After`, `Via` or rate-limit header, until it ends;
- faults a test scripts (`fail`): 5xx, 403, 404, a long 429, and Cloudflare's 429
  (an HTML body, no `Via`, only `Retry-After`), which discord.py raises at once;
- messages kept per channel, a repeated `nonce` answered with the message it made
  (as `enforce_nonce` does).
It listens on 127.0.0.1 only. `route_base` is what `discord.http.Route.BASE` must be.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
import time
import zlib
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

API = "/api/v10"
CLOUDFLARE = "cloudflare"
LONG_429 = "long429"
Fault = int | str
"""A scripted answer: an HTTP status, CLOUDFLARE or LONG_429."""
SHARED = {
    "POST /channels/{id}/messages/{id}/threads": "POST /channels/{id}/threads",
    "DELETE /channels/{id}/messages/{id}": "PATCH /channels/{id}/messages/{id}",
}
"""Routes Discord limits together: one X-RateLimit-Bucket for both."""
THREAD_ROUTE = re.compile(r"/channels/(\d+)(/messages/\d+)?/threads")
OUTSIDE_GLOBAL = re.compile(r"/(interactions|webhooks)/")
BAN_PAGE = "<html><head><title>Access denied | discord.com used Cloudflare</title></head></html>"


@dataclass(frozen=True, slots=True)
class Seen:
    method: str
    path: str
    status: int
    at: float
    is_global: bool = False


@dataclass
class _Bucket:
    remaining: int
    resets_at: float


@dataclass
class _Script:
    method: str
    pattern: re.Pattern[str]
    answers: deque[Fault]


@dataclass
class DiscordRest:
    """`async with DiscordRest() as server:`; `server.route_base` for Route.BASE."""

    global_limit: int = 50
    bucket_limit: int = 5
    bucket_window_s: float = 1.0
    long_retry_after_s: float = 60.0
    cloudflare_retry_after_s: float = 2.0
    seen: list[Seen] = field(default_factory=list)
    messages: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    _scripts: list[_Script] = field(default_factory=list)
    _buckets: dict[str, _Bucket] = field(default_factory=dict)
    _window: deque[float] = field(default_factory=deque)
    _nonces: dict[tuple[int, str], dict[str, Any]] = field(default_factory=dict)
    guild_of: dict[int, int] = field(default_factory=dict)
    """Which server each channel is in (for `limit_threads`); unknown: its own."""
    _thread_limits: dict[int, float] = field(default_factory=dict)
    _banned_until: float = 0.0
    _ids: int = 1_000_000
    _runner: web.AppRunner | None = None
    port: int = 0

    @property
    def route_base(self) -> str:
        return f"http://127.0.0.1:{self.port}{API}"

    async def __aenter__(self) -> DiscordRest:
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        server = site._server
        assert isinstance(server, asyncio.base_events.Server)
        self.port = server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    # ------------------------------------------------------------- scripting

    def fail(self, method: str, path_regex: str, answers: list[Fault]) -> None:
        """The next len(answers) requests matching `method` and `path_regex` (the path
        after /api/v10) get these answers, in order; then the route works again."""
        self._scripts.append(_Script(method, re.compile(path_regex), deque(answers)))

    def limit_threads(self, guild_id: int, seconds: float) -> None:
        """Thread creation anywhere in server `guild_id` is refused for `seconds`: a 429
        of shared scope (it does not count toward the invalid-request ban)."""
        self._thread_limits[guild_id] = time.monotonic() + seconds

    def ban(self, seconds: float) -> None:
        """Cloudflare bans this IP for `seconds`: every request gets its HTML 429."""
        self._banned_until = time.monotonic() + seconds

    def count(self, method: str, path_regex: str, status: int | None = None) -> int:
        pattern = re.compile(path_regex)
        return sum(
            1
            for s in self.seen
            if s.method == method
            and pattern.fullmatch(s.path)
            and (status is None or s.status == status)
        )

    def statuses(self) -> dict[int, int]:
        counted: dict[int, int] = {}
        for s in self.seen:
            counted[s.status] = counted.get(s.status, 0) + 1
        return counted

    # -------------------------------------------------------------- serving

    async def _handle(self, request: web.Request) -> web.Response:
        path = request.path.removeprefix(API)
        now = time.monotonic()
        response = (
            self._banned(now)
            or (None if OUTSIDE_GLOBAL.match(path) else self._global(now))
            or self._threads_limited(request.method, path, now)
            or self._scripted(request.method, path, now)
        )
        if response is None:
            bucket, headers = self._bucket(request.method, path, now)
            if bucket is None:
                response = _limited(headers)
            else:
                response = await self._serve(request, path, headers)
        is_global = response.headers.get("X-RateLimit-Global") == "true"
        self.seen.append(Seen(request.method, path, response.status, now, is_global))
        return response

    def _global(self, now: float) -> web.Response | None:
        while self._window and self._window[0] <= now - 1.0:
            self._window.popleft()
        if len(self._window) >= self.global_limit:
            retry = max(0.001, self._window[0] + 1.0 - now)
            body = {"message": "You are being rate limited.", "retry_after": retry, "global": True}
            headers = {"Via": "1.1 google", "Retry-After": _whole(retry)}
            headers |= {"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"}
            return _json(body, status=429, headers=headers)
        self._window.append(now)
        return None

    def _banned(self, now: float) -> web.Response | None:
        if now >= self._banned_until:
            return None
        return web.Response(status=429, text=BAN_PAGE, content_type="text/html")

    def _threads_limited(self, method: str, path: str, now: float) -> web.Response | None:
        made = THREAD_ROUTE.fullmatch(path)
        if method != "POST" or made is None:
            return None
        channel_id = int(made.group(1))
        until = self._thread_limits.get(self.guild_of.get(channel_id, channel_id), 0.0)
        if now >= until:
            return None
        headers = {"X-RateLimit-Limit": "5", "X-RateLimit-Remaining": "0"}
        headers["X-RateLimit-Bucket"] = _hash("POST /channels/{id}/threads")
        return _limited(headers, retry_after=until - now, scope="shared")

    def _scripted(self, method: str, path: str, now: float) -> web.Response | None:
        del now
        for script in self._scripts:
            if script.answers and script.method == method and script.pattern.fullmatch(path):
                answer = script.answers.popleft()
                if answer == CLOUDFLARE:
                    headers = {"Retry-After": str(self.cloudflare_retry_after_s)}
                    html = "<html><body>Error 1015: You are being rate limited</body></html>"
                    return web.Response(status=429, text=html, headers=headers)
                if answer == LONG_429:
                    return _limited(
                        {"X-RateLimit-Limit": "1", "X-RateLimit-Remaining": "0"},
                        retry_after=self.long_retry_after_s,
                    )
                assert isinstance(answer, int)
                code = {403: 50001, 404: 10003}.get(answer, 0)
                body = {"message": f"scripted {answer}", "code": code}
                return _json(body, status=answer, headers={"Via": "1.1 google"})
        return None

    def _bucket(self, method: str, path: str, now: float) -> tuple[_Bucket | None, dict[str, str]]:
        """The route's bucket (its template and major id), spent by one; None if empty."""
        template = re.sub(r"/\d+", "/{id}", path)
        route = SHARED.get(f"{method} {template}", f"{method} {template}")
        major = re.match(r"/(channels|guilds)/(\d+)|/(webhooks)/(\d+/[^/]+)", path)
        # a webhook's major parameter is its id and token: each interaction its own
        key = f"{route} {(major.group(2) or major.group(4)) if major else ''}"
        bucket = self._buckets.get(key)
        if bucket is None or bucket.resets_at <= now:
            bucket = self._buckets[key] = _Bucket(self.bucket_limit, now + self.bucket_window_s)
        headers = {
            "X-RateLimit-Limit": str(self.bucket_limit),
            "X-RateLimit-Bucket": _hash(route),
            "X-RateLimit-Reset-After": f"{max(0.0, bucket.resets_at - now):.3f}",
            "X-RateLimit-Reset": f"{time.time() + bucket.resets_at - now:.3f}",
        }
        if bucket.remaining <= 0:
            headers["X-RateLimit-Remaining"] = "0"
            return None, headers
        bucket.remaining -= 1
        headers["X-RateLimit-Remaining"] = str(bucket.remaining)
        return bucket, headers

    async def _serve(
        self, request: web.Request, path: str, headers: dict[str, str]
    ) -> web.Response:
        if request.method == "GET" and path == "/users/@me":
            return _json(_user(1), headers=headers)
        posted = re.fullmatch(r"/channels/(\d+)/messages", path)
        if request.method == "POST" and posted:
            channel_id = int(posted.group(1))
            payload = await _payload(request)
            nonce = payload.get("nonce")
            if nonce is not None and (channel_id, str(nonce)) in self._nonces:
                return _json(self._nonces[channel_id, str(nonce)], headers=headers)
            self._ids += 1
            message = _message(self._ids, channel_id, str(payload.get("content") or ""))
            self.messages.setdefault(channel_id, []).append(message)
            if nonce is not None:
                self._nonces[channel_id, str(nonce)] = message
            return _json(message, headers=headers)
        hooked = re.fullmatch(r"/webhooks/\d+/[^/]+(?:/messages/(\d+|@original))?", path)
        if hooked and request.method in ("POST", "PATCH"):  # a followup, or its edit
            payload = await _payload(request)
            self._ids += 1
            kept = hooked.group(1)
            message_id = int(kept) if kept and kept.isdigit() else self._ids
            return _json(_message(message_id, 0, payload.get("content")), headers=headers)
        made = THREAD_ROUTE.fullmatch(path)
        if request.method == "POST" and made:
            payload = await _payload(request)
            parent = int(made.group(1))
            self._ids += 1
            thread = {
                "id": str(self._ids), "type": 11, "name": str(payload.get("name") or ""),
                "parent_id": str(parent), "guild_id": str(self.guild_of.get(parent, parent)),
                "owner_id": "1", "thread_metadata": {
                    "archived": False, "auto_archive_duration": 60, "locked": False,
                    "archive_timestamp": "2026-12-01T21:00:00+00:00",
                },
            }  # fmt: skip
            return _json(thread, headers=headers)
        edited = re.fullmatch(r"/channels/(\d+)/messages/(\d+)", path)
        if request.method == "PATCH" and edited:
            payload = await _payload(request)
            message = _message(int(edited.group(2)), int(edited.group(1)), payload.get("content"))
            return _json(message, headers=headers)
        return _json({}, headers=headers)


def _json(body: Any, *, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """JSON as Discord sends it: discord.py parses only `application/json`, no charset."""
    return web.Response(
        body=json.dumps(body).encode(),
        status=status,
        headers={**(headers or {}), "Content-Type": "application/json"},
    )


def _limited(
    headers: dict[str, str], *, retry_after: float | None = None, scope: str = "user"
) -> web.Response:
    retry = retry_after if retry_after is not None else float(headers["X-RateLimit-Reset-After"])
    body = {"message": "You are being rate limited.", "retry_after": retry, "global": False}
    extra = {"Via": "1.1 google", "X-RateLimit-Scope": scope, "Retry-After": _whole(retry)}
    return _json(body, status=429, headers=headers | extra)


def _whole(seconds: float) -> str:
    """Retry-After as Discord sends it: whole seconds, rounded up (the body has the rest)."""
    return str(max(1, math.ceil(seconds)))


def _hash(route: str) -> str:
    """A route's bucket hash: stable, opaque, the same for routes limited together."""
    return f"{zlib.crc32(route.encode()):08x}"


async def _payload(request: web.Request) -> dict[str, Any]:
    if request.content_type == "application/json":
        data = await request.json()
        return data if isinstance(data, dict) else {}
    if request.content_type.startswith("multipart/"):
        form = await request.post()
        raw = form.get("payload_json")
        return json.loads(raw) if isinstance(raw, str) else {}
    return {}


def _user(user_id: int) -> dict[str, Any]:
    return {
        "id": str(user_id), "username": "formula-darts", "discriminator": "0",
        "global_name": None, "avatar": None, "bot": True,
    }  # fmt: skip


def _message(message_id: int, channel_id: int, content: str | None) -> dict[str, Any]:
    return {
        "id": str(message_id), "channel_id": str(channel_id), "author": _user(1),
        "content": content or "", "timestamp": "2026-12-01T21:00:00+00:00",
        "edited_timestamp": None, "tts": False, "mention_everyone": False, "mentions": [],
        "mention_roles": [], "attachments": [], "embeds": [], "pinned": False, "type": 0,
    }  # fmt: skip
