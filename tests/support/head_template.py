"""A database at the newest schema in milliseconds: the migrations run once per test
process into a template, and each test's database is a copy of it.

Running the 22 migrations costs 0.2-0.8 s on SQLite and more on PostgreSQL; about a
thousand tests open a fresh store, so migrating each one was minutes of every suite run.
A SQLite database is a file, so its copy is a file copy; PostgreSQL clones a database
natively (`CREATE DATABASE ... TEMPLATE`). The migrations themselves stay tested where
they are the subject (`open_store` on an empty database, tests/bot/storage/migrating.py).
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from pathlib import Path

import asyncpg  # type: ignore[import-untyped]
from sqlalchemy.engine import URL, make_url

from bot.storage import Store, open_store

_TEMPLATE_DB = "fd_template_head"
_sqlite_templates: list[Path] = []  # at most one: made at the first use in this process
_postgres_templates: set[str] = set()


async def clone_head(url: str) -> None:
    """Make the (new, empty) database at `url` a copy of one at the newest schema."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        target = Path(parsed.database or "")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(await _sqlite_head(), target)
        return
    server = parsed.set(database="postgres")
    await _postgres_head(server)
    await _recreate(server, str(parsed.database), f' TEMPLATE "{_TEMPLATE_DB}"')


async def _sqlite_head() -> Path:
    if not _sqlite_templates:
        folder = Path(tempfile.mkdtemp(prefix="fd-head-"))
        atexit.register(shutil.rmtree, folder, True)
        path = folder / "head.sqlite3"
        store = await open_store(f"sqlite+aiosqlite:///{path}")
        await store.close()  # the last connection's close folds the WAL into the file
        _sqlite_templates.append(path)
    return _sqlite_templates[0]


async def _postgres_head(server: URL) -> None:
    key = server.render_as_string(hide_password=False)
    if key in _postgres_templates:
        return
    await _recreate(server, _TEMPLATE_DB)
    store = await open_store(
        server.set(database=_TEMPLATE_DB).render_as_string(hide_password=False)
    )
    await store.close()  # a template may have no connection when it is cloned
    _postgres_templates.add(key)


async def _recreate(server: URL, name: str, template: str = "") -> None:
    """Drop the database `name` on `server` if it is there, and create it anew."""
    admin = await asyncpg.connect(
        server.set(drivername="postgresql").render_as_string(hide_password=False)
    )
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.execute(f'CREATE DATABASE "{name}"{template}')
    finally:
        await admin.close()


async def open_head_store(url: str) -> Store:
    """A Store on a new database at `url`, cloned from the newest schema."""
    await clone_head(url)
    return await open_store(url, migrate=False)
