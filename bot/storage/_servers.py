"""Server settings (`/config`) and the daily post's claims and figures.

A daily post must be made exactly once per (server, Set, period) whatever crashes or
how many bot processes share the database. The claim row is inserted *before* the
post (its primary key is the unique key, so of two racing inserts one wins); it is
marked done after. A claim never marked done is a process that died mid-post: past
its lease another process may take it over (one UPDATE guarded by the old
`claimed_at`, so again only one wins). The post itself may then be made twice only if
a process dies between Discord accepting the message and the done mark: that window
is one database write long; the daily post closes it by looking for the post in the
channel before it makes it again (`PostClaim.resumed_since`).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage._boards import RANKED_CLASSES, qualification, qualification_count
from bot.storage._games import dialect_insert, games
from bot.storage._models import AnswerRow, DailyPost, RoundRow, ServerConfig, table
from bot.storage._records import ChannelGone, PeriodSummary, PostClaim, RoundBest, ServerSettings
from rules import GameSet, Mode

config_t = table(ServerConfig)
posts_t = table(DailyPost)
rounds_t = table(RoundRow)
answers_t = table(AnswerRow)

WEB_KEY_BYTES = 16
"""A page key of 22 URL-safe characters: 128 random bits, not guessed to find a server."""

UNSET: Any = object()
"""A `/config` field left as it is (None is a value: "no channel")."""


def _settings(row: Any) -> ServerSettings:
    return ServerSettings(
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        language=row.language,
        timezone=row.timezone,
        channel_since=row.channel_since,
        cleared_channel_id=row.cleared_channel_id,
        cleared_reason=None if row.cleared_reason is None else _gone(row.cleared_reason),
        cleared_at=row.cleared_at,
        web_key=row.web_key,
        web_on=bool(row.web_on),
    )


def _gone(reason: str) -> ChannelGone:
    try:
        return ChannelGone(reason)
    except ValueError:  # written by a newer version
        return ChannelGone.NOT_FOUND


async def get(conn: AsyncConnection, guild_id: int) -> ServerSettings:
    row = (await conn.execute(sa.select(config_t).where(config_t.c.guild_id == guild_id))).first()
    return ServerSettings(guild_id) if row is None else _settings(row)


async def update(
    conn: AsyncConnection, guild_id: int, now: float, *, channel_id: Any = UNSET,
    language: Any = UNSET, timezone: Any = UNSET,
) -> ServerSettings:  # fmt: skip
    """A channel set again keeps its `channel_since`: resetting it would skip the post of
    a day that ended before (the post waits after midnight for the day's games). An admin's
    choice of channel (or of none) forgets a channel the bot cleared itself."""
    changes: dict[str, Any] = {"updated_at": now}
    if channel_id is not UNSET:
        changes.update(cleared_channel_id=None, cleared_reason=None, cleared_at=None)
    if channel_id is not UNSET and channel_id != (await get(conn, guild_id)).channel_id:
        changes["channel_id"] = channel_id
        changes["channel_since"] = None if channel_id is None else now
    if language is not UNSET:
        changes["language"] = language
    if timezone is not UNSET:
        changes["timezone"] = timezone
    await conn.execute(
        dialect_insert(conn, config_t)
        .values(guild_id=guild_id, **changes)
        .on_conflict_do_update(index_elements=["guild_id"], set_=changes)
    )
    return await get(conn, guild_id)


async def set_web(
    conn: AsyncConnection, guild_id: int, on: bool, now: float, new_key: str
) -> ServerSettings:
    """Turn a server's web pages on or off; its page key is made once (`new_key` is used
    only when it has none) and kept, so an address given out stays the same."""
    key = (await get(conn, guild_id)).web_key or new_key
    changes = {"web_on": on, "web_key": key, "updated_at": now}
    await conn.execute(
        dialect_insert(conn, config_t)
        .values(guild_id=guild_id, **changes)
        .on_conflict_do_update(index_elements=["guild_id"], set_=changes)
    )
    return await get(conn, guild_id)


async def by_web_key(conn: AsyncConnection, key: str) -> ServerSettings | None:
    """The server whose pages `key` names, if it has them on."""
    row = (
        await conn.execute(
            sa.select(config_t).where(config_t.c.web_key == key, config_t.c.web_on.is_(True))
        )
    ).first()
    return None if row is None else _settings(row)


async def clear_channel(
    conn: AsyncConnection, guild_id: int, channel_id: int | None, reason: ChannelGone, now: float
) -> bool:
    """Take the daily post's channel off a server (Discord refused it, or the bot left):
    nothing is sent there every night. `channel_id` None is whatever channel it has; a
    channel an admin changed meanwhile is left alone. False when there was nothing to clear."""
    conditions = [config_t.c.guild_id == guild_id, config_t.c.channel_id.is_not(None)]
    if channel_id is not None:
        conditions.append(config_t.c.channel_id == channel_id)
    cleared = await conn.execute(
        config_t.update()
        .where(*conditions)
        .values(
            cleared_channel_id=config_t.c.channel_id,
            cleared_reason=reason.value,
            cleared_at=now,
            channel_id=None,
            channel_since=None,
            updated_at=now,
        )
    )
    return bool(cleared.rowcount)


async def with_channel(conn: AsyncConnection) -> list[ServerSettings]:
    """Every server that asked for a daily post."""
    result = await conn.execute(sa.select(config_t).where(config_t.c.channel_id.is_not(None)))
    return [_settings(row) for row in result]


async def claim(
    conn: AsyncConnection, key: tuple[int, str, str], owner: str, now: float, lease: float
) -> PostClaim | None:
    """Take the post `key` for `owner`: a new claim, one abandoned past its lease, or
    `owner`'s own unfinished one (its done mark failed); None when another holds it."""
    guild_id, set_name, period = key
    inserted = await conn.execute(
        dialect_insert(conn, posts_t)
        .values(
            guild_id=guild_id, set_name=set_name, period=period, claimed_by=owner, claimed_at=now
        )
        .on_conflict_do_nothing(index_elements=["guild_id", "set_name", "period"])
    )
    if inserted.rowcount:
        return PostClaim()
    of_key = [
        posts_t.c.guild_id == guild_id,
        posts_t.c.set_name == set_name,
        posts_t.c.period == period,
        posts_t.c.done_at.is_(None),
    ]
    held = (
        await conn.execute(sa.select(posts_t.c.claimed_by, posts_t.c.claimed_at).where(*of_key))
    ).first()
    if held is None or (held.claimed_by != owner and held.claimed_at >= now - lease):
        return None
    taken = await conn.execute(
        posts_t.update()
        .where(*of_key, posts_t.c.claimed_at == held.claimed_at)
        .values(claimed_by=owner, claimed_at=now)
    )
    return PostClaim(resumed_since=float(held.claimed_at)) if taken.rowcount else None


async def finish(
    conn: AsyncConnection, key: tuple[int, str, str], owner: str, message_id: int | None, now: float
) -> None:
    guild_id, set_name, period = key
    await conn.execute(
        posts_t.update()
        .where(
            posts_t.c.guild_id == guild_id,
            posts_t.c.set_name == set_name,
            posts_t.c.period == period,
            posts_t.c.claimed_by == owner,
        )
        .values(done_at=now, message_id=message_id)
    )


async def done(conn: AsyncConnection, key: tuple[int, str, str]) -> bool:
    guild_id, set_name, period = key
    found = await conn.scalar(
        sa.select(posts_t.c.done_at).where(
            posts_t.c.guild_id == guild_id,
            posts_t.c.set_name == set_name,
            posts_t.c.period == period,
        )
    )
    return found is not None


def _period_games(guild_id: int, period: str) -> list[Any]:
    return [
        games.c.guild_id == guild_id,
        games.c.mode == Mode.QUALIFICATION.value,
        games.c.period == period,
    ]


async def played_between(
    conn: AsyncConnection, guild_id: int, first: str, last: str
) -> dict[str, list[str]]:
    """The Sets with Qualification games in each period from `first` to `last`."""
    result = await conn.execute(
        sa.select(games.c.period, games.c.set_name)
        .distinct()
        .where(
            games.c.guild_id == guild_id,
            games.c.mode == Mode.QUALIFICATION.value,
            games.c.period >= first,
            games.c.period <= last,
        )
        .order_by(games.c.period, games.c.set_name)
    )
    played: dict[str, list[str]] = {}
    for period, set_name in result:
        played.setdefault(str(period), []).append(str(set_name))
    return played


async def posted_between(
    conn: AsyncConnection, guild_id: int, first: str, last: str
) -> set[tuple[str, str]]:
    """(Set, period) of the posts made from `first` to `last`."""
    result = await conn.execute(
        sa.select(posts_t.c.set_name, posts_t.c.period).where(
            posts_t.c.guild_id == guild_id,
            posts_t.c.period >= first,
            posts_t.c.period <= last,
            posts_t.c.done_at.is_not(None),
        )
    )
    return {(str(name), str(period)) for name, period in result}


async def played_set(
    conn: AsyncConnection, guild_id: int, set_name: str, period: str
) -> GameSet | None:
    """The Set as stored with the period's latest Qualification of `set_name`: its version
    is the board the day's post ranks, whatever the Set became since (an edit after
    midnight, or during a downtime, must not empty a well-played day's board)."""
    snapshot = await conn.scalar(
        sa.select(games.c.set_snapshot)
        .where(*_period_games(guild_id, period), games.c.set_name == set_name)
        .order_by(games.c.created_at.desc(), games.c.id.desc())
        .limit(1)
    )
    return None if snapshot is None else GameSet.from_dict(json.loads(snapshot))


async def running(conn: AsyncConnection, guild_id: int, set_name: str, period: str) -> int:
    """Games of the period still being played (a post waits for them: it shows Digits)."""
    count = await conn.scalar(
        sa.select(sa.func.count()).where(
            *_period_games(guild_id, period),
            games.c.set_name == set_name,
            games.c.status == "active",
        )
    )
    return int(count or 0)


async def summary(
    conn: AsyncConnection,
    guild_id: int,
    set_name: str,
    period: str,
    top: int,
    version: str | None = None,
) -> PeriodSummary:
    """The period's final board, its Perfects, and each round's best answer; of one
    version of the Set when `version` is given (a board ranks one version at a time)."""
    board = await qualification(
        conn, guild_id, set_name, period, top, 0, version=version, until=period
    )
    players = await qualification_count(
        conn, guild_id, set_name, period, version=version, until=period
    )
    of_period = [*_period_games(guild_id, period), games.c.set_name == set_name]
    if version is not None:
        of_period.append(games.c.set_version == version)
    played = await conn.scalar(
        sa.select(sa.func.count(sa.distinct(games.c.player))).where(
            *of_period, games.c.status == "finished"
        )
    )
    perfects = await conn.scalar(
        sa.select(sa.func.count()).where(
            *of_period, games.c.perfect.is_(True), games.c.rank_class.in_(RANKED_CLASSES)
        )
    )
    best = (
        sa.select(
            rounds_t.c.number,
            rounds_t.c.digits,
            answers_t.c.player,
            answers_t.c.formula,
            answers_t.c.result,
            answers_t.c.points,
            sa.func.row_number()
            .over(
                partition_by=(rounds_t.c.number, rounds_t.c.digits),
                order_by=(answers_t.c.points.desc(), answers_t.c.elapsed, answers_t.c.game_id),
            )
            .label("place"),
        )
        .select_from(games)
        .join(rounds_t, rounds_t.c.game_id == games.c.id)
        .join(
            answers_t,
            sa.and_(
                answers_t.c.game_id == rounds_t.c.game_id,
                answers_t.c.round_number == rounds_t.c.number,
            ),
        )
        .where(*of_period, games.c.status == "finished", answers_t.c.auto.is_(False))
        .subquery()
    )
    rows = await conn.execute(
        sa.select(best).where(best.c.place == 1).order_by(best.c.number, best.c.digits)
    )
    rounds = [
        RoundBest(
            number=row.number,
            digits=row.digits,
            user_id=int(row.player) if str(row.player).isdigit() else 0,
            formula=row.formula,
            result=row.result,
            points=row.points,
        )
        for row in rows
    ]
    return PeriodSummary(board, players, int(perfects or 0), rounds, int(played or 0))


Connect = Callable[[], AbstractAsyncContextManager[AsyncConnection]]


class ServerStore:
    """The Store's part for server settings and daily posts (`Store.servers`): one
    transaction per method, on the Store's own connections and write lock."""

    def __init__(self, write: Connect, read: Connect) -> None:
        self._write = write
        self._read = read

    async def settings(self, guild_id: int) -> ServerSettings:
        async with self._read() as conn:
            return await get(conn, guild_id)

    async def update(self, guild_id: int, now: float, **changes: Any) -> ServerSettings:
        """Set the `/config` fields given (channel_id, language, timezone); None unsets."""
        async with self._write() as conn:
            return await update(conn, guild_id, now, **changes)

    async def set_web(self, guild_id: int, on: bool, now: float) -> ServerSettings:
        async with self._write() as conn:
            return await set_web(conn, guild_id, on, now, secrets.token_urlsafe(WEB_KEY_BYTES))

    async def by_web_key(self, key: str) -> ServerSettings | None:
        async with self._read() as conn:
            return await by_web_key(conn, key)

    async def clear_channel(
        self, guild_id: int, channel_id: int | None, reason: ChannelGone, now: float
    ) -> bool:
        async with self._write() as conn:
            return await clear_channel(conn, guild_id, channel_id, reason, now)

    async def with_channel(self) -> list[ServerSettings]:
        async with self._read() as conn:
            return await with_channel(conn)

    async def claim_post(
        self, key: tuple[int, str, str], owner: str, now: float, lease: float
    ) -> PostClaim | None:
        async with self._write() as conn:
            return await claim(conn, key, owner, now, lease)

    async def finish_post(
        self, key: tuple[int, str, str], owner: str, message_id: int | None, now: float
    ) -> None:
        async with self._write() as conn:
            await finish(conn, key, owner, message_id, now)

    async def post_done(self, key: tuple[int, str, str]) -> bool:
        async with self._read() as conn:
            return await done(conn, key)

    async def played_between(self, guild_id: int, first: str, last: str) -> dict[str, list[str]]:
        async with self._read() as conn:
            return await played_between(conn, guild_id, first, last)

    async def posted_between(self, guild_id: int, first: str, last: str) -> set[tuple[str, str]]:
        async with self._read() as conn:
            return await posted_between(conn, guild_id, first, last)

    async def played_set(self, guild_id: int, set_name: str, period: str) -> GameSet | None:
        async with self._read() as conn:
            return await played_set(conn, guild_id, set_name, period)

    async def running(self, guild_id: int, set_name: str, period: str) -> int:
        async with self._read() as conn:
            return await running(conn, guild_id, set_name, period)

    async def summary(
        self,
        guild_id: int,
        set_name: str,
        period: str,
        *,
        top: int = 10,
        version: str | None = None,
    ) -> PeriodSummary:
        async with self._read() as conn:
            return await summary(conn, guild_id, set_name, period, top, version)
