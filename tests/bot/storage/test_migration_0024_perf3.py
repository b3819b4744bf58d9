"""Migration 0024 on a database populated at 0023, SQLite and PostgreSQL: `board_best` is
backfilled with each player's best ranked game of the games already there (a lost and
a void game left out), the board reads the same as the window over `games`, and the
triggers keep the table after the upgrade (a new best, a void)."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage import open_store
from bot.storage._board_best import board_best
from bot.storage._boards import window_page
from bot.storage._games import save
from tests.bot.storage.builders import CHECKOUT_4, CHECKOUT_5, GUILD, NO_CHECKOUT, record, single
from tests.bot.storage.migrating import upgrade_from


def _tables(connection: sa.Connection) -> set[str]:
    return set(sa.inspect(connection).get_table_names())


async def test_a_database_at_0023_upgrades_with_each_players_best_game(db_url: str) -> None:
    async def fill(conn: AsyncConnection) -> None:
        assert "board_best" not in await conn.run_sync(_tables)
        for state in (
            single("a-five", 1, CHECKOUT_5), single("a-max", 1, NO_CHECKOUT),
            single("b-max", 2, NO_CHECKOUT), single("c-lost", 3, [100], timeout=True),
            single("d-void", 4, CHECKOUT_4),
        ):  # fmt: skip
            await save(conn, record(state), None)
        await conn.execute(  # voided at 0023, as moderation does
            sa.text("UPDATE games SET status = 'void', rank_class = NULL WHERE id = 'd-void'")
        )

    async def backfilled(conn: AsyncConnection) -> None:
        rows = await conn.execute(sa.select(board_best.c.player, board_best.c.game_id))
        assert sorted(tuple(row) for row in rows) == [("1", "a-five"), ("2", "b-max")]

    await upgrade_from(db_url, "0023", fill=fill, then=backfilled)
    store = await open_store(db_url)
    try:
        version = (await store.boards.set_versions(GUILD, "darts"))[0]

        async def board() -> list[tuple[int, str]]:
            rows, total = await store.boards.qualification_page(
                GUILD, "darts", None, version=version
            )
            async with store.engine.connect() as conn:
                assert (rows, total) == await window_page(
                    conn, GUILD, "darts", None, 10, 0, version
                )
            return [(row.user_id, row.game_id) for row in rows]

        assert await board() == [(1, "a-five"), (2, "b-max")]
        await store.games.save_game(record(single("b-perfect", 2, CHECKOUT_4)))
        assert await board() == [(2, "b-perfect"), (1, "a-five")]
        assert await store.moderation.void_game(GUILD, "b-perfect", 99, "copied", 1.0)
        assert await board() == [(1, "a-five"), (2, "b-max")]
    finally:
        await store.close()
