"""Leaderboards, stats, history and game replays: the reasons players come back.

`_cog` has the commands, `_pages` the paging buttons (DynamicItems that survive
restarts), `_render` the embeds. Everything is read through the Store.
"""

from __future__ import annotations

from bot.leaderboards._cog import LeaderboardsCog
from bot.leaderboards._pages import PageButton
from bot.leaderboards._render import board_lines

__all__ = ["LeaderboardsCog", "PageButton", "board_lines"]
