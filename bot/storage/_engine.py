"""Database URLs, the async engine, and Alembic migrations run in-process.

Migrations run on the engine's own connection (Alembic's connection-sharing
recipe), so `open_store` and `formula-darts db upgrade` need no alembic.ini and
work the same on SQLite and PostgreSQL.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

DEFAULT_URL = "sqlite+aiosqlite:///data/formula-darts.sqlite3"
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
_DRIVERS = {
    "sqlite": "sqlite+aiosqlite",
    "postgresql": "postgresql+asyncpg",
    "postgres": "postgresql+asyncpg",
}
_MIGRATION_LOCK = (
    0x46445342  # PostgreSQL advisory lock key: two starting bots migrate one at a time
)


def normalize_url(url: str | None) -> str:
    """Put the async driver into a URL: `sqlite:///x` and `postgresql://...` are accepted too."""
    url = url or DEFAULT_URL
    scheme, sep, rest = url.partition("://")
    if not sep:
        raise ValueError(f"not a database URL: {url!r}")
    driver = _DRIVERS.get(scheme, scheme)
    if driver not in {"sqlite+aiosqlite", "postgresql+asyncpg"}:
        raise ValueError(f"unsupported database {scheme!r}: use sqlite:/// or postgresql://")
    return f"{driver}://{rest}"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()


def make_engine(url: str | None) -> AsyncEngine:
    """An engine for the URL; a SQLite file's directory is created on first use."""
    parsed = make_url(normalize_url(url))
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        if database and database != ":memory:" and not database.startswith("file:"):
            Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
        # Every use of a connection is a Connection that ends its own transaction (a
        # commit, or the rollback of its close), so the pool's extra rollback on return
        # would only cost one more hop to SQLite's thread on every save.
        engine = create_async_engine(parsed, pool_reset_on_return=None)
        sa.event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        return engine
    return create_async_engine(parsed, pool_pre_ping=True)


async def enable_wal(engine: AsyncEngine) -> None:
    """WAL lets readers (leaderboards) run while a game is being written."""
    if engine.dialect.name != "sqlite" or engine.url.database in (None, "", ":memory:"):
        return
    async with engine.connect() as conn:
        await conn.exec_driver_sql("PRAGMA journal_mode=WAL")


def alembic_config(connection: sa.Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def _upgrade(connection: sa.Connection, revision: str) -> None:
    if connection.dialect.name == "postgresql":
        connection.execute(sa.select(sa.func.pg_advisory_xact_lock(_MIGRATION_LOCK)))
    command.upgrade(alembic_config(connection), revision)


async def upgrade(engine: AsyncEngine, revision: str = "head") -> None:
    """Apply migrations up to `revision` in one transaction."""
    async with engine.begin() as conn:
        await conn.run_sync(_upgrade, revision)


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


async def current_revision(engine: AsyncEngine) -> str | None:
    def read(connection: sa.Connection) -> str | None:
        return MigrationContext.configure(connection).get_current_revision()

    async with engine.connect() as conn:
        return await conn.run_sync(read)
