"""The pages' port: security headers on every answer, and the port's own defences.

Every answer carries the security headers, whoever made it: a page, a 304, the router's
404 and 405, aiohttp's 500 (through the application's `on_response_prepare`), and the
400 aiohttp's parser gives before any route is found (through `handle_error` of the
connection's handler, the one place that answer passes). The port holds under hostile
clients as `/metrics` does (`bot.common.serving`): headers within `header_timeout_s`,
at most `max_connections` open, and file descriptors left for the games' workers.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from aiohttp import web

from bot.common.serving import FD_RESERVE, HEADER_TIMEOUT_S, CappedSite

log = logging.getLogger(__name__)

CSP = (
    "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
MAX_CONNECTIONS = 1024
"""Connections open at once: far above honest readers, and each held one costs a file
descriptor, which the reserve protects whatever the limit."""


def secure(response: web.StreamResponse) -> None:
    """The headers every answer carries; nothing is cached unless a page says so."""
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers.setdefault("Cache-Control", "no-store")


async def secure_prepared(request: web.Request, response: web.StreamResponse) -> None:
    """`on_response_prepare`: every answer to a request that reached the application."""
    del request
    secure(response)


class _SecureHandler(web.RequestHandler):
    """aiohttp's handler of one connection; the answers it makes itself (a request it could
    not parse, an error) carry the security headers too."""

    def handle_error(
        self,
        request: web.BaseRequest,
        status: int = 500,
        exc: BaseException | None = None,
        message: str | None = None,
    ) -> web.StreamResponse:
        response = super().handle_error(request, status, exc, message)
        secure(response)
        return response


class _SecureSite(CappedSite):
    """The capped site whose connections are `_SecureHandler`s."""

    def handlers(self, server: web.Server) -> Callable[[], asyncio.Protocol]:
        return functools.partial(
            _SecureHandler,
            server,
            loop=server._loop,
            **server._kwargs,  # the runner's settings (keep-alive timeout, access log)
        )


@asynccontextmanager
async def serve(
    app: web.Application,
    host: str,
    port: int,
    *,
    header_timeout_s: float = HEADER_TIMEOUT_S,
    max_connections: int = MAX_CONNECTIONS,
    fd_reserve: int = FD_RESERVE,
) -> AsyncIterator[web.AppRunner]:
    """Serve `app` on host:port until the block ends (the bot's process or the CLI)."""
    runner = web.AppRunner(app, access_log=None, keepalive_timeout=header_timeout_s)
    await runner.setup()
    site = _SecureSite(runner, host, port, max_connections, fd_reserve)
    await site.start()
    log.info("web pages on http://%s:%s/", host, port)
    try:
        yield runner
    finally:
        await runner.cleanup()
