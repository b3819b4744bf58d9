"""What belongs to the installation rather than a game: its secrets and small facts
(`bot_state`: the synced command hash, shares claimed), inside the Store's transactions."""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage._games import dialect_insert
from bot.storage._models import BotState, InstallSecret, table

secrets_t = table(InstallSecret)
state_t = table(BotState)


async def secret(conn: AsyncConnection, name: str) -> str:
    """Insert-if-absent then read, so concurrent first calls (several bot processes on
    one PostgreSQL) all end up with the same value."""
    await conn.execute(
        dialect_insert(conn, secrets_t)
        .values(name=name, value=secrets.token_hex(32))
        .on_conflict_do_nothing(index_elements=["name"])
    )
    value = (
        await conn.execute(sa.select(secrets_t.c.value).where(secrets_t.c.name == name))
    ).scalar_one()
    return str(value)


async def get_state(conn: AsyncConnection, name: str) -> str | None:
    value = await conn.scalar(sa.select(state_t.c.value).where(state_t.c.name == name))
    return None if value is None else str(value)


async def claim_state(conn: AsyncConnection, name: str, value: str) -> bool:
    result = await conn.execute(
        dialect_insert(conn, state_t)
        .values(name=name, value=value)
        .on_conflict_do_nothing(index_elements=["name"])
    )
    return bool(result.rowcount)


async def drop_state(conn: AsyncConnection, name: str) -> None:
    await conn.execute(state_t.delete().where(state_t.c.name == name))


async def set_state(conn: AsyncConnection, name: str, value: str) -> None:
    await conn.execute(
        dialect_insert(conn, state_t)
        .values(name=name, value=value)
        .on_conflict_do_update(index_elements=["name"], set_={"value": value})
    )
