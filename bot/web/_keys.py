"""What the pages share through the application: its store, names, templates,
the chart worker and the caches."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Protocol, TypeVarTuple, Unpack

import jinja2
from aiohttp import web

from bot.storage import Store
from bot.web._cache import BoardCache, ChartCache, PageKeys, ReplayCache, Zipped

Args = TypeVarTuple("Args")

CACHE_S = 30
"""How long a client (and the board cache) may reuse a board page before asking again;
how long a finished replay's page is kept in memory."""


class Names(Protocol):
    """Players' names on a server, the known ones among `user_ids` (`NameBook`: what the
    bot saw, kept in the store); a page shows the others by a short label."""

    async def names(self, guild_id: int, user_ids: Collection[int]) -> Mapping[int, str]: ...


class Charts(Protocol):
    """Draws a chart off the event loop (`bot.charts.ChartRenderer`, a worker process):
    its bytes, or None when it could not (the page is then shown without it)."""

    async def render(
        self, chart: Callable[[Unpack[Args]], bytes], *args: *Args
    ) -> bytes | None: ...


class NoNames:
    """No names at all: every player is shown by a short label."""

    async def names(self, guild_id: int, user_ids: Collection[int]) -> Mapping[int, str]:
        del guild_id, user_ids
        return {}


STORE = web.AppKey("store", Store)
NAMES: web.AppKey[Names] = web.AppKey("names")
JINJA = web.AppKey("jinja", jinja2.Environment)
CHARTS: web.AppKey[Charts] = web.AppKey("charts")
BOARDS = web.AppKey("boards", BoardCache)
REPLAYS = web.AppKey("replays", ReplayCache)
DRAWN = web.AppKey("drawn", ChartCache)
PAGES_ON = web.AppKey("pages_on", PageKeys)
ZIPPED = web.AppKey("zipped", Zipped)
