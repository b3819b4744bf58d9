"""The server's pages on the web: boards, players, replays and the rules, as plain HTML.

aiohttp (under discord.py already) and Jinja2 with autoescape; served by `formula-darts
web` over the bot's database (loading no discord): the bot's own child on `WEB_PORT`
(`bot.pages_child`), or alone.
The pages draw the view models of `bot.views` (the query layer Discord's embeds draw too),
so what Discord keeps secret the web keeps secret too. `_app` has the application,
`_serving` its port and the headers every answer carries, `_cache` what it keeps in memory,
`_routes` the pages, `_text` the language and the rules' text, `_svg` the chart, `_names`
the players' names (what the bot saw in their interactions, kept in the store).
"""

from __future__ import annotations

from bot.web._app import create_app, forget_servers
from bot.web._keys import Names, NoNames
from bot.web._names import NameBook
from bot.web._serving import serve

__all__ = ["NameBook", "Names", "NoNames", "create_app", "forget_servers", "serve"]
