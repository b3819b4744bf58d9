"""The Store: the one object the bot talks to for everything it keeps.

Every public method is one transaction, on the connections of `_connect` (on SQLite
the Store queues its own writers; PostgreSQL relies on row locks and unique keys, so
several bot processes could share it). The games are here; the boards and ratings,
the challenges and server Sets, and moderation are the parts `Store` inherits
(`_store_boards`, `_store_offers`, `_store_moderation`); a server's settings and daily
posts, players' names, untold summaries and best answers found after a game are its
attributes (`Store.servers`, `Store.names`, `Store.untold`, `Store.best`).
"""

from __future__ import annotations

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

import rules
from bot.storage import _games, _install, _ratings
from bot.storage._achievements import AchievementStore
from bot.storage._advance import Known
from bot.storage._best import BestStore
from bot.storage._cup_matches import CupMatchStore
from bot.storage._cups import CupStore
from bot.storage._engine import enable_wal, make_engine, upgrade
from bot.storage._fairplay import FairPlayStore
from bot.storage._lane import SqliteLane
from bot.storage._names import NameStore
from bot.storage._puzzles import PuzzleStore
from bot.storage._records import FinishedThread, GameRecord, StaleGame
from bot.storage._roles import RoleStore
from bot.storage._rooms import RoomStore
from bot.storage._servers import ServerStore
from bot.storage._store_boards import BoardsPart
from bot.storage._store_moderation import ModerationPart
from bot.storage._store_offers import OffersPart
from bot.storage._untold import UntoldStore


async def open_store(url: str | None = None, *, migrate: bool = True) -> Store:
    """Open the database at `url` (SQLite by default), migrating it to the newest schema."""
    engine = make_engine(url)
    try:
        await enable_wal(engine)
        if migrate:
            await upgrade(engine)
    except BaseException:
        await engine.dispose()
        raise
    return Store(engine)


class Store(BoardsPart, OffersPart, ModerationPart):
    """Everything the bot keeps: its games here, the rest in the parts it inherits and
    holds (the module says which); one transaction a method."""

    def __init__(self, engine: AsyncEngine) -> None:
        super().__init__(engine)
        self._secrets: dict[str, str] = {}
        self.servers = ServerStore(self._write, self._read)
        self.names = NameStore(self._write, self._read)
        self.untold = UntoldStore(self._write, self._read)
        self.best = BestStore(self._write, self._read)

        self.rooms = RoomStore(self._write, self._read)
        self.achievements = AchievementStore(self._write, self._read)
        self.roles = RoleStore(self._write, self._read)
        self.cups = CupStore(self._write, self._read)
        self.cup_matches = CupMatchStore(self._write, self._read)
        self._known = Known()
        self._lane = SqliteLane.of(engine, self._write_lock)
        self.puzzles = PuzzleStore(self._write, self._read, self._lane)
        self.fairplay = FairPlayStore(self._read)

    async def close(self) -> None:
        lane, self._lane = self._lane, None
        if lane is not None:
            await lane.close()
        await self.engine.dispose()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    # games

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

    # installation secrets and small facts (`_install`)

    async def install_secret(self, name: str) -> str:
        """The installation's secret `name`, made at random the first time it is asked for
        (the same value for every process: see `_install.secret`)."""
        if name not in self._secrets:
            async with self._write() as conn:
                self._secrets[name] = await _install.secret(conn, name)
        return self._secrets[name]

    async def get_state(self, name: str) -> str | None:
        async with self._read() as conn:
            return await _install.get_state(conn, name)

    async def claim_state(self, name: str, value: str) -> bool:
        """Set `name` only if it is unset: True for the one caller that set it."""
        async with self._write() as conn:
            return await _install.claim_state(conn, name, value)

    async def drop_state(self, name: str) -> None:
        async with self._write() as conn:
            await _install.drop_state(conn, name)

    async def set_state(self, name: str, value: str) -> None:
        async with self._write() as conn:
            await _install.set_state(conn, name, value)
