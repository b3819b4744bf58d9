"""Migration 0016 on a database populated at 0015, SQLite and PostgreSQL: the board's and
the streaks' indexes are built over the games already there, the board reads the same,
and on SQLite its window reads the new index in order (no sort of the Set's games)."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage import open_store
from bot.storage._games import save
from tests.bot.storage.builders import CHECKOUT_4, CHECKOUT_5, GUILD, NO_CHECKOUT, record, single
from tests.bot.storage.migrating import upgrade_from

NEW = {"ix_games_board", "ix_games_streaks"}


def _indexes(connection: sa.Connection) -> set[str]:
    return {str(index["name"]) for index in sa.inspect(connection).get_indexes("games")}


async def test_a_database_at_0015_upgrades_with_the_board_indexes(db_url: str) -> None:
    async def fill(conn: AsyncConnection) -> None:
        assert not NEW & await conn.run_sync(_indexes)
        for state in (
            single("a-perfect", 1, CHECKOUT_4), single("a-five", 1, CHECKOUT_5),
            single("b-max", 2, NO_CHECKOUT), single("c-lost", 3, [100], timeout=True),
        ):  # fmt: skip
            await save(conn, record(state), None)

    async def indexed(conn: AsyncConnection) -> None:
        assert await conn.run_sync(_indexes) >= NEW

    await upgrade_from(db_url, "0015", fill=fill, then=indexed)
    store = await open_store(db_url)
    try:
        rows, total = await store.boards.qualification_page(GUILD, "darts", None)
        assert [(r.user_id, r.game_id) for r in rows] == [(1, "a-perfect"), (2, "b-max")]
        assert total == 2
        streaks = await store.boards.board_streaks(GUILD, "darts", [1, 2, 3], "2026-11-29")
        assert {user: s.current for user, s in streaks.items()} == {1: 1, 2: 1, 3: 0}
        if db_url.startswith("sqlite"):
            async with store.engine.connect() as conn:
                plan = await conn.exec_driver_sql(
                    "EXPLAIN QUERY PLAN SELECT id, row_number() OVER (PARTITION BY player "
                    "ORDER BY rank_class, rank_value, answer_time, created_at, id) FROM games "
                    "WHERE guild_id = ? AND mode = 'qualification' AND set_name = 'darts' "
                    "AND set_version = ? AND rank_class IN (0, 1)",
                    (GUILD, "any"),
                )
                steps = " | ".join(str(row[-1]) for row in plan)
            assert "ix_games_board" in steps and "TEMP B-TREE" not in steps, steps
    finally:
        await store.close()
