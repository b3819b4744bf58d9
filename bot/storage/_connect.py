"""The Store's two ways to the database, shared by every part the Store is made of.

`_write()` is one transaction, queued behind the Store's other writers on SQLite:
SQLite allows one writer at a time anyway, and queuing in-process avoids "database is
locked" retries. PostgreSQL relies on row locks and unique keys instead, so several
bot processes could share it. `_read()` is a connection for reads. The Store's method
groups inherit them (`Connections`); its attribute parts (`Store.servers`, `.names`,
`.untold`) are given them (`Connect`), so all of them share one engine and one lock.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

Connect = Callable[[], AbstractAsyncContextManager[AsyncConnection]]
"""`Connections._write` or `._read`, as a Store's part is handed them."""


class Connections:
    """An engine and its writers' queue (SQLite only), opened as transactions."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._write_lock = asyncio.Lock() if engine.dialect.name == "sqlite" else None

    @property
    def dialect(self) -> str:
        return self.engine.dialect.name

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
