"""What every page handler does alike: read the reader's language and the server from the
request, name a page's players, and render a template into an answer."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from aiohttp import web

from bot.i18n import t
from bot.storage import ServerSettings
from bot.web._keys import JINJA, NAMES
from bot.web._reach import not_found, pages_on
from bot.web._text import LANGUAGES, language

PAGE_MAX = 100_000
"""The last page a list is asked for (a million rows); a larger `?page=` asks this one."""
DESCRIBED = 3
"""The rows of a list its page's description names."""


def reader_language(request: web.Request) -> str:
    return language(request.query.get("lang"), request.headers.get("Accept-Language"))


def render(request: web.Request, template: str, lang: str, **values: Any) -> web.Response:
    """The page in `lang`, with links to itself in the other languages. A server's page
    passes `server` (its name heads the page and its title)."""
    here = request.rel_url
    switch = {code: str(here.update_query(lang=code)) for code in LANGUAGES}
    server: ServerSettings | None = values.pop("server", None)
    html = (
        request.app[JINJA]
        .get_template(template)
        .render(
            lang=lang,
            tr=lambda key, **p: t(f"web.{key}", lang, **p),
            dtr=lambda key, **p: t(f"details.{key}", lang, **p),
            switch=switch,
            server_name=None if server is None else server.guild_name,
            **values,
        )
    )
    response = web.Response(text=html, content_type="text/html", charset="utf-8")
    response.headers["Content-Language"] = lang
    response.headers["Vary"] = "Accept-Language"
    return response


async def server_of(request: web.Request) -> ServerSettings:
    """The server whose page key the address carries, while its pages are on; else 404."""
    found = await pages_on(request, request.match_info["key"])
    if found is None:
        raise not_found(request)
    return found


async def names_of(
    request: web.Request, guild_id: int, user_ids: Iterable[int], lang: str
) -> dict[int, str]:
    """Each player's name, asked for a page's players at once; an unknown one is a short
    label (the end of their id)."""
    wanted = list(dict.fromkeys(user_ids))
    known = await request.app[NAMES].names(guild_id, wanted)
    return {u: known.get(u) or t("web.player.unknown", lang, tail=str(u)[-4:]) for u in wanted}


def page_number(request: web.Request) -> int:
    """`?page=` as a list's page (0 first); anything else is the first page."""
    text = request.query.get("page", "0")
    if not (text.isascii() and text.isdigit()):
        return 0
    return PAGE_MAX if len(text) > len(str(PAGE_MAX)) else min(int(text), PAGE_MAX)


def base_of(request: web.Request) -> str:
    """The server's pages' address prefix (`/s/<key>/`)."""
    return f"/s/{request.match_info['key']}/"


def moment(timestamp: float) -> datetime:
    return datetime.fromtimestamp(timestamp, UTC)


def summary(lines: Iterable[str], empty: str) -> str:
    """A page's description (what an unfurled link shows): its first few lines."""
    shown = list(lines)[:DESCRIBED]
    return "; ".join(shown) if shown else empty
