"""What the pages share through the application: its store, names, revealer, templates."""

from __future__ import annotations

from typing import Protocol

import jinja2
from aiohttp import web

from bot.play import Revealer
from bot.storage import Store

CACHE_S = 30
"""How long a client (and the board cache) may reuse a board page before asking again."""


class Names(Protocol):
    """A player's name on a server, if known (the bot asks Discord's member cache)."""

    def name(self, guild_id: int, user_id: int) -> str | None: ...


class NoNames:
    """`formula-darts web` alone has no Discord: players are shown by a short label."""

    def name(self, guild_id: int, user_id: int) -> str | None:
        del guild_id, user_id
        return None


STORE = web.AppKey("store", Store)
NAMES: web.AppKey[Names] = web.AppKey("names")
REVEALER: web.AppKey[Revealer | None] = web.AppKey("revealer")
JINJA = web.AppKey("jinja", jinja2.Environment)
