"""What the pages share through the application: its store, names, templates."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Protocol

import jinja2
from aiohttp import web

from bot.storage import Store

CACHE_S = 30
"""How long a client (and the board cache) may reuse a board page before asking again."""


class Names(Protocol):
    """Players' names on a server, the known ones among `user_ids` (`NameBook`: what the
    bot saw, kept in the store); a page shows the others by a short label."""

    async def names(self, guild_id: int, user_ids: Collection[int]) -> Mapping[int, str]: ...


class NoNames:
    """No names at all: every player is shown by a short label."""

    async def names(self, guild_id: int, user_ids: Collection[int]) -> Mapping[int, str]:
        del guild_id, user_ids
        return {}


STORE = web.AppKey("store", Store)
NAMES: web.AppKey[Names] = web.AppKey("names")
JINJA = web.AppKey("jinja", jinja2.Environment)
