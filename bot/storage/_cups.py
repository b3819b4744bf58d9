"""Cups (`cups`, `cup_entries`, `cup_legs`, `cup_posts`): a server's tournament as it is
set up, who checked in, its bracket and the duels its legs were played as (RULES.md
"Cup"). `Store.cups` keeps them; `bot.cup` is the only writer.

Exactly once, across restarts and shard processes:
- A Cup moves from phase to phase by one UPDATE guarded by its `version` (the draw is
  `scheduled` or `announced` → `drawn` with the bracket): of two processes drawing at
  once, one UPDATE matches and the other is told `StaleGame`; every match result is a
  new bracket saved the same way.
- What is announced (the Cup, its draw, its cancellation, a result, the champion) is
  claimed first in `cup_posts`, keyed by (Cup, what), as the daily post is
  (`_posts.py`): the row is inserted before the message is sent and marked done after;
  a claim never marked done is taken over past its lease.
- A weekly Cup's next one has an id made from the Cup's own (`next_cup_id`), inserted
  only if absent: however many processes see the Cup end, one next Cup exists.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlmodel import Field, SQLModel

from bot.storage._connect import Connect
from bot.storage._games import dialect_insert
from bot.storage._models import NAME, table
from bot.storage._records import StaleGame
from rules.cup import CupState


class CupPhase(StrEnum):
    SCHEDULED = "scheduled"
    ANNOUNCED = "announced"
    """Check-ins are open."""
    DRAWN = "drawn"
    """The bracket is drawn; its matches are being played."""
    OVER = "over"
    CANCELLED = "cancelled"


OPEN_PHASES = (CupPhase.SCHEDULED, CupPhase.ANNOUNCED, CupPhase.DRAWN)


class CupRow(SQLModel, table=True):
    __tablename__ = "cups"
    __table_args__ = (sa.Index("ix_cups_phase", "phase", "starts_at"),
                      sa.Index("ix_cups_guild", "guild_id", "starts_at"))  # fmt: skip

    id: int = Field(
        primary_key=True, sa_type=sa.BigInteger, sa_column_kwargs={"autoincrement": False}
    )
    guild_id: int = Field(sa_type=sa.BigInteger)
    channel_id: int = Field(sa_type=sa.BigInteger)
    """Where the Cup is announced, its bracket shown and its champion crowned."""
    name: str = Field(sa_type=sa.String(NAME))
    set_name: str = Field(sa_type=sa.String(NAME))
    starts_at: float = Field(sa_type=sa.Float)
    zone: str = Field(sa_type=sa.String(NAME))
    """The server's time zone when the Cup was set up: a weekly Cup keeps its local hour."""
    repeat: str = Field(sa_type=sa.String(16))
    size: int = Field(sa_type=sa.Integer)
    legs: int = Field(sa_type=sa.Integer)
    seeding: str = Field(sa_type=sa.String(16))
    lead_s: float = Field(
        default=3600.0, sa_type=sa.Float, sa_column_kwargs={"server_default": "3600"}
    )
    """How long before its start the Cup is announced and check-ins open (0023)."""
    locale: str = Field(sa_type=sa.String(16))
    phase: str = Field(sa_type=sa.String(16))
    version: int = Field(sa_type=sa.Integer)
    bracket: str | None = Field(default=None, sa_type=sa.Text, nullable=True)
    """`rules.cup.CupState` as JSON, from the draw on."""
    champion: str | None = Field(default=None, sa_type=sa.String(NAME), nullable=True)
    created_by: str = Field(sa_type=sa.String(NAME))
    created_at: float = Field(sa_type=sa.Float)
    updated_at: float = Field(sa_type=sa.Float)


class CupEntry(SQLModel, table=True):
    """A player checked in to a Cup (once: the key)."""

    __tablename__ = "cup_entries"

    cup_id: int = Field(
        primary_key=True, sa_type=sa.BigInteger, sa_column_kwargs={"autoincrement": False}
    )
    player: str = Field(primary_key=True, sa_type=sa.String(NAME))
    checked_in_at: float = Field(sa_type=sa.Float)


class CupLeg(SQLModel, table=True):
    """A leg of a match: the duel it was played as (its replay), numbered from 1 in the
    match, replays of a drawn or voided leg included."""

    __tablename__ = "cup_legs"
    __table_args__ = (sa.Index("ix_cup_legs_game", "game_id"),)

    cup_id: int = Field(
        primary_key=True, sa_type=sa.BigInteger, sa_column_kwargs={"autoincrement": False}
    )
    round: int = Field(primary_key=True, sa_type=sa.Integer)
    slot: int = Field(primary_key=True, sa_type=sa.Integer)
    leg: int = Field(primary_key=True, sa_type=sa.Integer)
    game_id: str = Field(sa_type=sa.String(NAME))
    result: str | None = Field(default=None, sa_type=sa.String(16), nullable=True)
    """The leg's `rules.cup.LegResult` once it counted (set once: the leg counts once)."""
    created_at: float = Field(sa_type=sa.Float)


class CupPost(SQLModel, table=True):
    """A claim on one announcement of a Cup (`what`: "announce", "draw", "cancel",
    "champion", "match:<round>.<slot>"): taken before it is sent, done after."""

    __tablename__ = "cup_posts"

    cup_id: int = Field(
        primary_key=True, sa_type=sa.BigInteger, sa_column_kwargs={"autoincrement": False}
    )
    what: str = Field(primary_key=True, sa_type=sa.String(NAME))
    claimed_by: str = Field(sa_type=sa.String(NAME))
    claimed_at: float = Field(sa_type=sa.Float)
    done_at: float | None = Field(default=None, sa_type=sa.Float, nullable=True)
    message_id: int | None = Field(default=None, sa_type=sa.BigInteger, nullable=True)


cups_t = table(CupRow)
entries_t = table(CupEntry)
legs_t = table(CupLeg)
cup_posts_t = table(CupPost)


@dataclass(frozen=True, slots=True)
class CupRecord:
    """A Cup as stored. `version` 0: never saved. `bracket` None until the draw."""

    id: int
    guild_id: int
    channel_id: int
    name: str
    set_name: str
    starts_at: float
    zone: str
    repeat: str
    size: int
    legs: int
    seeding: str
    locale: str
    created_by: str
    created_at: float
    phase: CupPhase = CupPhase.SCHEDULED
    bracket: CupState | None = None
    champion: str | None = None
    version: int = 0
    lead_s: float = 3600.0
    """How long before `starts_at` the Cup is announced (its check-ins' time)."""


@dataclass(frozen=True, slots=True)
class LegRecord:
    round: int
    slot: int
    leg: int
    game_id: str
    result: str | None = None


_FIELDS = ("guild_id", "channel_id", "name", "set_name", "starts_at", "zone", "repeat", "size",
           "legs", "seeding", "locale", "created_by", "created_at", "lead_s")  # fmt: skip


def _record(row: Any) -> CupRecord:
    bracket = None if row.bracket is None else CupState.from_dict(json.loads(row.bracket))
    return CupRecord(
        id=row.id,
        **{name: getattr(row, name) for name in _FIELDS},
        phase=CupPhase(row.phase),
        bracket=bracket,
        champion=row.champion,
        version=row.version,
    )


ID_BITS = 40
"""A Cup's id is a random number below 2**40 (what /cup commands and buttons carry)."""


def next_cup_id(cup_id: int) -> int:
    """The id of a weekly Cup's next one: the same in every process."""
    digest = hashlib.sha256(f"next:{cup_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") % (1 << ID_BITS) or 1


async def save_in(conn: AsyncConnection, cup: CupRecord, now: float) -> CupRecord:
    """`CupStore.save` inside the caller's transaction."""
    saved = replace(cup, version=cup.version + 1)
    values: dict[str, Any] = {name: getattr(saved, name) for name in _FIELDS}
    values |= {
        "phase": saved.phase.value,
        "version": saved.version,
        "bracket": None
        if saved.bracket is None
        else json.dumps(saved.bracket.to_dict(), separators=(",", ":")),
        "champion": saved.champion,
        "updated_at": now,
    }
    if cup.version == 0:
        inserted = await conn.execute(
            dialect_insert(conn, cups_t)
            .values(id=saved.id, **values)
            .on_conflict_do_nothing(index_elements=["id"])
        )
        if not inserted.rowcount:
            raise StaleGame(f"cup {saved.id} exists")
        return saved
    done = await conn.execute(
        cups_t.update()
        .where(cups_t.c.id == saved.id, cups_t.c.version == cup.version)
        .values(**values)
    )
    if done.rowcount != 1:
        raise StaleGame(f"cup {saved.id} changed since version {cup.version}")
    return saved


class CupStore:
    """`Store.cups`."""

    def __init__(self, write: Connect, read: Connect) -> None:
        self._write = write
        self._read = read

    async def save(self, cup: CupRecord, now: float) -> CupRecord:
        """Store `cup` as the next version; StaleGame if the stored one moved on (or, for a
        new Cup, one of that id exists)."""
        async with self._write() as conn:
            return await save_in(conn, cup, now)

    async def load(self, cup_id: int) -> CupRecord | None:
        async with self._read() as conn:
            row = (await conn.execute(sa.select(cups_t).where(cups_t.c.id == cup_id))).first()
        return None if row is None else _record(row)

    async def find(self, guild_id: int, cup_id: int) -> CupRecord | None:
        """The Cup `cup_id` if it is this server's."""
        cup = await self.load(cup_id)
        return cup if cup is not None and cup.guild_id == guild_id else None

    async def of_server(self, guild_id: int, *, open_only: bool = True) -> list[CupRecord]:
        """The server's Cups by start, the ones still to come or in play (or all)."""
        query = sa.select(cups_t).where(cups_t.c.guild_id == guild_id)
        if open_only:
            query = query.where(cups_t.c.phase.in_([p.value for p in OPEN_PHASES]))
        async with self._read() as conn:
            rows = await conn.execute(query.order_by(cups_t.c.starts_at, cups_t.c.id))
            return [_record(row) for row in rows]

    async def open_cups(self) -> list[CupRecord]:
        """Every Cup still to come or in play, soonest first: what the schedule looks at."""
        query = (
            sa.select(cups_t)
            .where(cups_t.c.phase.in_([p.value for p in OPEN_PHASES]))
            .order_by(cups_t.c.starts_at, cups_t.c.id)
        )
        async with self._read() as conn:
            return [_record(row) for row in await conn.execute(query)]

    async def champions(self, guild_id: int, limit: int = 25) -> list[CupRecord]:
        """The server's hall of fame: Cups that ended with a champion, newest first."""
        query = (
            sa.select(cups_t)
            .where(cups_t.c.guild_id == guild_id, cups_t.c.champion.is_not(None))
            .order_by(cups_t.c.starts_at.desc(), cups_t.c.id)
            .limit(limit)
        )
        async with self._read() as conn:
            return [_record(row) for row in await conn.execute(query)]

    async def create_next(self, cup: CupRecord, now: float) -> CupRecord | None:
        """A weekly Cup's next one, a week after it (same local hour: `starts_at` given by
        the caller in `cup`), made once: None when it exists already."""
        try:
            return await self.save(replace(cup, version=0), now)
        except StaleGame:
            return None

    # check-ins

    async def check_in(self, cup_id: int, player: str, now: float) -> bool:
        """True the first time the player checks in to the Cup."""
        async with self._write() as conn:
            done = await conn.execute(
                dialect_insert(conn, entries_t)
                .values(cup_id=cup_id, player=player, checked_in_at=now)
                .on_conflict_do_nothing(index_elements=["cup_id", "player"])
            )
            return bool(done.rowcount)

    async def entries(self, cup_id: int) -> list[str]:
        """Who checked in, first first."""
        query = (
            sa.select(entries_t.c.player)
            .where(entries_t.c.cup_id == cup_id)
            .order_by(entries_t.c.checked_in_at, entries_t.c.player)
        )
        async with self._read() as conn:
            return [str(player) for player in (await conn.scalars(query)).all()]

    # legs

    async def add_leg(self, cup_id: int, leg: LegRecord, now: float) -> bool:
        """Record the duel a leg is played as; False when that leg has one already."""
        async with self._write() as conn:
            done = await conn.execute(
                dialect_insert(conn, legs_t)
                .values(
                    cup_id=cup_id,
                    round=leg.round,
                    slot=leg.slot,
                    leg=leg.leg,
                    game_id=leg.game_id,
                    created_at=now,
                )
                .on_conflict_do_nothing(index_elements=["cup_id", "round", "slot", "leg"])
            )
            return bool(done.rowcount)

    async def legs(self, cup_id: int) -> list[LegRecord]:
        query = (
            sa.select(legs_t)
            .where(legs_t.c.cup_id == cup_id)
            .order_by(legs_t.c.round, legs_t.c.slot, legs_t.c.leg)
        )
        async with self._read() as conn:
            rows = await conn.execute(query)
            return [LegRecord(r.round, r.slot, r.leg, r.game_id, r.result) for r in rows]

    # announcements, exactly once

    async def claim_post(
        self, cup_id: int, what: str, owner: str, now: float, lease: float
    ) -> bool:
        """Take the announcement (`cup_id`, `what`) for `owner`: a new claim, one abandoned
        past its lease, or `owner`'s own unfinished one. False: done, or held elsewhere."""
        async with self._write() as conn:
            inserted = await conn.execute(
                dialect_insert(conn, cup_posts_t)
                .values(cup_id=cup_id, what=what, claimed_by=owner, claimed_at=now)
                .on_conflict_do_nothing(index_elements=["cup_id", "what"])
            )
            if inserted.rowcount:
                return True
            key = [cup_posts_t.c.cup_id == cup_id, cup_posts_t.c.what == what,
                   cup_posts_t.c.done_at.is_(None)]  # fmt: skip
            held = (
                await conn.execute(
                    sa.select(cup_posts_t.c.claimed_by, cup_posts_t.c.claimed_at).where(*key)
                )
            ).first()
            if held is None or (held.claimed_by != owner and held.claimed_at >= now - lease):
                return False
            taken = await conn.execute(
                cup_posts_t.update()
                .where(*key, cup_posts_t.c.claimed_at == held.claimed_at)
                .values(claimed_by=owner, claimed_at=now)
            )
            return bool(taken.rowcount)

    async def finish_post(
        self, cup_id: int, what: str, owner: str, message_id: int | None, now: float
    ) -> None:
        async with self._write() as conn:
            await conn.execute(
                cup_posts_t.update()
                .where(
                    cup_posts_t.c.cup_id == cup_id,
                    cup_posts_t.c.what == what,
                    cup_posts_t.c.claimed_by == owner,
                )
                .values(done_at=now, message_id=message_id)
            )

    async def post_message(self, cup_id: int, what: str) -> int | None:
        """The message an announcement was made as (the bracket is edited in place)."""
        async with self._read() as conn:
            found = await conn.scalar(
                sa.select(cup_posts_t.c.message_id).where(
                    cup_posts_t.c.cup_id == cup_id, cup_posts_t.c.what == what
                )
            )
        return None if found is None else int(found)
