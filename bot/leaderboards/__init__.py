"""Leaderboards, stats, history and game replays: the reasons players come back.

`_cog` has the commands, `_pages` the paging buttons (DynamicItems that survive
restarts), `_render` the embeds (a player's in `_render_player`, a replay's in
`_render_replay`). `_views` is the query layer: it reads the Store (and
asks `rules.seal`) once and returns frozen view models that the embeds here and the
web pages (`bot.web`) both draw.
"""

from __future__ import annotations

from bot.leaderboards._cog import LeaderboardsCog
from bot.leaderboards._pages import PageButton
from bot.leaderboards._render import board_lines, ranking_result, version_label
from bot.leaderboards._render_player import game_result
from bot.leaderboards._views import (
    PAGE_SIZE,
    PERIODS,
    BoardPeriod,
    board,
    board_rows,
    duel_board,
    player,
    replay,
)
from bot.leaderboards._void import void_text

__all__ = [
    "PAGE_SIZE",
    "PERIODS",
    "BoardPeriod",
    "LeaderboardsCog",
    "PageButton",
    "board",
    "board_lines",
    "board_rows",
    "duel_board",
    "game_result",
    "player",
    "ranking_result",
    "replay",
    "version_label",
    "void_text",
]
