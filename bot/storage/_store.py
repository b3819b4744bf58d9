"""The Store: the one object the bot talks to for everything it keeps.

Every public method is one transaction. On SQLite the Store also serializes its
own writers with an asyncio lock: SQLite allows one writer at a time anyway, and
queuing in-process avoids "database is locked" retries. PostgreSQL relies on row
locks and unique keys instead, so several bot processes could share it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Collection, Sequence
from contextlib import asynccontextmanager

from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

import rules
from bot.storage import _boards, _games, _install, _moderation, _offers, _streaks
from bot.storage._advance import Known
from bot.storage._engine import enable_wal, make_engine, upgrade
from bot.storage._lane import SqliteLane
from bot.storage._names import NameStore
from bot.storage._records import (
    Challenge,
    ChallengeStatus,
    FinishedThread,
    GameRecord,
    LeaderRow,
    ModerationEntry,
    PlayerStats,
    RatingChange,
    RatingRow,
    RematchTaken,
    StaleGame,
)
from bot.storage._servers import ServerStore
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


class Store:
    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._write_lock = asyncio.Lock() if engine.dialect.name == "sqlite" else None
        self._secrets: dict[str, str] = {}
        self.servers = ServerStore(self._write, self._read)
        self.names = NameStore(self._write, self._read)
        self.untold = UntoldStore(self._write, self._read)
        self._known = Known()
        self._lane = SqliteLane.of(engine, self._write_lock)

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    async def close(self) -> None:
        lane, self._lane = self._lane, None
        if lane is not None:
            await lane.close()
        await self.engine.dispose()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[AsyncConnection]:
        if self._write_lock is None:
            async with self.engine.begin() as conn:
                yield conn
            return
        async with self._write_lock, self.engine.begin() as conn:
            yield conn

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[AsyncConnection]:
        async with self.engine.connect() as conn:
            yield conn

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
                    rate = await _boards.ends_rated_duel(conn, record)
                    await _games.save(conn, record, now)
                    if rate:
                        await _boards.record_duel(conn, record)
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

    # ratings and boards

    async def record_duel_result(self, record: GameRecord) -> list[RatingChange]:
        """Elo of a finished, saved duel, in player order; idempotent. `save_game`
        already applied it with the duel's end, so this returns those changes (and
        still rates a duel stored finished before that was so)."""
        for attempt in range(2):
            try:
                async with self._write() as conn:
                    return await _boards.record_duel(conn, record)
            except IntegrityError:
                if attempt:
                    raise
        raise AssertionError("unreachable")

    async def qualification_leaderboard(
        self,
        guild_id: int,
        set_name: str,
        since: str | None,
        *,
        limit: int = 10,
        offset: int = 0,
        version: str | None = None,
    ) -> list[LeaderRow]:
        """Best ranked game per player (losses left out); `since` is the first period
        included; `version` the Set's version ranked (the bot always names one)."""
        async with self._read() as conn:
            return await _boards.qualification(
                conn, guild_id, set_name, since, limit, offset, version
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
            return await _boards.stats(conn, guild_id, user_id)

    async def player_streaks(
        self, guild_id: int, user_id: int, today: str
    ) -> dict[str, rules.Streak]:
        """The player's Qualification streak per Set; `today` is the current period."""
        async with self._read() as conn:
            return await _streaks.player_streaks(conn, guild_id, user_id, today)

    async def board_streaks(
        self, guild_id: int, set_name: str, user_ids: Collection[int], today: str
    ) -> dict[int, rules.Streak]:
        async with self._read() as conn:
            return await _streaks.board_streaks(conn, guild_id, set_name, user_ids, today)

    # challenges

    async def save_challenge(self, challenge: Challenge) -> None:
        """Insert or update; RematchTaken if it is a second Rematch of the same duel."""
        try:
            async with self._write() as conn:
                await _offers.save_challenge(conn, challenge)
        except IntegrityError as exc:  # only the rematch key can clash: the id is upserted
            raise RematchTaken(f"duel {challenge.rematch_of} already has its rematch") from exc

    async def load_challenge(self, challenge_id: str) -> Challenge | None:
        async with self._read() as conn:
            return await _offers.challenge_where(conn, _offers.challenges_t.c.id == challenge_id)

    async def rematch_of(self, game_id: str) -> Challenge | None:
        """The Rematch challenge asked for after the duel `game_id`, if any."""
        async with self._read() as conn:
            return await _offers.challenge_where(conn, _offers.challenges_t.c.rematch_of == game_id)

    async def pending_challenges(self) -> list[Challenge]:
        async with self._read() as conn:
            return await _offers.pending(conn)

    async def set_challenge_status(self, challenge_id: str, status: ChallengeStatus) -> bool:
        """Move a pending challenge on; False if someone else moved it first."""
        if ChallengeStatus(status) is ChallengeStatus.PENDING:
            raise ValueError("a challenge cannot become pending again")
        async with self._write() as conn:
            return await _offers.move_on(conn, challenge_id, status)

    # server Sets

    async def server_sets(self, guild_id: int) -> list[rules.GameSet]:
        async with self._read() as conn:
            return await _offers.server_sets(conn, guild_id)

    async def save_server_set(self, guild_id: int, game_set: rules.GameSet) -> None:
        await self.save_server_sets(guild_id, [game_set])

    async def save_server_sets(
        self,
        guild_id: int,
        sets: Sequence[rules.GameSet],
        *,
        cap: int | None = None,
        hidden: Collection[str] = (),
    ) -> list[str]:
        """Add or replace Sets of a server in one transaction; the names newly added.

        With `cap`, the server may hold at most that many Sets (names in `hidden`, which
        global Sets shadow, do not count), checked inside the transaction: two imports
        at once cannot both squeeze under it. TooManySets saves nothing.
        """
        async with self._write() as conn:
            return await _offers.save_server_sets(conn, guild_id, sets, cap, hidden, time.time())

    async def delete_server_set(self, guild_id: int, name: str) -> bool:
        async with self._write() as conn:
            return await _offers.delete_server_set(conn, guild_id, name)

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

    # moderation

    async def void_game(
        self, guild_id: int, game_id: str, actor_id: int, reason: str, now: float,
        *, ended: bool = False,
    ) -> bool:  # fmt: skip
        """An admin voids a finished game of the server: off boards, stats and Elo; logged.
        False if it is not one, or is void already; `ended`: the admin's call has just
        ended it as void while it ran (then it is only logged)."""
        async with self._write() as conn:
            return await _moderation.void(conn, guild_id, game_id, actor_id, reason, now, ended)

    async def unvoid_game(
        self, guild_id: int, game_id: str, actor_id: int, reason: str, now: float
    ) -> bool:
        async with self._write() as conn:
            return await _moderation.unvoid(conn, guild_id, game_id, actor_id, reason, now)

    async def bar_player(
        self, guild_id: int, user_id: int, actor_id: int, reason: str, now: float
    ) -> bool:
        async with self._write() as conn:
            return await _moderation.bar(conn, guild_id, user_id, actor_id, reason, now)

    async def unbar_player(
        self, guild_id: int, user_id: int, actor_id: int, reason: str, now: float
    ) -> bool:
        async with self._write() as conn:
            return await _moderation.unbar(conn, guild_id, user_id, actor_id, reason, now)

    async def barred_reason(self, guild_id: int, user_id: int) -> str | None:
        async with self._read() as conn:
            return await _moderation.barred(conn, guild_id, user_id)

    async def moderation_log(self, guild_id: int, *, limit: int = 20) -> list[ModerationEntry]:
        async with self._read() as conn:
            return await _moderation.entries(conn, guild_id, limit)
