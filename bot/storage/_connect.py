"""The Store's two ways to the database, shared by every repository the Store holds.

`write()` is one transaction, queued behind the Store's other writers on SQLite:
SQLite allows one writer at a time anyway, and queuing in-process avoids "database is
locked" retries. PostgreSQL relies on row locks and unique keys instead, so several
bot processes could share it. `read()` is a connection for reads. The Store owns one
`Connections` and hands its two methods (`Connect`) to each repository (`Store.games`,
`.boards`, `.servers` ...), so all of them share one engine and one lock.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

Connect = Callable[[], AbstractAsyncContextManager[AsyncConnection]]
"""`Connections.write` or `.read`, as a Store's repository is handed them."""


class Connections:
    """An engine and its writers' queue (SQLite only), opened as transactions."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.write_lock = asyncio.Lock() if engine.dialect.name == "sqlite" else None

    @asynccontextmanager
    async def write(self) -> AsyncIterator[AsyncConnection]:
        if self.write_lock is None:
            async with self.engine.begin() as conn:
                yield conn
            return
        async with self.write_lock, self.engine.begin() as conn:
            yield conn

    @asynccontextmanager
    async def read(self) -> AsyncIterator[AsyncConnection]:
        async with self.engine.connect() as conn:
            yield conn
