"""Challenges and server Sets: the rows of what is offered to play, inside the Store's
transactions (the Store opens them and keeps the public methods)."""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

import rules
from bot.storage._codec import dumps
from bot.storage._games import dialect_insert
from bot.storage._models import ChallengeRow, ServerSet, table
from bot.storage._records import Challenge, ChallengeStatus, TooManySets

challenges_t = table(ChallengeRow)
server_sets_t = table(ServerSet)


def _challenge(row: sa.Row[Any]) -> Challenge:
    values = row._asdict()
    values["status"] = ChallengeStatus(values["status"])
    return Challenge(**values)


async def save_challenge(conn: AsyncConnection, challenge: Challenge) -> None:
    """Upsert by id (the rematch key's IntegrityError is the caller's to translate)."""
    values = {
        "id": challenge.id,
        "guild_id": challenge.guild_id,
        "channel_id": challenge.channel_id,
        "challenger_id": challenge.challenger_id,
        "opponent_id": challenge.opponent_id,
        "set_name": challenge.set_name,
        "expires_at": challenge.expires_at,
        "status": ChallengeStatus(challenge.status).value,
        "message_id": challenge.message_id,
        "locale": challenge.locale,
        "rematch_of": challenge.rematch_of,
    }
    insert = dialect_insert(conn, challenges_t).values(**values)
    del values["id"]
    await conn.execute(insert.on_conflict_do_update(index_elements=["id"], set_=values))


async def challenge_where(conn: AsyncConnection, condition: Any) -> Challenge | None:
    row = (await conn.execute(sa.select(challenges_t).where(condition))).first()
    return None if row is None else _challenge(row)


async def pending(conn: AsyncConnection) -> list[Challenge]:
    result = await conn.execute(
        sa.select(challenges_t)
        .where(challenges_t.c.status == ChallengeStatus.PENDING.value)
        .order_by(challenges_t.c.expires_at, challenges_t.c.id)
    )
    return [_challenge(row) for row in result]


async def move_on(conn: AsyncConnection, challenge_id: str, status: ChallengeStatus) -> bool:
    """Pending to `status`; False if someone else moved it first."""
    result = await conn.execute(
        challenges_t.update()
        .where(
            challenges_t.c.id == challenge_id,
            challenges_t.c.status == ChallengeStatus.PENDING.value,
        )
        .values(status=ChallengeStatus(status).value)
    )
    return bool(result.rowcount == 1)


async def server_sets(conn: AsyncConnection, guild_id: int) -> list[rules.GameSet]:
    result = await conn.execute(
        sa.select(server_sets_t.c.data)
        .where(server_sets_t.c.guild_id == guild_id)
        .order_by(server_sets_t.c.name)
    )
    return [rules.GameSet.from_dict(json.loads(row.data)) for row in result]


async def save_server_sets(
    conn: AsyncConnection,
    guild_id: int,
    sets: Sequence[rules.GameSet],
    cap: int | None,
    hidden: Collection[str],
    now: float,
) -> list[str]:
    """`ServerSetStore.save_server_sets` inside its transaction: the cap is checked under a lock
    (SQLite's writer lock, or an advisory one on PostgreSQL)."""
    if conn.dialect.name == "postgresql":
        key = f"server_sets/{guild_id}"
        await conn.execute(sa.select(sa.func.pg_advisory_xact_lock(sa.func.hashtext(key))))
    stored = {
        str(name)
        for name in (
            await conn.execute(
                sa.select(server_sets_t.c.name).where(server_sets_t.c.guild_id == guild_id)
            )
        ).scalars()
    }
    added = [s.name for s in sets if s.name not in stored]
    if cap is not None and len((stored - set(hidden)) | set(added)) > cap:
        raise TooManySets(f"server {guild_id} may have at most {cap} Sets")
    for game_set in sets:
        data = dumps(game_set.to_dict())
        await conn.execute(
            dialect_insert(conn, server_sets_t)
            .values(guild_id=guild_id, name=game_set.name, data=data, updated_at=now)
            .on_conflict_do_update(
                index_elements=["guild_id", "name"],
                set_={"data": data, "updated_at": now},
            )
        )
    return added


async def delete_server_set(conn: AsyncConnection, guild_id: int, name: str) -> bool:
    result = await conn.execute(
        server_sets_t.delete().where(
            server_sets_t.c.guild_id == guild_id, server_sets_t.c.name == name
        )
    )
    return bool(result.rowcount)
