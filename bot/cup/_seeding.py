"""Who plays a Cup and in which seed order (RULES.md "Cup"): from the Set's Qualification
board over the Cup's window, or open entry by duel Elo. Read from the store only; the
same at the announcement (who is mentioned) and at the draw (who is drawn)."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.cup._spec import Seeding
from bot.elo import START
from bot.storage import CupRecord, Store
from bot.views import BoardPeriod, since

BOARD_DEPTH = 500
"""How far down the board the places are filled (far beyond 64 players checking in)."""
RATINGS_DEPTH = 5000

WINDOWS = {Seeding.DAY: BoardPeriod.TODAY, Seeding.WEEK: BoardPeriod.WEEK,
           Seeding.ALL: BoardPeriod.ALL}  # fmt: skip


def zone_of(cup: CupRecord) -> ZoneInfo:
    try:
        return ZoneInfo(cup.zone)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


async def board(store: Store, cup: CupRecord, version: str, now: float) -> list[str]:
    """The Set's Qualification board over the Cup's window, best first (players as ids)."""
    seeding = Seeding(cup.seeding)
    first = since(WINDOWS[seeding], datetime.fromtimestamp(now, UTC), zone_of(cup))
    rows = await store.boards.qualification_leaderboard(
        cup.guild_id, cup.set_name, first, limit=BOARD_DEPTH, version=version
    )
    return [str(row.user_id) for row in rows]


async def qualified(store: Store, cup: CupRecord, version: str, now: float) -> list[str]:
    """Who the announcement mentions: the board's first `size` (none for open entry)."""
    if not Seeding(cup.seeding).qualified:
        return []
    return (await board(store, cup, version, now))[: cup.size]


async def entrants(store: Store, cup: CupRecord, version: str, now: float) -> list[str]:
    """The Cup's players, seed 1 first: those who checked in, in the board's order (a
    qualified player who did not check in leaves the place to the next on the board), or
    by Elo for open entry (then by who checked in first); at most `size`."""
    checked = await store.cups.entries(cup.id)
    if Seeding(cup.seeding).qualified:
        joined = set(checked)
        return [p for p in await board(store, cup, version, now) if p in joined][: cup.size]
    ratings = {
        str(row.user_id): row.rating
        for row in await store.boards.duel_leaderboard(cup.guild_id, limit=RATINGS_DEPTH)
    }
    order = {player: i for i, player in enumerate(checked)}
    ranked = sorted(checked, key=lambda p: (-ratings.get(p, START), order[p]))
    return ranked[: cup.size]
