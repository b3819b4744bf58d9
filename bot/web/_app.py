"""The aiohttp application: its routes, and what every answer carries.

Safe by construction: only GET (and HEAD), no cookies, a strict Content-Security-Policy
(no script at all, styles only from this page) on every answer (`_serving`), and
addresses that name a server by its random page key, never its snowflake. A page is
gzipped for a client that takes it (once per page's bytes: `Zipped`), and carries a
weak ETag of its bytes so a client can revalidate; `Cache-Control` (set by each page: a
board a few seconds, a finished replay a day) lets it reuse the page meanwhile.
"""

from __future__ import annotations

import hashlib
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import jinja2
from aiohttp import web

from bot.charts import ChartRenderer
from bot.storage import Store
from bot.web import _cup_routes, _puzzles, _room, _routes
from bot.web._cache import BoardCache, ChartCache, PageKeys, ReplayCache, Zipped
from bot.web._keys import (
    BOARDS,
    CACHE_S,
    CHARTS,
    DRAWN,
    JINJA,
    NAMES,
    PAGES_ON,
    REPLAYS,
    STORE,
    ZIPPED,
    Charts,
    Names,
)
from bot.web._names import NameBook
from bot.web._serving import secure_prepared

TEMPLATES = Path(__file__).resolve().parent / "templates"
GZIP_MIN = 1024
"""Bytes below which a page is sent as it is (gzip would save next to nothing)."""
KEPT = ("ETag", "Cache-Control", "Vary", "Content-Language")
"""What a 304 repeats of the page it stands for (the security headers come on their own)."""

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def _answers(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Only GET; a page unchanged since the client's copy (`If-None-Match`) is a 304 with
    no body; a page is gzipped when the client takes it."""
    if request.method not in ("GET", "HEAD"):
        raise web.HTTPMethodNotAllowed(request.method, ["GET", "HEAD"])
    response = await handler(request)
    if not (isinstance(response, web.Response) and response.status == 200):
        return response
    body = response.body if isinstance(response.body, bytes) else b""
    if not body:
        return response
    etag = 'W/"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    response.headers["ETag"] = etag
    if etag in request.headers.get("If-None-Match", ""):
        kept = {k: response.headers[k] for k in KEPT if k in response.headers}
        return web.Response(status=304, headers=kept)
    if len(body) >= GZIP_MIN:
        vary = response.headers.get("Vary")
        response.headers["Vary"] = f"{vary}, Accept-Encoding" if vary else "Accept-Encoding"
        if "gzip" in request.headers.get("Accept-Encoding", "").lower():
            response.body = request.app[ZIPPED].of(etag, body)
            response.headers["Content-Encoding"] = "gzip"
    return response


def create_app(
    store: Store,
    names: Names | None = None,
    *,
    charts: Charts | None = None,
) -> web.Application:
    """The pages over `store`; players are named by `names`, by default the names the
    bot keeps in the store (`NameBook`, read only here); the players' charts are drawn by
    `charts` (the bot's chart worker), by default a worker of the application's own."""
    app = web.Application(middlewares=[_answers])
    app.on_response_prepare.append(secure_prepared)
    app[STORE] = store
    app[NAMES] = names if names is not None else NameBook(store)
    app[BOARDS] = BoardCache(CACHE_S)
    app[REPLAYS] = ReplayCache(CACHE_S)
    app[DRAWN] = ChartCache()
    app[PAGES_ON] = PageKeys()
    app[ZIPPED] = Zipped()
    if charts is not None:
        app[CHARTS] = charts
    else:
        app.cleanup_ctx.append(_own_charts)
    app[JINJA] = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    _cup_routes.add_routes(app)
    _room.add_routes(app)  # before the pages' catch-all
    _puzzles.add_routes(app)
    _routes.add_routes(app)
    return app


def forget_servers(app: web.Application) -> None:
    """Another process (the bot, whose child serves these pages) changed a server's
    settings: whether a server's pages are on is asked of the database again."""
    app[PAGES_ON].forget()


async def _own_charts(app: web.Application) -> AsyncIterator[None]:
    """A chart worker for the application alone (`formula-darts web`), warmed as the
    application starts: its process start and matplotlib's import are not counted against
    the first page's chart (`ChartRenderer.timeout_s`), and stops with the application."""
    async with ChartRenderer() as renderer:
        app[CHARTS] = renderer
        yield
