"""Puzzles (issue 32, RULES.md "Puzzles"): a pool prepared ahead per Set, and Storm,
Streak and the daily puzzle played from it, graded against the stored best answer.

The flow (`PuzzleRuns`, `PoolFiller`) imports no discord; the Discord face is
`PuzzlesCog`, imported from `bot.puzzles.discord_face` by the bot's wiring only.
"""

from __future__ import annotations

from bot.puzzles._boards import (
    WINDOWS,
    day_board,
    previous_day,
    server_day,
    window_board,
    window_since,
)
from bot.puzzles._daily import PuzzleDayLines, daily_post_lines
from bot.puzzles._pool import POOL_SIZE, PoolFiller, draw_score, filling
from bot.puzzles._runs import (
    Graded,
    Invalid,
    NoEvents,
    PuzzleError,
    PuzzleEvents,
    PuzzleRuns,
    Shown,
    daily_run_id,
    result_of,
)
from bot.puzzles._terminal import play_puzzles, stdin_lines
from bot.puzzles._texts import grade_text

__all__ = [
    "POOL_SIZE",
    "WINDOWS",
    "Graded",
    "Invalid",
    "NoEvents",
    "PoolFiller",
    "PuzzleDayLines",
    "PuzzleError",
    "PuzzleEvents",
    "PuzzleRuns",
    "Shown",
    "daily_post_lines",
    "daily_run_id",
    "day_board",
    "draw_score",
    "filling",
    "grade_text",
    "play_puzzles",
    "previous_day",
    "result_of",
    "server_day",
    "stdin_lines",
    "window_board",
    "window_since",
]
