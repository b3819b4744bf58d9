"""Players' display names per server (`player_names`), for the web pages.

Written by the bot from what its interactions show (a batch of the names that changed),
read a page at a time; a server's names go when the bot leaves it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage._connect import Connect
from bot.storage._games import dialect_insert
from bot.storage._models import PLAYER_NAME, PlayerName, table

names_t = table(PlayerName)


async def remember(
    conn: AsyncConnection, guild_id: int, names: Mapping[int, str], now: float
) -> None:
    rows = [
        {"guild_id": guild_id, "user_id": user_id, "name": name[:PLAYER_NAME], "seen_at": now}
        for user_id, name in names.items()
    ]
    if not rows:
        return
    insert = dialect_insert(conn, names_t)
    await conn.execute(
        insert.on_conflict_do_update(
            index_elements=["guild_id", "user_id"],
            set_={"name": insert.excluded.name, "seen_at": insert.excluded.seen_at},
        ),
        rows,
    )


async def names_of(
    conn: AsyncConnection, guild_id: int, user_ids: Collection[int]
) -> dict[int, str]:
    if not user_ids:
        return {}
    result = await conn.execute(
        sa.select(names_t.c.user_id, names_t.c.name).where(
            names_t.c.guild_id == guild_id, names_t.c.user_id.in_(sorted(set(user_ids)))
        )
    )
    return {int(user_id): str(name) for user_id, name in result}


class NameStore:
    """`Store.names`: what the web pages call players, as the bot last saw them."""

    def __init__(self, write: Connect, read: Connect) -> None:
        self._write = write
        self._read = read

    async def remember(self, guild_id: int, names: Mapping[int, str], now: float) -> None:
        """Keep these names (user id → display name) of the server's players."""
        async with self._write() as conn:
            await remember(conn, guild_id, names, now)

    async def of(self, guild_id: int, user_ids: Collection[int]) -> dict[int, str]:
        """The known names among `user_ids` on the server (the others are unknown)."""
        async with self._read() as conn:
            return await names_of(conn, guild_id, user_ids)

    async def forget_server(self, guild_id: int) -> None:
        """The bot left the server: its players' names are not kept."""
        async with self._write() as conn:
            await conn.execute(sa.delete(names_t).where(names_t.c.guild_id == guild_id))
