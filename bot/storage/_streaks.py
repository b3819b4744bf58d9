"""The periods that feed the streaks (`rules.streak`): one row per (player, Set, period).

A period counts when the player finished a Qualification of the Set in it: a
checkout or all rounds played (rank_class 0 or 1, as the board ranks them). A
lost game has rank_class 2 and a voided one has none and the status `void`, so
neither counts. DISTINCT keeps two games of one day one row.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage._boards import RANKED_CLASSES
from bot.storage._games import games
from rules import Mode, Streak, streak


def _finished() -> list[sa.ColumnElement[bool]]:
    return [
        games.c.mode == Mode.QUALIFICATION.value,
        games.c.status == "finished",
        games.c.rank_class.in_(RANKED_CLASSES),
        games.c.period.is_not(None),
    ]


async def player_streaks(
    conn: AsyncConnection, guild_id: int, user_id: int, today: str
) -> dict[str, Streak]:
    """The player's streak in every Set they finished a Qualification of, by Set name."""
    rows = await conn.execute(
        sa.select(games.c.set_name, games.c.period)
        .distinct()
        .where(games.c.guild_id == guild_id, games.c.player == str(user_id), *_finished())
    )
    periods: dict[str, list[str]] = defaultdict(list)
    for set_name, period in rows:
        periods[set_name].append(period)
    return {name: streak(days, today) for name, days in sorted(periods.items())}


async def board_streaks(
    conn: AsyncConnection, guild_id: int, set_name: str, user_ids: Collection[int], today: str
) -> dict[int, Streak]:
    """The streaks in one Set of the players on a board's page."""
    if not user_ids:
        return {}
    rows = await conn.execute(
        sa.select(games.c.player, games.c.period)
        .distinct()
        .where(
            games.c.guild_id == guild_id,
            games.c.set_name == set_name,
            games.c.player.in_([str(u) for u in user_ids]),
            *_finished(),
        )
    )
    periods: dict[int, list[str]] = {u: [] for u in user_ids}
    for player, period in rows:
        if player.isdigit():
            periods.setdefault(int(player), []).append(period)
    return {user: streak(days, today) for user, days in periods.items()}


async def finished_days(
    conn: AsyncConnection, guild_id: int, user_id: int, since: str
) -> list[str]:
    """The days (periods, from `since` on) the player finished a Qualification of any
    Set on the server, as a streak counts them; oldest first."""
    rows = await conn.execute(
        sa.select(games.c.period)
        .distinct()
        .where(
            games.c.guild_id == guild_id,
            games.c.player == str(user_id),
            games.c.period >= since,
            *_finished(),
        )
        .order_by(games.c.period)
    )
    return [str(period) for period in rows.scalars()]
