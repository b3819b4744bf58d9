"""The daily puzzle in the server's daily post (`bot.daily`, another engineer's): a hook
that post calls for the day it closes; see `daily_post_lines`."""

from __future__ import annotations

from bot.puzzles._runs import PuzzleRuns
from bot.puzzles._texts import daily_lines
from bot.storage import PuzzleKind


async def daily_post_lines(runs: PuzzleRuns, guild_id: int, period: str, locale: str) -> list[str]:
    """The lines of a day's puzzle for the server's daily post (`bot.daily`): how many
    played, the best grade and the best answer, once the day's seal is off; nothing while
    it is sealed or when nobody played it. The daily post calls it for the day it closes."""
    if await runs.daily_seal(guild_id, period) is not None:
        return []
    chosen = await runs.store.puzzles.chosen_day(guild_id, period)
    if chosen is None:
        return []
    puzzle = await runs.store.puzzles.puzzle(chosen)
    board = await runs.store.puzzles.board(guild_id, PuzzleKind.DAILY, 0.0, period=period)
    game_set = await runs.sets.resolve(guild_id, None)
    return daily_lines(board, puzzle, game_set.language, locale)


class PuzzleDayLines:
    """`bot.daily.DayExtras` for the daily post: the day's puzzle under the board of the
    server's own Set (the one the daily puzzle is drawn from), nothing under the others'."""

    def __init__(self, runs: PuzzleRuns) -> None:
        self.runs = runs

    async def day_lines(self, guild_id: int, set_name: str, period: str, locale: str) -> list[str]:
        puzzle_set = await self.runs.sets.resolve(guild_id, None)
        if puzzle_set.name != set_name:
            return []
        return await daily_post_lines(self.runs, guild_id, period, locale)
