"""Roles as rewards: which role a server gives for what (`role_rewards`, `/config roles`)
and who should hold it (`role_holds`, the stored intents).

A reward's change is stored as an intent before Discord is asked: the player's row says
whether they should hold the role (`want`) and `done_at` stays empty until Discord has
done it. A restart, or another process, finds the undone rows and does them; a row is
marked done only if it did not change meanwhile (`updated_at`), so a later intent is
never lost under an earlier one's done mark. Who is crowned for a Cup or a day is
claimed once (`bot_state`, in the same transaction): a repeated call changes nothing.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from enum import StrEnum

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlmodel import Field, SQLModel

from bot.storage import _install
from bot.storage._connect import Connect
from bot.storage._games import dialect_insert
from bot.storage._models import NAME, table


class RoleReward(StrEnum):
    """What a server may give a role for (the value is stored and is the i18n key)."""

    CHAMPION = "champion"
    """The last Cup champion holds it."""
    DAY_WINNER = "day_winner"
    """The first of the last closed Qualification day's boards hold it."""
    STREAK_7 = "streak_7"
    STREAK_30 = "streak_30"
    STREAK_100 = "streak_100"


class RoleRewardRow(SQLModel, table=True):
    __tablename__ = "role_rewards"

    guild_id: int = Field(
        primary_key=True, sa_type=sa.BigInteger, sa_column_kwargs={"autoincrement": False}
    )
    reward: str = Field(primary_key=True, sa_type=sa.String(32))
    role_id: int = Field(sa_type=sa.BigInteger)
    updated_at: float = Field(sa_type=sa.Float)


class RoleHoldRow(SQLModel, table=True):
    __tablename__ = "role_holds"
    __table_args__ = (sa.Index("ix_role_holds_undone", "done_at"),)

    guild_id: int = Field(
        primary_key=True, sa_type=sa.BigInteger, sa_column_kwargs={"autoincrement": False}
    )
    reward: str = Field(primary_key=True, sa_type=sa.String(32))
    user_id: int = Field(
        primary_key=True, sa_type=sa.BigInteger, sa_column_kwargs={"autoincrement": False}
    )
    role_id: int = Field(sa_type=sa.BigInteger)
    key: str = Field(sa_type=sa.String(NAME))
    """What gave it: the Cup's id, the day's period, the achievement's source."""
    want: bool = Field(sa_type=sa.Boolean)
    updated_at: float = Field(sa_type=sa.Float)
    done_at: float | None = Field(default=None, sa_type=sa.Float, nullable=True)
    failure: str | None = Field(default=None, sa_type=sa.String(32), nullable=True)
    """Why Discord could not do it (a permission, the hierarchy, the role gone)."""


rewards_t = table(RoleRewardRow)
holds_t = table(RoleHoldRow)


@dataclass(frozen=True, slots=True)
class RoleIntent:
    """A player should (`want`) or should not hold `role_id`; undone while `done_at` is None."""

    guild_id: int
    reward: RoleReward
    user_id: int
    role_id: int
    key: str
    want: bool
    updated_at: float
    done_at: float | None = None
    failure: str | None = None


def _intent(row: sa.Row[tuple[object, ...]]) -> RoleIntent:
    return RoleIntent(
        int(row.guild_id),
        RoleReward(row.reward),
        int(row.user_id),
        int(row.role_id),
        str(row.key),
        bool(row.want),
        float(row.updated_at),
        None if row.done_at is None else float(row.done_at),
        row.failure,
    )


async def _role_of(conn: AsyncConnection, guild_id: int, reward: RoleReward) -> int | None:
    found = await conn.scalar(
        sa.select(rewards_t.c.role_id).where(
            rewards_t.c.guild_id == guild_id, rewards_t.c.reward == reward.value
        )
    )
    return None if found is None else int(found)


async def _want(
    conn: AsyncConnection, guild_id: int, reward: RoleReward, user_id: int, role_id: int,
    key: str, now: float,
) -> None:  # fmt: skip
    values = {"role_id": role_id, "key": key, "want": True, "updated_at": now,
              "done_at": None, "failure": None}  # fmt: skip
    await conn.execute(
        dialect_insert(conn, holds_t)
        .values(guild_id=guild_id, reward=reward.value, user_id=user_id, **values)
        .on_conflict_do_update(index_elements=["guild_id", "reward", "user_id"], set_=values)
    )


def _claim(guild_id: int, reward: RoleReward, user_id: int, key: str) -> str:
    """The `bot_state` name that says `user_id` was crowned for `key` (within 64 characters)."""
    digest = hashlib.sha256(f"{guild_id}:{reward}:{user_id}:{key}".encode()).hexdigest()
    return f"role_crowned:{digest[:40]}"


def _held(guild_id: int, reward: RoleReward) -> list[sa.ColumnElement[bool]]:
    return [holds_t.c.guild_id == guild_id, holds_t.c.reward == reward.value, holds_t.c.want]


class RoleStore:
    """`Store.roles`: the servers' role rewards and the intents to grant or take them."""

    def __init__(self, write: Connect, read: Connect) -> None:
        self._write = write
        self._read = read

    async def rewards(self, guild_id: int) -> dict[RoleReward, int]:
        async with self._read() as conn:
            rows = await conn.execute(sa.select(rewards_t).where(rewards_t.c.guild_id == guild_id))
            return {RoleReward(r.reward): int(r.role_id) for r in rows}

    async def set_reward(
        self, guild_id: int, reward: RoleReward, role_id: int | None, now: float
    ) -> None:
        """Give `role_id` for `reward` from now on (None: no role). Who holds the old role
        keeps it: a server that changes its mind takes it away itself."""
        async with self._write() as conn:
            if role_id is None:
                await conn.execute(
                    rewards_t.delete().where(
                        rewards_t.c.guild_id == guild_id, rewards_t.c.reward == reward.value
                    )
                )
                return
            values = {"role_id": role_id, "updated_at": now}
            await conn.execute(
                dialect_insert(conn, rewards_t)
                .values(guild_id=guild_id, reward=reward.value, **values)
                .on_conflict_do_update(index_elements=["guild_id", "reward"], set_=values)
            )

    async def crown(
        self, guild_id: int, reward: RoleReward, user_id: int, key: str, now: float, *,
        keep_same_key: bool = False,
    ) -> bool:  # fmt: skip
        """The one holder of `reward` is now `user_id`, for `key` (a Cup, a day), once per
        key; the others lose it (those of the same key keep it with `keep_same_key`: a
        day's winners of several Sets). Nothing when the server gives no role for it, or
        a later key was crowned already (a day posted late). Whether intents were stored."""
        async with self._write() as conn:
            role_id = await _role_of(conn, guild_id, reward)
            if role_id is None:
                return False
            if not await _install.claim_state(
                conn, _claim(guild_id, reward, user_id, key), str(now)
            ):
                return False
            holders = list(await conn.execute(sa.select(holds_t).where(*_held(guild_id, reward))))
            if keep_same_key and any(str(h.key) > key for h in holders):
                return False
            for holder in holders:
                if int(holder.user_id) == user_id or (keep_same_key and holder.key == key):
                    continue
                await conn.execute(
                    holds_t.update()
                    .where(*_held(guild_id, reward), holds_t.c.user_id == holder.user_id)
                    .values(want=False, updated_at=now, done_at=None, failure=None)
                )
            await _want(conn, guild_id, reward, user_id, role_id, key, now)
            return True

    async def hold(
        self, guild_id: int, reward: RoleReward, user_id: int, key: str, want: bool, now: float
    ) -> bool:
        """A reward many may hold (a streak's): `user_id` should hold it or not. Whether
        an intent was stored (not when nothing changes or no role is given for it)."""
        async with self._write() as conn:
            found = (
                await conn.execute(
                    sa.select(holds_t.c.want).where(
                        holds_t.c.guild_id == guild_id,
                        holds_t.c.reward == reward.value,
                        holds_t.c.user_id == user_id,
                    )
                )
            ).first()
            if want:
                role_id = await _role_of(conn, guild_id, reward)
                if role_id is None or (found is not None and found.want):
                    return False
                await _want(conn, guild_id, reward, user_id, role_id, key, now)
                return True
            if found is None or not found.want:
                return False
            await conn.execute(
                holds_t.update()
                .where(*_held(guild_id, reward), holds_t.c.user_id == user_id)
                .values(want=False, updated_at=now, done_at=None, failure=None)
            )
            return True

    async def undone(self, limit: int = 100) -> list[RoleIntent]:
        """Intents Discord has not done yet, oldest first."""
        async with self._read() as conn:
            rows = await conn.execute(
                sa.select(holds_t)
                .where(holds_t.c.done_at.is_(None))
                .order_by(holds_t.c.updated_at, holds_t.c.guild_id, holds_t.c.user_id)
                .limit(limit)
            )
            return [_intent(r) for r in rows]

    async def done(self, intent: RoleIntent, now: float, failure: str | None = None) -> bool:
        """Mark `intent` done (or failed, with why) unless it changed since it was read."""
        async with self._write() as conn:
            marked = await conn.execute(
                holds_t.update()
                .where(
                    holds_t.c.guild_id == intent.guild_id,
                    holds_t.c.reward == intent.reward.value,
                    holds_t.c.user_id == intent.user_id,
                    holds_t.c.updated_at == intent.updated_at,
                    holds_t.c.done_at.is_(None),
                )
                .values(done_at=now, failure=failure)
            )
            return bool(marked.rowcount)

    async def failures(self, guild_id: int, limit: int = 10) -> list[RoleIntent]:
        """The server's intents Discord could not do (why: `failure`), newest first."""
        async with self._read() as conn:
            rows = await conn.execute(
                sa.select(holds_t)
                .where(holds_t.c.guild_id == guild_id, holds_t.c.failure.is_not(None))
                .order_by(holds_t.c.updated_at.desc())
                .limit(limit)
            )
            return [_intent(r) for r in rows]

    async def retry_failed(self, guild_id: int, now: float) -> int:
        """The server's failed intents undone again (an admin fixed what was missing),
        with the role each reward gives now; how many."""
        async with self._write() as conn:
            failed = list(
                await conn.execute(
                    sa.select(holds_t.c.reward, holds_t.c.user_id).where(
                        holds_t.c.guild_id == guild_id, holds_t.c.failure.is_not(None)
                    )
                )
            )
            for row in failed:
                role_id = await _role_of(conn, guild_id, RoleReward(row.reward))
                values = {"updated_at": now, "done_at": None, "failure": None}
                await conn.execute(
                    holds_t.update()
                    .where(
                        holds_t.c.guild_id == guild_id,
                        holds_t.c.reward == row.reward,
                        holds_t.c.user_id == row.user_id,
                    )
                    .values(**values, **({} if role_id is None else {"role_id": role_id}))
                )
            return len(failed)

    async def holds(self, guild_id: int, reward: RoleReward) -> list[RoleIntent]:
        """Every player's intent for the reward (held or taken, done or not)."""
        async with self._read() as conn:
            rows = await conn.execute(
                sa.select(holds_t)
                .where(holds_t.c.guild_id == guild_id, holds_t.c.reward == reward.value)
                .order_by(holds_t.c.user_id)
            )
            return [_intent(r) for r in rows]
