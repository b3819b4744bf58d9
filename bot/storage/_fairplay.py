"""The finished games `/admin fairplay` reads: a player's last ones and the server's last
ones, each bounded, with every best answer kept for them (their own and those found
after, `best_answers`) in one more query, so the signals never solve and never walk a
server's whole history."""

from __future__ import annotations

from dataclasses import replace

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage._best import best_t
from bot.storage._codec import parse_number
from bot.storage._connect import Connect
from bot.storage._games import RECORD_COLUMNS, game_players, games, record_from_row
from bot.storage._records import GameRecord, Reveal


class FairPlayStore:
    """`Store.fairplay`: bounded reads of finished games, best answers included."""

    def __init__(self, read: Connect) -> None:
        self._read = read

    async def player_finished(self, guild_id: int, user_id: int, limit: int) -> list[GameRecord]:
        """The player's last `limit` finished games on the server, newest first."""
        async with self._read() as conn:
            rows = await conn.execute(
                sa.select(*RECORD_COLUMNS)
                .join(game_players, game_players.c.game_id == games.c.id)
                .where(
                    game_players.c.guild_id == guild_id,
                    game_players.c.player == str(user_id),
                    games.c.finished_at.is_not(None),
                )
                .order_by(game_players.c.created_at.desc(), games.c.id.desc())
                .limit(limit)
            )
            return await _with_best(conn, [record_from_row(r) for r in rows])

    async def server_finished(self, guild_id: int, limit: int) -> list[GameRecord]:
        """The server's last `limit` finished games, newest first."""
        async with self._read() as conn:
            rows = await conn.execute(
                sa.select(*RECORD_COLUMNS)
                .where(games.c.guild_id == guild_id, games.c.finished_at.is_not(None))
                .order_by(games.c.finished_at.desc(), games.c.id.desc())
                .limit(limit)
            )
            return await _with_best(conn, [record_from_row(r) for r in rows])


async def _with_best(conn: AsyncConnection, records: list[GameRecord]) -> list[GameRecord]:
    """Each record with the best answers found after it was played (its own first)."""
    ids = [r.state.id for r in records]
    if not ids:
        return records
    later: dict[str, list[Reveal]] = {}
    for row in await conn.execute(sa.select(best_t).where(best_t.c.game_id.in_(ids))):
        later.setdefault(row.game_id, []).append(
            Reveal(row.round, row.seat, row.formula, parse_number(row.result),
                   parse_number(row.points), parse_number(row.score))
        )  # fmt: skip
    merged = []
    for record in records:
        own = {(b.round, b.seat) for b in record.meta.best}
        extra = [b for b in later.get(record.state.id, []) if (b.round, b.seat) not in own]
        if extra:
            best = tuple(sorted((*record.meta.best, *extra), key=lambda b: (b.round, b.seat)))
            merged.append(replace(record, meta=replace(record.meta, best=best)))
        else:
            merged.append(record)
    return merged
