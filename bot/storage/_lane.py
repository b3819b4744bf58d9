"""A game's save on a SQLite file in one trip to SQLite's thread, one transaction.

Through SQLAlchemy's aiosqlite adapter a save crosses between the event loop and a
database thread for every step of it: check out a connection, each statement
(`_direct` already cut those to one crossing each), the commit. Each crossing wakes
a thread and then the loop, and on a busy 2-core machine that waiting, not SQLite,
was most of an answer's cost. So the common save (`_advance`: a step of a game this
Store wrote last, worked out in Python beforehand) goes to a connection of its own
on a thread of its own as a whole: BEGIN IMMEDIATE, the compare-and-set on the game
row, the other statements, COMMIT, in one call. If the game row no longer holds the
known state, the transaction is rolled back and the save takes the full way, as
before. A new game's insert comes here too (`_first`: the game row's INSERT is the
gate, refused by its key if the game is stored already). The Store's writer lock is
held throughout, so in this process the lane and SQLAlchemy's writers still take
turns; other processes wait on SQLite's own lock (busy_timeout), as they always did.

The SQL is SQLAlchemy's compilation of the prebuilt statements (`_direct`); values
are bound by sqlite3. Only for a SQLite file: an in-memory database is one
connection's own, so there the save stays on SQLAlchemy's connection.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.storage._changes import Op
from bot.storage._direct import direct

log = logging.getLogger(__name__)
_Batch = list[tuple[str, tuple[Any, ...] | list[tuple[Any, ...]]]]


CHECKPOINT_EVERY = 200
"""Commits made on the loop between two WAL checkpoints (run on the lane's thread)."""


class SqliteLane:
    def __init__(self, path: str, dialect: sa.Dialect, lock: asyncio.Lock) -> None:
        self.path = path
        self.dialect = dialect
        self.lock = lock
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="fd-sqlite-save")
        self._inline: sqlite3.Connection | None = None  # used on the loop, never waits
        self._waiting: sqlite3.Connection | None = None  # used on the thread, may wait
        self._commits = 0
        self._checkpoint: asyncio.Future[None] | None = None

    @classmethod
    def of(cls, engine: AsyncEngine, lock: asyncio.Lock | None) -> SqliteLane | None:
        """The lane for `engine`'s database, or None where saves stay on SQLAlchemy."""
        database = engine.url.database or ""
        if lock is None or engine.dialect.name != "sqlite" or not database:
            return None
        if database == ":memory:" or database.startswith("file:") or engine.url.query:
            return None
        return cls(str(Path(database).expanduser()), engine.dialect, lock)

    async def apply(self, ops: list[Op]) -> bool:
        """Run `ops` in one transaction; False (nothing written) if the first, the game
        row's compare-and-set, matched no row. Errors are SQLAlchemy's kinds, as the
        Store's callers know them."""
        batch: _Batch = []
        for statement, params in ops:
            compiled = direct.compiled(self.dialect, statement)
            if isinstance(params, dict):
                batch.append((compiled.sql, compiled.values(params)))
            else:
                batch.append((compiled.sql, [compiled.values(p) for p in params]))
        async with self.lock:
            try:
                written = self._now(batch)
                if written is None:  # another process is writing: wait for it off the loop
                    written = await self._on_thread(batch)
            except sqlite3.IntegrityError as error:  # the Store retries it the full way
                raise sa.exc.IntegrityError(batch[0][0], None, error) from error
            except sqlite3.Error as error:
                raise sa.exc.OperationalError(batch[0][0], None, error) from error
        return written

    def _now(self, batch: _Batch) -> bool | None:
        """The transaction right here on the loop, if SQLite's writer lock is free at once
        (None if not: nothing was done). A commit in WAL mode with synchronous=NORMAL is
        a few writes into the page cache, no fsync: less than a trip to a thread costs."""
        if self._inline is None:
            self._inline = self._connect(busy_ms=0, checkpoints=False)
        try:
            self._inline.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            if error.sqlite_errorcode & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                return None
            raise
        written = self._transaction(self._inline, batch)
        self._commits += written
        if self._commits >= CHECKPOINT_EVERY and self._checkpoint is None:
            self._commits = 0
            self._checkpoint = asyncio.get_running_loop().run_in_executor(
                self._thread, self._wal_checkpoint
            )
            self._checkpoint.add_done_callback(self._checkpointed)
        return written

    async def _on_thread(self, batch: _Batch) -> bool:
        done = asyncio.get_running_loop().run_in_executor(self._thread, self._waited, batch)
        try:
            return await asyncio.shield(done)
        except asyncio.CancelledError:
            # the thread goes on: keep the lock until its transaction has ended
            await asyncio.wait([done])
            raise

    def _connect(self, *, busy_ms: int, checkpoints: bool) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        pragmas = ["foreign_keys=ON", f"busy_timeout={busy_ms}", "synchronous=NORMAL"]
        if not checkpoints:  # a checkpoint writes the database file and syncs: not on the loop
            pragmas.append("wal_autocheckpoint=0")
        for pragma in pragmas:  # as the engine's own connections (`_engine`)
            conn.execute(f"PRAGMA {pragma}")
        return conn

    def _waited(self, batch: _Batch) -> bool:
        """On the lane's thread: the transaction, waiting for SQLite's lock if need be."""
        if self._waiting is None:
            self._waiting = self._connect(busy_ms=10_000, checkpoints=True)
        self._waiting.execute("BEGIN IMMEDIATE")
        return self._transaction(self._waiting, batch)

    def _wal_checkpoint(self) -> None:
        if self._waiting is None:
            self._waiting = self._connect(busy_ms=10_000, checkpoints=True)
        self._waiting.execute("PRAGMA wal_checkpoint(PASSIVE)")

    def _checkpointed(self, done: asyncio.Future[None]) -> None:
        self._checkpoint = None
        if not done.cancelled() and done.exception() is not None:
            log.warning("WAL checkpoint failed: %s", done.exception())

    @staticmethod
    def _transaction(conn: sqlite3.Connection, batch: _Batch) -> bool:
        """The rest of a transaction begun on `conn`: committed, or rolled back (False: the
        compare-and-set matched nothing; an error: raised)."""
        try:
            (sql, values), *rest = batch
            assert isinstance(values, tuple)
            if conn.execute(sql, values).rowcount != 1:
                conn.execute("ROLLBACK")
                return False
            for sql, values in rest:
                if isinstance(values, tuple):
                    conn.execute(sql, values)
                else:
                    conn.executemany(sql, values)
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        return True

    def _close(self) -> None:
        for conn in (self._inline, self._waiting):
            if conn is not None:
                conn.close()
        self._inline = self._waiting = None

    async def close(self) -> None:
        if self._checkpoint is not None:
            await asyncio.wait([self._checkpoint])
        await asyncio.get_running_loop().run_in_executor(self._thread, self._close)
        self._thread.shutdown(wait=True)
