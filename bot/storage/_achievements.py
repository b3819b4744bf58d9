"""Achievements earned (`achievements`): one row per player, server and achievement, with
what earned it (a game, a room, a Cup, a puzzle run, a won day), so it is earned once and
taken back with that game (RULES.md "Achievements").

A voided source's rows are marked `void`, not deleted: the achievement may then be
earned again by another game (the row moves to it), and an unvoided source gets its rows
back only where nothing earned them since (its row still names it). The key makes
"earned once" the database's own rule, whatever process or retry writes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from bot.storage._connect import Connect
from bot.storage._games import dialect_insert
from bot.storage._models import NAME, table
from rules.achievements import Achievement


class Source(StrEnum):
    """What earned an achievement; with `source_id` it names the thing voided with it."""

    GAME = "game"
    ROOM = "room"
    CUP = "cup"
    RUN = "run"
    DAY = "day"


class AchievementRow(SQLModel, table=True):
    __tablename__ = "achievements"
    __table_args__ = (sa.Index("ix_achievements_source", "source", "source_id"),)

    guild_id: int = Field(
        primary_key=True, sa_type=sa.BigInteger, sa_column_kwargs={"autoincrement": False}
    )
    user_id: int = Field(
        primary_key=True, sa_type=sa.BigInteger, sa_column_kwargs={"autoincrement": False}
    )
    achievement: str = Field(primary_key=True, sa_type=sa.String(32))
    source: str = Field(sa_type=sa.String(16))
    source_id: str = Field(sa_type=sa.String(NAME))
    earned_at: float = Field(sa_type=sa.Float)
    void: bool = Field(sa_type=sa.Boolean)
    """Taken back with its source; earned again by the next source that earns it."""


achievements_t = table(AchievementRow)


@dataclass(frozen=True, slots=True)
class Earned:
    """An achievement a player holds on a server, and what earned it when."""

    guild_id: int
    user_id: int
    achievement: Achievement
    source: Source
    source_id: str
    earned_at: float


def _earned(row: sa.Row[tuple[object, ...]]) -> Earned | None:
    try:
        kind = Achievement(row.achievement)
    except ValueError:  # an achievement a newer version added: not shown by this one
        return None
    return Earned(
        int(row.guild_id),
        int(row.user_id),
        kind,
        Source(row.source),
        str(row.source_id),
        float(row.earned_at),
    )


def _all(rows: Iterable[sa.Row[tuple[object, ...]]]) -> list[Earned]:
    return [e for e in map(_earned, rows) if e is not None]


class AchievementStore:
    """`Store.achievements`: what players earned, one transaction a method."""

    def __init__(self, write: Connect, read: Connect) -> None:
        self._write = write
        self._read = read

    async def held(self, guild_id: int, user_id: int) -> list[Earned]:
        """The player's achievements on the server, oldest first."""
        async with self._read() as conn:
            rows = await conn.execute(
                sa.select(achievements_t)
                .where(
                    achievements_t.c.guild_id == guild_id,
                    achievements_t.c.user_id == user_id,
                    achievements_t.c.void.is_(False),
                )
                .order_by(achievements_t.c.earned_at, achievements_t.c.achievement)
            )
            return _all(rows)

    async def grant(
        self, guild_id: int, user_id: int, earned: Iterable[Achievement], source: Source,
        source_id: str, now: float,
    ) -> list[Achievement]:  # fmt: skip
        """Store what `source` earned; the achievements it was first to (none already
        held: a void one moves to this source)."""
        first: list[Achievement] = []
        async with self._write() as conn:
            for achievement in earned:
                values = {"source": source.value, "source_id": source_id, "earned_at": now}
                done = await conn.execute(
                    dialect_insert(conn, achievements_t)
                    .values(
                        guild_id=guild_id,
                        user_id=user_id,
                        achievement=achievement.value,
                        void=False,
                        **values,
                    )
                    .on_conflict_do_update(
                        index_elements=["guild_id", "user_id", "achievement"],
                        set_={**values, "void": False},
                        where=achievements_t.c.void.is_(True),
                    )
                )
                if done.rowcount:
                    first.append(achievement)
        return first

    async def of_source(self, source: Source, source_id: str) -> list[Earned]:
        """What the source earned and still holds (its summary's lines)."""
        async with self._read() as conn:
            rows = await conn.execute(
                sa.select(achievements_t)
                .where(*self._of(source, source_id), achievements_t.c.void.is_(False))
                .order_by(achievements_t.c.user_id, achievements_t.c.earned_at)
            )
            return _all(rows)

    async def void_source(self, source: Source, source_id: str) -> list[Earned]:
        """Take back what the source earned; what was taken."""
        return await self._mark(source, source_id, void=True)

    async def unvoid_source(self, source: Source, source_id: str) -> list[Earned]:
        """Give back what the source earned where nothing earned it since; what was given."""
        return await self._mark(source, source_id, void=False)

    @staticmethod
    def _of(source: Source, source_id: str) -> list[sa.ColumnElement[bool]]:
        return [achievements_t.c.source == source.value, achievements_t.c.source_id == source_id]

    async def _mark(self, source: Source, source_id: str, *, void: bool) -> list[Earned]:
        async with self._write() as conn:
            where = [*self._of(source, source_id), achievements_t.c.void.is_(not void)]
            rows = _all(await conn.execute(sa.select(achievements_t).where(*where)))
            if rows:
                await conn.execute(achievements_t.update().where(*where).values(void=void))
            return rows
