"""Server settings (`/config`, the web pages' switch and key) and `Store.servers`.

`ServerStore` is the Store's part for a server: its settings here, and the daily post's
claims (`_posts`) and the figures of a played day (`_period`), each method one
transaction on the Store's connections.
"""

from __future__ import annotations

import secrets
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage import _period, _posts
from bot.storage._connect import Connect
from bot.storage._games import dialect_insert
from bot.storage._models import ServerConfig, table
from bot.storage._records import ChannelGone, PeriodSummary, PostClaim, ServerSettings
from rules import GameSet

config_t = table(ServerConfig)

GUILD_NAME = 100
"""Discord's longest server name."""
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
        solo_games=row.solo_games,
        guild_name=row.guild_name,
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
    language: Any = UNSET, timezone: Any = UNSET, solo_games: Any = UNSET,
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
    if solo_games is not UNSET:
        changes["solo_games"] = solo_games
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


async def name_server(conn: AsyncConnection, guild_id: int, name: str, now: float) -> None:
    """Keep the server's name as Discord gives it; a name unchanged writes nothing."""
    insert = dialect_insert(conn, config_t).values(
        guild_id=guild_id, guild_name=name[:GUILD_NAME], updated_at=now
    )
    await conn.execute(
        insert.on_conflict_do_update(
            index_elements=["guild_id"],
            set_={"guild_name": insert.excluded.guild_name},
            where=sa.or_(
                config_t.c.guild_name.is_(None),
                config_t.c.guild_name != insert.excluded.guild_name,
            ),
        )
    )


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


class ServerStore:
    """The Store's part for server settings and daily posts (`Store.servers`): one
    transaction per method, on the Store's own connections and write lock."""

    def __init__(self, write: Connect, read: Connect) -> None:
        self._write = write
        self._read = read
        self._changes = 0

    @property
    def changes(self) -> int:
        """How many times this process changed a server's settings: what remembers a
        server's settings (the pages' `PageKeys`) asks again when it moved, so a change
        made here (`/config web off`) takes effect at once without a query per page."""
        return self._changes

    async def settings(self, guild_id: int) -> ServerSettings:
        async with self._read() as conn:
            return await get(conn, guild_id)

    async def update(self, guild_id: int, now: float, **changes: Any) -> ServerSettings:
        """Set the `/config` fields given (channel_id, language, timezone, solo_games);
        None unsets."""
        async with self._write() as conn:
            settings = await update(conn, guild_id, now, **changes)
        self._changes += 1
        return settings

    async def set_web(self, guild_id: int, on: bool, now: float) -> ServerSettings:
        async with self._write() as conn:
            settings = await set_web(conn, guild_id, on, now, secrets.token_urlsafe(WEB_KEY_BYTES))
        self._changes += 1
        return settings

    async def name_server(self, guild_id: int, name: str, now: float) -> None:
        """The server's name as Discord gave it (its pages show it). Read first: every
        server becomes available at each start, and few were renamed meanwhile, so the
        write lock is taken only for a name that changed."""
        async with self._read() as conn:
            if (await get(conn, guild_id)).guild_name == name[:GUILD_NAME]:
                return
        async with self._write() as conn:
            await name_server(conn, guild_id, name, now)
        self._changes += 1

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
            return await _posts.claim(conn, key, owner, now, lease)

    async def finish_post(
        self, key: tuple[int, str, str], owner: str, message_id: int | None, now: float
    ) -> None:
        async with self._write() as conn:
            await _posts.finish(conn, key, owner, message_id, now)

    async def post_done(self, key: tuple[int, str, str]) -> bool:
        async with self._read() as conn:
            return await _posts.done(conn, key)

    async def played_between(self, guild_id: int, first: str, last: str) -> dict[str, list[str]]:
        async with self._read() as conn:
            return await _period.played_between(conn, guild_id, first, last)

    async def posted_between(self, guild_id: int, first: str, last: str) -> set[tuple[str, str]]:
        async with self._read() as conn:
            return await _posts.posted_between(conn, guild_id, first, last)

    async def played_set(self, guild_id: int, set_name: str, period: str) -> GameSet | None:
        async with self._read() as conn:
            return await _period.played_set(conn, guild_id, set_name, period)

    async def running(self, guild_id: int, set_name: str, period: str) -> int:
        async with self._read() as conn:
            return await _period.running(conn, guild_id, set_name, period)

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
            return await _period.summary(conn, guild_id, set_name, period, top, version)
