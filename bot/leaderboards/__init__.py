"""Leaderboards, stats, history and game replays: the reasons players come back.

`_cog` has the commands, `_pages` the paging buttons (DynamicItems that survive
restarts), `_render` the embeds (a player's in `_render_player`, a replay's in
`_render_replay`). They draw the view models of `bot.views`, the query layer the
web pages (`bot.web`) draw too.
"""

from __future__ import annotations

from bot.leaderboards._cog import LeaderboardsCog
from bot.leaderboards._pages import PageButton
from bot.leaderboards._render import board_lines

__all__ = ["LeaderboardsCog", "PageButton", "board_lines"]
