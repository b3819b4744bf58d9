"""Migrations: empty to head on both databases, and the models match what they build."""

from __future__ import annotations

import asyncio

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from bot.cli import main
from bot.storage import open_store
from bot.storage._engine import (
    alembic_config,
    current_revision,
    head_revision,
    make_engine,
    upgrade,
)
from bot.storage._models import metadata

TABLES = {
    "players",
    "servers",
    "games",
    "game_players",
    "rounds",
    "answers",
    "ratings",
    "rating_events",
    "challenges",
    "server_sets",
    "server_config",
    "daily_posts",
}


def _diff(connection: sa.Connection) -> list[object]:
    context = MigrationContext.configure(connection, opts={"compare_type": True})
    return list(compare_metadata(context, metadata))


def _tables(connection: sa.Connection) -> set[str]:
    return set(sa.inspect(connection).get_table_names())


async def test_empty_database_to_head_matches_the_models(db_url: str) -> None:
    engine = make_engine(db_url)
    try:
        assert await current_revision(engine) is None
        await upgrade(engine)
        assert await current_revision(engine) == head_revision()
        async with engine.connect() as conn:
            assert await conn.run_sync(_tables) >= TABLES
            assert await conn.run_sync(_diff) == []
    finally:
        await engine.dispose()


async def test_downgrade_to_empty_and_up_again(db_url: str) -> None:
    engine = make_engine(db_url)

    def down(connection: sa.Connection) -> None:
        command.downgrade(alembic_config(connection), "base")

    try:
        await upgrade(engine)
        async with engine.begin() as conn:
            await conn.run_sync(down)
        async with engine.connect() as conn:
            assert not (await conn.run_sync(_tables) & TABLES)
        await upgrade(engine)
        assert await current_revision(engine) == head_revision()
    finally:
        await engine.dispose()


async def test_open_store_twice_is_harmless(db_url: str) -> None:
    first = await open_store(db_url)
    await first.close()
    second = await open_store(db_url)
    assert await second.active_games() == []
    await second.close()


async def test_cli_db_upgrade(db_url: str, capsys: object) -> None:
    assert await asyncio.to_thread(main, ["db", "--url", db_url, "upgrade"]) == 0
    assert await asyncio.to_thread(main, ["db", "--url", db_url, "current"]) == 0
    engine = make_engine(db_url)
    try:
        assert await current_revision(engine) == head_revision()
    finally:
        await engine.dispose()


async def test_cli_refuses_an_unknown_database() -> None:
    assert await asyncio.to_thread(main, ["db", "--url", "mysql://x/y", "upgrade"]) == 1


async def test_cli_reads_database_url_like_the_bot(tmp_path, monkeypatch) -> None:
    target = tmp_path / "from-env" / "bot.sqlite3"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{target}")
    assert await asyncio.to_thread(main, ["db", "upgrade"]) == 0
    assert target.exists()
    store = await open_store(f"sqlite:///{target}", migrate=False)
    try:
        assert await store.active_games() == []
    finally:
        await store.close()


async def test_cli_url_after_the_action(db_url: str, capsys: pytest.CaptureFixture[str]) -> None:
    """`db upgrade --url U` works as well as `db --url U upgrade`; the later one wins."""
    assert await asyncio.to_thread(main, ["db", "upgrade", "--url", db_url]) == 0
    assert await asyncio.to_thread(main, ["db", "current", "--url", db_url]) == 0
    assert "up to date" in capsys.readouterr().out
    both = ["db", "--url", "mysql://x/y", "current", "--url", db_url]
    assert await asyncio.to_thread(main, both) == 0
    assert await asyncio.to_thread(main, ["db", "--url", db_url, "current"]) == 0
