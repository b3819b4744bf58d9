"""The daily posts' claims (taken, done, taken over past a lease) and which were made.

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

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage._games import dialect_insert
from bot.storage._models import DailyPost, table
from bot.storage._records import PostClaim

posts_t = table(DailyPost)


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
