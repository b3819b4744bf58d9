"""The aiohttp application: its routes, and what every answer carries.

Safe by construction: only GET (and HEAD), no cookies, a strict Content-Security-Policy
(no script at all, styles only from this page), and addresses that name a server by its
random page key, never its snowflake. A board is served from a short cache: an ETag of
the page's bytes lets a client revalidate, `Cache-Control` lets it reuse the page a while.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import jinja2
from aiohttp import web

from bot.storage import Store
from bot.web import _routes
from bot.web._keys import JINJA, NAMES, STORE, Names
from bot.web._names import NameBook

log = logging.getLogger(__name__)
TEMPLATES = Path(__file__).resolve().parent / "templates"
CSP = (
    "default-src 'none'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _secure(response: web.StreamResponse) -> None:
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers.setdefault("Cache-Control", "no-store")


@web.middleware
async def _headers(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Only GET; every answer with the security headers; a page unchanged since the
    client's copy (`If-None-Match`) is a 304 with no body."""
    if request.method not in ("GET", "HEAD"):
        raise web.HTTPMethodNotAllowed(request.method, ["GET", "HEAD"])
    try:
        response = await handler(request)
    except web.HTTPException as error:
        _secure(error)
        raise
    _secure(response)
    if isinstance(response, web.Response) and response.status == 200 and response.body:
        body = response.body if isinstance(response.body, bytes) else b""
        etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
        response.headers["ETag"] = etag
        if etag in request.headers.get("If-None-Match", ""):
            kept = ("ETag", "Cache-Control", "Content-Security-Policy", "Vary")
            return web.Response(status=304, headers={k: response.headers[k] for k in kept
                                                      if k in response.headers})  # fmt: skip
    return response


def create_app(store: Store, names: Names | None = None) -> web.Application:
    """The pages over `store`; players are named by `names`, by default the names the
    bot keeps in the store (`NameBook`, read only here)."""
    app = web.Application(middlewares=[_headers])
    app[STORE] = store
    app[NAMES] = names if names is not None else NameBook(store)
    app[JINJA] = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    _routes.add_routes(app)
    return app


@asynccontextmanager
async def serve(app: web.Application, host: str, port: int) -> AsyncIterator[web.AppRunner]:
    """Serve `app` on host:port until the block ends (the bot's process or the CLI)."""
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    log.info("web pages on http://%s:%s/", host, port)
    try:
        yield runner
    finally:
        await runner.cleanup()
