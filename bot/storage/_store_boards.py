"""`Store.boards`: the boards, stats, streaks and duel ratings.

Everything a board, `/stats`, a replay's Elo line or the daily post's ranking asks,
apart from the games themselves (`Store.games`); each method one transaction on the
Store's connections.
"""

from __future__ import annotations

from collections.abc import Collection

from sqlalchemy.exc import IntegrityError

import rules
from bot.storage import _boards, _ratings, _stats, _streaks
from bot.storage._connect import Connect
from bot.storage._records import GameRecord, LeaderRow, PlayerStats, RatingChange, RatingRow


class BoardStore:
    """The Qualification and duel boards, a player's stats, streaks and Elo."""

    def __init__(self, write: Connect, read: Connect) -> None:
        self._write = write
        self._read = read

    async def record_duel_result(self, record: GameRecord) -> list[RatingChange]:
        """Elo of a finished, saved duel, in player order; idempotent. `save_game`
        already applied it with the duel's end, so this returns those changes (and
        still rates a duel stored finished before that was so)."""
        for attempt in range(2):
            try:
                async with self._write() as conn:
                    return await _ratings.record_duel(conn, record)
            except IntegrityError:
                if attempt:
                    raise
        raise AssertionError("unreachable")

    async def rating_changes(self, game_id: str) -> list[RatingChange]:
        """What a rated duel did to its players' Elo (for its replay); read only."""
        async with self._read() as conn:
            return await _ratings.game_changes(conn, game_id)

    async def qualification_leaderboard(
        self,
        guild_id: int,
        set_name: str,
        since: str | None,
        *,
        limit: int = 10,
        offset: int = 0,
        version: str | None = None,
        until: str | None = None,
    ) -> list[LeaderRow]:
        """Best ranked game per player (losses left out); `since` is the first period
        included; `version` the Set's version ranked (the bot always names one)."""
        async with self._read() as conn:
            return await _boards.qualification(
                conn, guild_id, set_name, since, limit, offset, version, until
            )

    async def qualification_page(
        self,
        guild_id: int,
        set_name: str,
        since: str | None,
        *,
        limit: int = 10,
        offset: int = 0,
        version: str | None = None,
        until: str | None = None,
    ) -> tuple[list[LeaderRow], int]:
        """`qualification_leaderboard` and `qualification_count` in one query: a page of
        the board and how many players it ranks."""
        async with self._read() as conn:
            return await _boards.qualification_page(
                conn, guild_id, set_name, since, limit, offset, version, until
            )

    async def qualification_count(
        self, guild_id: int, set_name: str, since: str | None, *, version: str | None = None
    ) -> int:
        """How many players `qualification_leaderboard` ranks, for "page 1 of N"."""
        async with self._read() as conn:
            return await _boards.qualification_count(conn, guild_id, set_name, since, version)

    async def qualification_sets(self, guild_id: int) -> list[str]:
        async with self._read() as conn:
            return await _boards.qualification_sets(conn, guild_id)

    async def set_language(
        self, guild_id: int, set_name: str, version: str | None = None,
        *, game_id: str | None = None,
    ) -> rules.FormulaLanguage:  # fmt: skip
        """The language of `set_name`'s Qualification games here (of the game `game_id`, of
        `version`, else its latest): what a board or a record names and writes its numbers
        in (PHP when unplayed)."""
        async with self._read() as conn:
            return await _boards.set_language(conn, guild_id, set_name, version, game_id)

    async def set_version_numbers(self, guild_id: int, set_name: str) -> dict[str, int]:
        """Each version of a Set played here, numbered 1, 2, ... by its first game."""
        async with self._read() as conn:
            return await _boards.set_version_numbers(conn, guild_id, set_name)

    async def set_versions(
        self, guild_id: int, set_name: str, *, since: str | None = None
    ) -> list[str]:
        """The versions of a Set with Qualification games here (from period `since` on),
        latest played first; "" stands for games stored before versions were."""
        async with self._read() as conn:
            return await _boards.set_versions(conn, guild_id, set_name, since)

    async def duel_leaderboard(
        self, guild_id: int, *, limit: int = 10, offset: int = 0
    ) -> list[RatingRow]:
        async with self._read() as conn:
            return await _boards.duel(conn, guild_id, limit, offset)

    async def duel_count(self, guild_id: int) -> int:
        async with self._read() as conn:
            return await _boards.duel_count(conn, guild_id)

    async def player_stats(self, guild_id: int, user_id: int) -> PlayerStats:
        async with self._read() as conn:
            return await _stats.stats(conn, guild_id, user_id)

    async def player_streaks(
        self, guild_id: int, user_id: int, today: str
    ) -> dict[str, rules.Streak]:
        """The player's Qualification streak per Set; `today` is the current period."""
        async with self._read() as conn:
            return await _streaks.player_streaks(conn, guild_id, user_id, today)

    async def finished_days(self, guild_id: int, user_id: int, since: str) -> list[str]:
        """The days from `since` on the player finished a Qualification here (any Set)."""
        async with self._read() as conn:
            return await _streaks.finished_days(conn, guild_id, user_id, since)

    async def elo_history(
        self, guild_id: int, user_id: int, limit: int
    ) -> list[tuple[float, int, int]]:
        """(when, before, after) of the player's last rated duels here, oldest first."""
        async with self._read() as conn:
            return await _ratings.elo_history(conn, guild_id, user_id, limit)

    async def board_streaks(
        self, guild_id: int, set_name: str, user_ids: Collection[int], today: str
    ) -> dict[int, rules.Streak]:
        async with self._read() as conn:
            return await _streaks.board_streaks(conn, guild_id, set_name, user_ids, today)
