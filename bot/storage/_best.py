"""Best answers found after a game (`best_answers`) and the games still owed theirs
(`best_pending`), for the backfill job (`bot.play.BestBackfill`) and every replay.

A game's own `GameMeta.best` holds what was found while its rounds were played; what
was not (a Qualification, a late solve, a game older than this table) is found once
later and kept here, so a view reads them and never solves. The job walks finished
games by two cursors kept in `bot_state` ((`finished_at`, id), from where its first pass
began): ahead over the games finished since, first, and back over the backlog, newest
first, with the room left. Each game reached is queued in `best_pending` in the cursors'
own transaction, so a restart neither skips nor forgets one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage import _install
from bot.storage._codec import number_text, parse_number
from bot.storage._connect import Connect
from bot.storage._games import dialect_insert, games
from bot.storage._models import BestAnswer, BestPending, table
from bot.storage._records import GameRecord, Reveal

best_t = table(BestAnswer)
pending_t = table(BestPending)

AHEAD = "best_backfill_ahead"
"""`bot_state` name of the newest game queued: "finished_at id"."""
BACK = "best_backfill_back"
"""`bot_state` name of the oldest game of the backlog queued so far."""
BACKLOG_DUE = 1.0
"""The due time of a backlog game: after every new game (0), before every retry."""


@dataclass(frozen=True, slots=True)
class PendingBest:
    """A finished game whose best answers are owed: `tries` made, the next at `due`."""

    game_id: str
    finished_at: float
    tries: int
    due: float


class BestStore:
    """`Store.best`: the best answers kept after a game, and the job's queue."""

    def __init__(self, write: Connect, read: Connect) -> None:
        self._write = write
        self._read = read

    async def found(self, game_id: str) -> list[Reveal]:
        async with self._read() as conn:
            rows = await conn.execute(
                sa.select(best_t)
                .where(best_t.c.game_id == game_id)
                .order_by(best_t.c.round, best_t.c.seat)
            )
            return [
                Reveal(r.round, r.seat, r.formula, parse_number(r.result),
                       parse_number(r.points), parse_number(r.score))
                for r in rows
            ]  # fmt: skip

    async def with_found(self, record: GameRecord) -> GameRecord:
        """`record` with every best answer kept for it: its own (found while played) and
        those found after; one per round and seat, its own first."""
        own = {(b.round, b.seat) for b in record.meta.best}
        later = [b for b in await self.found(record.state.id) if (b.round, b.seat) not in own]
        if not later:
            return record
        best = tuple(sorted((*record.meta.best, *later), key=lambda b: (b.round, b.seat)))
        return replace(record, meta=replace(record.meta, best=best))

    async def keep(self, game_id: str, reveal: Reveal) -> None:
        """Keep one found best answer (again: nothing changes)."""
        async with self._write() as conn:
            await conn.execute(
                dialect_insert(conn, best_t)
                .values(
                    game_id=game_id,
                    round=reveal.round,
                    seat=reveal.seat,
                    formula=reveal.formula,
                    result=number_text(reveal.result),
                    points=number_text(reveal.points),
                    score=number_text(reveal.score),
                )
                .on_conflict_do_nothing(index_elements=["game_id", "round", "seat"])
            )

    async def queue_finished(self, before: float, limit: int) -> int:
        """Queue up to `limit` games finished before `before`: those finished since the
        last pass first (due at once, oldest first), then, with the room left, the games
        that were there before the first pass (`BACKLOG_DUE`, newest first: the likeliest
        to be viewed). Both cursors move past what was queued; how many were queued."""
        async with self._write() as conn:
            ahead, back = await _cursor(conn, AHEAD, before), await _cursor(conn, BACK, before)
            finished = sa.select(games.c.id, games.c.finished_at).where(
                games.c.finished_at.is_not(None), games.c.finished_at < before
            )
            key = sa.tuple_(games.c.finished_at, games.c.id)
            rows = list(
                await conn.execute(
                    finished.where(key > sa.tuple_(*ahead))
                    .order_by(games.c.finished_at, games.c.id)
                    .limit(limit)
                )
            )
            older = list(
                await conn.execute(
                    finished.where(key < sa.tuple_(*back))
                    .order_by(games.c.finished_at.desc(), games.c.id.desc())
                    .limit(limit - len(rows))
                )
            ) if len(rows) < limit else []  # fmt: skip
            queued = [(r, 0.0) for r in rows] + [(r, BACKLOG_DUE) for r in older]
            if not queued:
                return 0
            await conn.execute(
                dialect_insert(conn, pending_t)
                .values(
                    [
                        {"game_id": r.id, "finished_at": r.finished_at, "tries": 0, "due": due}
                        for r, due in queued
                    ]
                )
                .on_conflict_do_nothing(index_elements=["game_id"])
            )
            for name, moved in ((AHEAD, rows), (BACK, older)):
                if moved:
                    last = moved[-1]
                    await _install.set_state(conn, name, f"{last.finished_at!r} {last.id}")
            return len(queued)

    async def due(self, now: float, limit: int) -> list[PendingBest]:
        """The owed games due by `now`, most overdue first, then the newest."""
        async with self._read() as conn:
            rows = await conn.execute(
                sa.select(pending_t)
                .where(pending_t.c.due <= now)
                .order_by(pending_t.c.due, pending_t.c.finished_at.desc(), pending_t.c.game_id)
                .limit(limit)
            )
            return [PendingBest(r.game_id, r.finished_at, r.tries, r.due) for r in rows]

    async def later(self, game_id: str, tries: int, due: float) -> None:
        """Look at an owed game again at `due`, `tries` made."""
        async with self._write() as conn:
            await conn.execute(
                pending_t.update()
                .where(pending_t.c.game_id == game_id)
                .values(tries=tries, due=due)
            )

    async def settled(self, game_id: str) -> None:
        """Nothing more is owed for the game (all found, or its tries ran out)."""
        async with self._write() as conn:
            await conn.execute(pending_t.delete().where(pending_t.c.game_id == game_id))


async def _cursor(conn: AsyncConnection, name: str, before: float) -> tuple[float, str]:
    """A cursor's (finished_at, id). Both start, on the first pass, at the newest game
    finished before `before`: the games after it are new, it and those before it the
    backlog (its edge is just past it: the next float, before any id)."""
    mark = await _install.get_state(conn, name)
    if mark is None:
        newest = (
            await conn.execute(
                sa.select(games.c.finished_at, games.c.id)
                .where(games.c.finished_at.is_not(None), games.c.finished_at < before)
                .order_by(games.c.finished_at.desc(), games.c.id.desc())
                .limit(1)
            )
        ).one_or_none()
        moment, game_id = (-1.0, "") if newest is None else (newest.finished_at, newest.id)
        if name == BACK:
            moment, game_id = math.nextafter(moment, math.inf), ""
        mark = f"{moment!r} {game_id}"
        await _install.set_state(conn, name, mark)
    moment_text, _, game_id = mark.partition(" ")
    return float(moment_text), game_id
