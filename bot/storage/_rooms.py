"""Rooms (`rooms`): a room's state as JSON with where it is shown, so a restart loses
nothing (RULES.md "Room"). `Store.rooms` keeps them; the room's flow is the only writer.

A room is saved whole after every change; `version` grows by one each time, and a save
whose version is not the next one raises `StaleGame` (another process changed it).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from bot.storage._connect import Connect
from bot.storage._games import dialect_insert
from bot.storage._models import NAME, table
from bot.storage._records import StaleGame
from rules.room import Phase, RoomState


class RoomRow(SQLModel, table=True):
    __tablename__ = "rooms"
    __table_args__ = (sa.Index("ix_rooms_phase", "phase"),)

    id: str = Field(primary_key=True, sa_type=sa.String(NAME))
    guild_id: int = Field(sa_type=sa.BigInteger)
    channel_id: int = Field(sa_type=sa.BigInteger)
    """Where the lobby was posted (the thread is opened from it)."""
    thread_id: int | None = Field(default=None, sa_type=sa.BigInteger, nullable=True)
    lobby_message_id: int | None = Field(default=None, sa_type=sa.BigInteger, nullable=True)
    round_message_id: int | None = Field(default=None, sa_type=sa.BigInteger, nullable=True)
    locale: str = Field(sa_type=sa.String(16))
    phase: str = Field(sa_type=sa.String(16))
    version: int = Field(sa_type=sa.Integer)
    state: str = Field(sa_type=sa.Text)
    owed: str = Field(default="[]", sa_type=sa.Text, sa_column_kwargs={"server_default": "[]"})
    """The reveals and final table Discord did not take yet (`OwedShow`s as JSON)."""
    created_at: float = Field(sa_type=sa.Float)
    updated_at: float = Field(sa_type=sa.Float)


class RoomPlace(SQLModel, table=True):
    """A player's place in a room that ended with places: what `/history` lists."""

    __tablename__ = "room_places"
    __table_args__ = (sa.Index("ix_room_places_player", "guild_id", "player", "created_at"),)

    room_id: str = Field(primary_key=True, sa_type=sa.String(NAME))
    player: str = Field(primary_key=True, sa_type=sa.String(NAME))
    guild_id: int = Field(sa_type=sa.BigInteger)
    place: int = Field(sa_type=sa.Integer)
    created_at: float = Field(sa_type=sa.Float)


rooms_t = table(RoomRow)
places_t = table(RoomPlace)


TABLE = 0
"""`OwedShow.round` of the room's final table."""


@dataclass(frozen=True, slots=True)
class OwedShow:
    """A reveal (of round `round`, an edit of message `message_id`) or the final table
    (`round` is `TABLE`) that could not be shown: kept with the room and tried again,
    through restarts, until Discord takes it."""

    round: int
    message_id: int | None = None


@dataclass(frozen=True, slots=True)
class RoomRecord:
    """A room and where it is shown. `version` is the stored one (0: never saved)."""

    state: RoomState
    guild_id: int
    channel_id: int
    locale: str
    created_at: float
    thread_id: int | None = None
    lobby_message_id: int | None = None
    round_message_id: int | None = None
    owed: tuple[OwedShow, ...] = ()
    version: int = 0


def _record(row: Any) -> RoomRecord:
    return RoomRecord(
        state=RoomState.from_dict(json.loads(row.state)),
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        locale=row.locale,
        created_at=row.created_at,
        thread_id=row.thread_id,
        lobby_message_id=row.lobby_message_id,
        round_message_id=row.round_message_id,
        owed=tuple(OwedShow(o["round"], o.get("message_id")) for o in json.loads(row.owed)),
        version=row.version,
    )


def _places(record: RoomRecord) -> list[dict[str, object]]:
    state = record.state
    return [
        {"room_id": state.id, "player": state.players[s.player], "guild_id": record.guild_id,
         "place": s.place, "created_at": record.created_at}
        for s in state.standings
    ]  # fmt: skip


class RoomStore:
    """`Store.rooms`."""

    def __init__(self, write: Connect, read: Connect) -> None:
        self._write = write
        self._read = read

    async def save(self, record: RoomRecord, now: float) -> RoomRecord:
        """Store `record` as the next version; StaleGame if the stored one moved on."""
        saved = replace(record, version=record.version + 1)
        values = {
            "guild_id": saved.guild_id,
            "channel_id": saved.channel_id,
            "thread_id": saved.thread_id,
            "lobby_message_id": saved.lobby_message_id,
            "round_message_id": saved.round_message_id,
            "locale": saved.locale,
            "phase": saved.state.phase.value,
            "version": saved.version,
            "state": json.dumps(saved.state.to_dict(), separators=(",", ":")),
            "owed": json.dumps(
                [{"round": o.round, "message_id": o.message_id} for o in saved.owed]
            ),
            "updated_at": now,
        }
        async with self._write() as conn:
            if record.version == 0:
                found = await conn.execute(
                    sa.select(rooms_t.c.id).where(rooms_t.c.id == saved.state.id)
                )
                if found.first() is not None:
                    raise StaleGame(f"room {saved.state.id} exists")
                await conn.execute(
                    rooms_t.insert().values(
                        id=saved.state.id, created_at=saved.created_at, **values
                    )
                )
                return saved
            done = await conn.execute(
                rooms_t.update()
                .where(rooms_t.c.id == saved.state.id, rooms_t.c.version == record.version)
                .values(**values)
            )
            if done.rowcount != 1:
                raise StaleGame(f"room {saved.state.id} changed since version {record.version}")
            if saved.state.standings:  # it ended with places: kept once
                insert = dialect_insert(conn, places_t).on_conflict_do_nothing()
                await conn.execute(insert, _places(saved))
        return saved

    async def load(self, room_id: str) -> RoomRecord | None:
        async with self._read() as conn:
            row = (await conn.execute(sa.select(rooms_t).where(rooms_t.c.id == room_id))).first()
        return None if row is None else _record(row)

    async def open_rooms(self) -> list[RoomRecord]:
        """Rooms in their lobby or in play, oldest first: what a restart resumes."""
        query = (
            sa.select(rooms_t)
            .where(rooms_t.c.phase != Phase.OVER.value)
            .order_by(rooms_t.c.created_at, rooms_t.c.id)
        )
        async with self._read() as conn:
            return [_record(row) for row in await conn.execute(query)]

    async def owing(self) -> list[RoomRecord]:
        """Rooms with a reveal or final table still owed to their players, in any phase:
        what a restart tries again (an ended room is not among `open_rooms`)."""
        query = (
            sa.select(rooms_t)
            .where(rooms_t.c.owed != "[]")
            .order_by(rooms_t.c.created_at, rooms_t.c.id)
        )
        async with self._read() as conn:
            return [_record(row) for row in await conn.execute(query)]

    async def find(self, guild_id: int, id_or_prefix: str) -> RoomRecord | None:
        """A room of this server by id or unique id prefix (its table shows 8 characters)."""
        key = id_or_prefix.strip()
        if not key:
            return None
        query = (
            sa.select(rooms_t)
            .where(rooms_t.c.guild_id == guild_id, rooms_t.c.id.startswith(key, autoescape=True))
            .order_by(rooms_t.c.id)
            .limit(2)
        )
        async with self._read() as conn:
            rows = (await conn.execute(query)).all()
        exact = [row for row in rows if row.id == key]
        if exact:
            return _record(exact[0])
        return _record(rows[0]) if len(rows) == 1 else None

    async def history(self, guild_id: int, player: str, limit: int) -> list[RoomRecord]:
        """The rooms with places `player` played on the server, newest first."""
        query = (
            sa.select(rooms_t)
            .join(places_t, places_t.c.room_id == rooms_t.c.id)
            .where(places_t.c.guild_id == guild_id, places_t.c.player == player)
            .order_by(places_t.c.created_at.desc(), rooms_t.c.id)
            .limit(limit)
        )
        async with self._read() as conn:
            return [_record(row) for row in await conn.execute(query)]
