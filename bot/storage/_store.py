"""The Store: the one object that opens the database, and its repositories by subject.

Every repository method is one transaction, on the connections of `_connect` (on
SQLite the Store queues its own writers; PostgreSQL relies on row locks and unique
keys, so several bot processes could share it). The Store itself only opens and closes;
a feature takes the repositories it uses, not the whole Store:

- `games` the games (save, load, history, attempts); `boards` boards, stats, streaks
  and Elo; `challenges` duel challenges; `sets` a server's own Sets; `moderation`
  voiding and barring; `install` the installation's secrets and state claims;
- `servers` a server's settings and daily posts; `names` players' names; `untold`
  summaries Discord did not take; `best` best answers found after a game; `rooms`,
  `cups`, `cup_matches`, `puzzles`, `achievements`, `roles`, `fairplay`.
"""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncEngine

from bot.storage._achievements import AchievementStore
from bot.storage._best import BestStore
from bot.storage._connect import Connections
from bot.storage._cup_matches import CupMatchStore
from bot.storage._cups import CupStore
from bot.storage._engine import enable_wal, make_engine, upgrade
from bot.storage._fairplay import FairPlayStore
from bot.storage._lane import SqliteLane
from bot.storage._names import NameStore
from bot.storage._pg_steps import PgSteps
from bot.storage._puzzles import PuzzleStore
from bot.storage._roles import RoleStore
from bot.storage._rooms import RoomStore
from bot.storage._servers import ServerStore
from bot.storage._store_boards import BoardStore
from bot.storage._store_games import GameStore
from bot.storage._store_install import InstallStore
from bot.storage._store_moderation import ModerationStore
from bot.storage._store_offers import ChallengeStore, ServerSetStore
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
    """The database, opened once, and one repository per subject sharing its
    connections (the module says which holds what)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        connections = Connections(engine)
        write, read = connections.write, connections.read
        self._lane = SqliteLane.of(engine, connections.write_lock)
        self._pg_steps = PgSteps.of(engine)
        self.games = GameStore(write, read, self._lane or self._pg_steps)
        self.boards = BoardStore(write, read)
        self.challenges = ChallengeStore(write, read)
        self.sets = ServerSetStore(write, read)
        self.moderation = ModerationStore(write, read)
        self.install = InstallStore(write, read)
        self.servers = ServerStore(write, read)
        self.names = NameStore(write, read)
        self.untold = UntoldStore(write, read)
        self.best = BestStore(write, read)
        self.rooms = RoomStore(write, read)
        self.achievements = AchievementStore(write, read)
        self.roles = RoleStore(write, read)
        self.cups = CupStore(write, read)
        self.cup_matches = CupMatchStore(write, read)
        self.puzzles = PuzzleStore(write, read, self._lane)
        self.fairplay = FairPlayStore(read)

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

    async def close(self) -> None:
        lane, self._lane = self._lane, None
        if lane is not None:
            await lane.close()
        pg_steps, self._pg_steps = self._pg_steps, None
        if pg_steps is not None:
            await pg_steps.close()
        await self.engine.dispose()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()
