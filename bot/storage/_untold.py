"""Summaries Discord did not take yet (`untold_summaries`): the retry's count and time,
kept so a restart tells a finished game's players how it ended by the same bound."""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa

from bot.storage._connect import Connect
from bot.storage._games import dialect_insert
from bot.storage._models import UntoldSummary, table

untold_t = table(UntoldSummary)


@dataclass(frozen=True, slots=True)
class Untold:
    """A summary to try again: the `tries` made so far, the next at `due`."""

    game_id: str
    guild_id: int
    tries: int
    due: float


class UntoldStore:
    def __init__(self, write: Connect, read: Connect) -> None:
        self._write = write
        self._read = read

    async def keep(self, untold: Untold) -> None:
        values = {"guild_id": untold.guild_id, "tries": untold.tries, "due": untold.due}
        async with self._write() as conn:
            await conn.execute(
                dialect_insert(conn, untold_t)
                .values(game_id=untold.game_id, **values)
                .on_conflict_do_update(index_elements=["game_id"], set_=values)
            )

    async def told(self, game_id: str) -> None:
        async with self._write() as conn:
            await conn.execute(untold_t.delete().where(untold_t.c.game_id == game_id))

    async def all(self) -> list[Untold]:
        async with self._read() as conn:
            rows = await conn.execute(sa.select(untold_t).order_by(untold_t.c.due))
            return [Untold(r.game_id, r.guild_id, r.tries, r.due) for r in rows]
