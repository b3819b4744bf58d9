"""What keeps a reader on the pages and crawlers off a server's: which servers have their
pages on (`pages_on`), a styled 404 with a way back (to the server's board when the
address names a server with its pages on, else to the rules), the redirect of a board's
address typed without its slash, and robots.txt.
"""

from __future__ import annotations

import re
import time

from aiohttp import web

from bot.i18n import t
from bot.storage import ServerSettings
from bot.web._keys import JINJA, PAGES_ON, STORE
from bot.web._text import language

KEY = re.compile(r"[A-Za-z0-9_-]{16,40}")
"""A page key's shape (the routes' `KEY`)."""
ROBOTS = "User-agent: *\nDisallow: /s/\n"
"""The rules may be indexed; a server's pages (its players, their games) may not."""


def not_found(request: web.Request, base: str | None = None) -> web.HTTPNotFound:
    """The 404 page in the reader's language, its menu the server's when `base` is known,
    with a link back to that board (or to the rules)."""
    lang = language(request.query.get("lang"), request.headers.get("Accept-Language"))
    html = (
        request.app[JINJA]
        .get_template("not_found.html")
        .render(
            lang=lang, tr=lambda key, **p: t(f"web.{key}", lang, **p), switch={}, base=base,
            back=base or "/rules", description=t("web.not_found.text", lang),
            title=t("web.not_found.title", lang),
        )
    )  # fmt: skip
    return web.HTTPNotFound(text=html, content_type="text/html")


async def pages_on(request: web.Request, key: str) -> ServerSettings | None:
    """The server whose page key `key` is, while its pages are on: from memory when it was
    asked a moment ago (`PageKeys`: a cached page then asks the database nothing), else
    one indexed read."""
    servers, memo = request.app[STORE].servers, request.app[PAGES_ON]
    now, changes = time.monotonic(), servers.changes
    found = memo.get(key, now, changes)
    if found is None:
        found = await servers.by_web_key(key)
        if found is not None:
            memo.put(key, found, now, changes)
    return found


async def server_base(request: web.Request, key: str) -> str | None:
    """`/s/<key>/` when `key` is a server's whose pages are on, else None."""
    found = await pages_on(request, key)
    return None if found is None else f"/s/{key}/"


async def unknown(request: web.Request) -> web.StreamResponse:
    """Any address no route has: a board's without its slash goes to the board; anything
    else is the 404 page, back to the server it names if it names one."""
    parts = request.path.split("/")
    named = len(parts) > 2 and parts[1] == "s" and KEY.fullmatch(parts[2]) is not None
    base = await server_base(request, parts[2]) if named else None
    if base is not None and request.path == base.rstrip("/"):
        raise web.HTTPPermanentRedirect(request.rel_url.with_path(base))
    raise not_found(request, base)


async def robots(request: web.Request) -> web.Response:
    del request
    return web.Response(text=ROBOTS, content_type="text/plain")
