"""Migration 0026 on a database populated at 0025, SQLite and PostgreSQL: the games
already there get `ix_games_versions`, and the board's reads through it (the Sets, the
versions latest first, their numbers by the first game) list those games as before."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage import open_store
from bot.storage._games import save
from tests.bot.storage.builders import CHECKOUT_4, CHECKOUT_5, GUILD, NO_CHECKOUT, record, single
from tests.bot.storage.migrating import upgrade_from


def _indexes(connection: sa.Connection) -> set[str]:
    return {str(index["name"]) for index in sa.inspect(connection).get_indexes("games")}


async def test_a_database_at_0025_upgrades_with_the_versions_index(db_url: str) -> None:
    async def fill(conn: AsyncConnection) -> None:
        assert "ix_games_versions" not in await conn.run_sync(_indexes)
        for index, (player, results) in enumerate(
            ((1, CHECKOUT_5), (2, NO_CHECKOUT), (3, CHECKOUT_4), (4, NO_CHECKOUT))
        ):
            await save(conn, record(single(f"g{index}", player, results)), None)
        moves = [("old", 10.0, "g0"), ("old", 20.0, "g1"), ("new", 30.0, "g2"), ("", 5.0, "g3")]
        for version, created, game_id in moves:  # three versions, first played g3, g0, g2
            await conn.execute(
                sa.text("UPDATE games SET set_version = :v, created_at = :c WHERE id = :id"),
                {"v": version, "c": created, "id": game_id},
            )

    async def indexed(conn: AsyncConnection) -> None:
        assert "ix_games_versions" in await conn.run_sync(_indexes)

    await upgrade_from(db_url, "0025", fill=fill, then=indexed)
    store = await open_store(db_url)
    try:
        assert await store.boards.qualification_sets(GUILD) == ["darts"]
        assert await store.boards.set_versions(GUILD, "darts") == ["new", "old", ""]
        assert await store.boards.set_version_numbers(GUILD, "darts") == {"old": 1, "new": 2}
    finally:
        await store.close()
