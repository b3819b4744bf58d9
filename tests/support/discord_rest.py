"""A local server that speaks Discord's REST rate-limit protocol, for discord.py's real
`HTTPClient` (simcord replaces `HTTPClient.request`, so none of discord.py's own
rate-limit handling runs there).

What it does, as Discord documents it (discord.com/developers/docs/topics/rate-limits):
- per-route buckets: `X-RateLimit-Limit/Remaining/Reset-After/Bucket` on every answer,
  a 429 with `retry_after` (JSON), `X-RateLimit-Scope: user` and a `Via` header when
  a bucket is spent;
- the global limit (`global_limit` requests per second per token): a 429 with
  `X-RateLimit-Global: true`, `"global": true` and `Retry-After`;
- faults a test scripts (`fail`): 5xx, 403, 404, a long 429, and Cloudflare's 429
  (an HTML body, no `Via`, only `Retry-After`), which discord.py raises at once;
- messages kept per channel, a repeated `nonce` answered with the message it made
  (as `enforce_nonce` does).
It listens on 127.0.0.1 only. `route_base` is what `discord.http.Route.BASE` must be.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

API = "/api/v10"
CLOUDFLARE = "cloudflare"
LONG_429 = "long429"
Fault = int | str
"""A scripted answer: an HTTP status, CLOUDFLARE or LONG_429."""


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
        response = self._global(now) or self._scripted(request.method, path, now)
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
            headers = {"Via": "1.1 google", "Retry-After": f"{retry:.3f}"}
            headers |= {"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"}
            return _json(body, status=429, headers=headers)
        self._window.append(now)
        return None

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
        major = re.match(r"/(channels|guilds|webhooks)/(\d+)", path)
        key = f"{method} {template} {major.group(2) if major else ''}"
        bucket = self._buckets.get(key)
        if bucket is None or bucket.resets_at <= now:
            bucket = self._buckets[key] = _Bucket(self.bucket_limit, now + self.bucket_window_s)
        headers = {
            "X-RateLimit-Limit": str(self.bucket_limit),
            "X-RateLimit-Bucket": f"{abs(hash((method, template))):x}",
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


def _limited(headers: dict[str, str], *, retry_after: float | None = None) -> web.Response:
    retry = retry_after if retry_after is not None else float(headers["X-RateLimit-Reset-After"])
    body = {"message": "You are being rate limited.", "retry_after": retry, "global": False}
    extra = {"Via": "1.1 google", "X-RateLimit-Scope": "user", "Retry-After": f"{retry:.3f}"}
    return _json(body, status=429, headers=headers | extra)


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
