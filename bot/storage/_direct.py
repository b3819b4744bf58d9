"""The save's own statements, compiled once, sent to SQLite at one thread hop each.

SQLAlchemy's aiosqlite adapter crosses between the event loop and SQLite's thread
three times for every statement (open a cursor, execute, close it), and on a save
of a few small statements those crossings are most of its time. So on SQLite the
save's prebuilt statements (`_advance`) go straight to the driver's connection,
inside the very transaction SQLAlchemy began on it (its commit or rollback ends
them): the SQL is SQLAlchemy's own compilation of each statement, made once, and
the values are bound by the driver as always (nothing is ever spliced into SQL).
On PostgreSQL they go through `conn.execute` as usual. On a SQLite file the common
save does not come here at all: `_lane` sends it whole, with these compilations.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

Params = dict[str, Any]
Statement = sa.Insert | sa.Update


class _Compiled:
    """A statement's SQL and how to fill its `?`s from a row of named values."""

    def __init__(self, dialect: sa.Dialect, statement: Statement) -> None:
        compiled = statement.compile(dialect=dialect)
        self.sql = compiled.string
        self.names = tuple(compiled.positiontup or ())
        self.fixed = {  # values written into the statement itself, e.g. `resolved=True`
            name: bind.value for name, bind in compiled.binds.items() if not bind.required
        }
        self._get = _getter(self.names)

    def values(self, row: Params) -> tuple[Any, ...]:
        """The `?`s' values: the row's, else the statement's own (`fixed`)."""
        return self._get({**self.fixed, **row} if self.fixed else row)


def _getter(names: tuple[str, ...]) -> Callable[[Params], tuple[Any, ...]]:
    """The values of `names` in a row, as a tuple, at C speed (itemgetter's one name
    gives the value alone: wrapped)."""
    if len(names) == 1:
        one = names[0]
        return lambda row: (row[one],)
    if not names:
        return lambda row: ()
    getter: Callable[[Params], tuple[Any, ...]] = itemgetter(*names)
    return getter


class Direct:
    def __init__(self) -> None:
        self._compiled: dict[int, _Compiled] = {}

    def compiled(self, dialect: sa.Dialect, statement: Statement) -> _Compiled:
        key = id(statement)  # module-level statements, alive as long as the process
        found = self._compiled.get(key)
        return found or self._compiled.setdefault(key, _Compiled(dialect, statement))

    async def run(
        self, conn: AsyncConnection, statement: Statement, params: Params | Sequence[Params]
    ) -> int:
        """Execute (many, for a list of rows) within `conn`'s transaction; the row count."""
        if conn.dialect.name != "sqlite":
            return int((await conn.execute(statement, params)).rowcount)
        compiled = self.compiled(conn.dialect, statement)
        driver = (await conn.get_raw_connection()).driver_connection
        assert driver is not None
        try:
            if isinstance(params, dict):
                cursor = await driver.execute(compiled.sql, compiled.values(params))
            else:
                rows = [compiled.values(p) for p in params]
                cursor = await driver.executemany(compiled.sql, rows)
        except sqlite3.IntegrityError as error:  # as SQLAlchemy would say it: the Store retries
            raise sa.exc.IntegrityError(compiled.sql, None, error) from error
        return int(cursor.rowcount)


direct = Direct()
