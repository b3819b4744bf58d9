"""`Store.games`: the games themselves, what the game flow, `/history` and `/game` use.

Saving a game is `_games`' and `_advance`'s (the module docstring of `bot.storage`
says why a round is resolved once); here each method is one transaction on the
Store's connections, and the save that ends a rated duel applies its Elo with it.
"""

from __future__ import annotations

from sqlalchemy.exc import IntegrityError

import rules
from bot.storage import _games, _ratings
from bot.storage._advance import Known
from bot.storage._connect import Connect
from bot.storage._lane import SqliteLane
from bot.storage._pg_steps import PgSteps
from bot.storage._records import FinishedThread, GameRecord, StaleGame


class GameStore:
    """The games: save and load one, find the running and overdue ones, a player's
    history and Qualification attempts."""

    def __init__(
        self, write: Connect, read: Connect, lane: SqliteLane | PgSteps | None = None
    ) -> None:
        self._write = write
        self._read = read
        self._lane = lane
        self._known = Known()

    async def save_game(self, record: GameRecord, *, now: float | None = None) -> None:
        """Store the game's new state (idempotent); raise StaleGame if it is not newer.

        `now` is the caller's clock (the bot's, simulated in tests); without it a
        new game starts at its first round and a finished one ends at its last
        answer or deadline, as the state says.

        Two new games with one id racing on PostgreSQL: the loser's insert fails on
        the key, and its retry goes through the normal "does it extend" check.

        The save that ends a rated duel applies its Elo in the same transaction: the
        end and the rating change land together or not at all (a failed save is
        retried like any other), so no duel ends unrated.
        """
        if record.state.mode is rules.Mode.DUEL and record.state.outcome is not None:
            await self._save_ending_duel(record, now)
            return
        await _games.save_game(self._write, self._known, record, now, self._lane)

    async def _save_ending_duel(self, record: GameRecord, now: float | None) -> None:
        """The full way (a duel ends once, the shortcut is not worth it), its Elo in the
        same transaction."""
        self._known.forget(record.state.id)
        for attempt in range(2):
            try:
                async with self._write() as conn:
                    rate = await _ratings.ends_rated_duel(conn, record)
                    await _games.save(conn, record, now)
                    if rate:
                        await _ratings.record_duel(conn, record)
                return
            except IntegrityError as exc:
                if attempt:
                    raise StaleGame(f"game {record.state.id} conflicts with a stored one") from exc

    async def load_game(self, game_id: str) -> GameRecord | None:
        async with self._read() as conn:
            return await _games.load(conn, game_id)

    async def find_game(self, guild_id: int, id_or_prefix: str) -> GameRecord | None:
        """A game of this server by id or unique id prefix; None if missing or ambiguous."""
        async with self._read() as conn:
            return await _games.find(conn, guild_id, id_or_prefix)

    async def active_games(self) -> list[GameRecord]:
        async with self._read() as conn:
            return await _games.active(conn)

    async def active_game_of(self, guild_id: int, user_id: int) -> GameRecord | None:
        async with self._read() as conn:
            return await _games.active_of(conn, guild_id, user_id)

    async def count_attempts(
        self, guild_id: int, user_id: int, set_name: str, period: str, *,
        version: str | None = None,
    ) -> int:  # fmt: skip
        """Qualification attempts used (finished or not, void ones not) in that period, of
        the Set's `version` only when given."""
        used, _started = await self.attempt_counts(
            guild_id, user_id, set_name, period, version=version
        )
        return used

    async def attempt_counts(
        self, guild_id: int, user_id: int, set_name: str, period: str, *,
        version: str | None = None,
    ) -> tuple[int, int]:  # fmt: skip
        """(attempts used, Qualifications started, void ones too) in that period."""
        async with self._read() as conn:
            return await _games.attempt_counts(
                conn, guild_id, user_id, set_name, period, version=version
            )

    async def recent_starts(self, guild_id: int, user_id: int, since: float) -> list[float]:
        """When the player's games here started, from `since` on, newest first."""
        async with self._read() as conn:
            return await _games.recent_starts(conn, guild_id, user_id, since)

    async def overdue_games(self, before: float) -> list[GameRecord]:
        """Active games whose open round's deadline passed before `before`."""
        async with self._read() as conn:
            return await _games.overdue(conn, before)

    async def finished_since(self, since: float) -> list[FinishedThread]:
        """The threads of the games that finished after `since`."""
        async with self._read() as conn:
            return await _games.finished_since(conn, since)

    async def history(
        self, guild_id: int, user_id: int, *, limit: int = 10, offset: int = 0
    ) -> list[GameRecord]:
        """The player's games on the server, newest first (running ones included)."""
        async with self._read() as conn:
            return await _games.history(conn, guild_id, user_id, limit, offset)

    async def history_count(self, guild_id: int, user_id: int) -> int:
        async with self._read() as conn:
            return await _games.history_count(conn, guild_id, user_id)
