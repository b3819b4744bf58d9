"""A database populated at an earlier revision, then upgraded: the one shape every
migration test shares, so each test says only what it puts in and what it expects out.

Rows go in as plain SQL against that revision's tables (the models describe the head,
not the past); `fill` covers what rows cannot say (saving through the old code path).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage._engine import current_revision, head_revision, make_engine, upgrade

Rows = Sequence[Mapping[str, object]]
Fill = Callable[[AsyncConnection], Awaitable[None]]


async def insert(conn: AsyncConnection, table: str, rows: Rows) -> None:
    """INSERT `rows` (all with the same columns) into `table`."""
    columns = list(rows[0])
    names = ", ".join(f'"{c}"' for c in columns)
    values = ", ".join(f":{c}" for c in columns)
    statement = sa.text(f"INSERT INTO {table} ({names}) VALUES ({values})")
    await conn.execute(statement, [dict(row) for row in rows])


async def upgrade_from(
    db_url: str,
    at: str,
    rows: Mapping[str, Rows] | None = None,
    *,
    fill: Fill | None = None,
    then: Fill | None = None,
    to: str | None = None,
) -> None:
    """Migrate an empty database to `at`, put `rows` (table → rows) and `fill` in, upgrade
    to `to` (the head when None) and check it got there; `then` runs on the upgraded
    database before the engine closes (to look at the schema itself)."""
    engine = make_engine(db_url)
    try:
        await upgrade(engine, at)
        async with engine.begin() as conn:
            for table, table_rows in (rows or {}).items():
                await insert(conn, table, table_rows)
            if fill is not None:
                await fill(conn)
        await upgrade(engine, to or "head")
        assert await current_revision(engine) == (to or head_revision())
        if then is not None:
            async with engine.begin() as conn:
                await then(conn)
    finally:
        await engine.dispose()
