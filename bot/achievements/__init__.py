"""Achievements (issue 32): what earns them (`Rewards`) and how they read (`_texts`).

No discord here: the games' summary, `/stats`, the web player page, the daily post,
`/admin void` and the Cup and puzzles (`champion_crowned`, `run_finished`) call in.
"""

from bot.achievements._service import STREAK_REWARDS, Rewards, RoleWaker
from bot.achievements._texts import stats_field, summary_lines, web_rows

__all__ = ["STREAK_REWARDS", "Rewards", "RoleWaker", "stats_field", "summary_lines", "web_rows"]
