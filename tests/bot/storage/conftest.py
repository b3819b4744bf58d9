"""Fixtures: every storage test runs on SQLite and on a real, throwaway PostgreSQL
(the cluster: tests/support/postgres.py, one per session)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.storage import Store
from tests.support.head_template import open_head_store
from tests.support.postgres import fresh_database


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """The URL of a fresh, empty database of each kind."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'db' / 'test.sqlite3'}"
        return
    server: str = request.getfixturevalue("postgres_server")
    async with fresh_database(server) as url:
        yield url


@pytest.fixture
async def store(db_url: str) -> AsyncIterator[Store]:
    opened = await open_head_store(db_url)
    try:
        yield opened
    finally:
        await opened.close()
