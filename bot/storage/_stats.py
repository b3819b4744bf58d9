"""A player's `/stats`: totals, Practice apart, their best ranked game and duel rating.

Read from `game_players` (one row per seat, so a duel counts for both players), in the
boards' own row shapes, so the best game and the rating read as they do on a board.
The totals count finished games (a voided one has the status `void`), the best game is
a ranked one (a voided one has no rank).
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage._boards import LEADER_COLUMNS, RANK_ORDER, RANKED_CLASSES, leader_row, rating_row
from bot.storage._games import game_players, games
from bot.storage._ratings import ratings_t
from bot.storage._records import PlayerStats
from rules import Mode


def _count(column: sa.ColumnElement[bool]) -> sa.ColumnElement[Any]:
    return sa.func.coalesce(sa.func.sum(sa.case((column, 1), else_=0)), 0)


async def stats(conn: AsyncConnection, guild_id: int, user_id: int) -> PlayerStats:
    player = str(user_id)
    gp = game_players.c
    totals = (
        await conn.execute(
            sa.select(
                sa.func.count().label("games"),
                _count(gp.won).label("wins"),
                _count(gp.checkout).label("checkouts"),
                _count(gp.perfect).label("perfects"),
                sa.func.coalesce(sa.func.sum(gp.answered), 0).label("rounds"),
                sa.func.coalesce(sa.func.sum(gp.points_total), 0.0).label("points"),
            ).where(
                gp.guild_id == guild_id,
                gp.player == player,
                gp.status == "finished",
                gp.mode != Mode.PRACTICE.value,
            )
        )
    ).one()
    practice = (
        await conn.execute(
            sa.select(sa.func.count().label("games"), _count(gp.won).label("wins")).where(
                gp.guild_id == guild_id,
                gp.player == player,
                gp.status == "finished",
                gp.mode == Mode.PRACTICE.value,
            )
        )
    ).one()
    best_row = (
        await conn.execute(
            sa.select(*LEADER_COLUMNS)
            .join(game_players, gp.game_id == games.c.id)
            .where(
                gp.guild_id == guild_id,
                gp.player == player,
                gp.mode == Mode.QUALIFICATION.value,
                games.c.rank_class.in_(RANKED_CLASSES),
            )
            .order_by(*RANK_ORDER, games.c.id)
            .limit(1)
        )
    ).first()
    rating = (
        await conn.execute(
            sa.select(ratings_t).where(
                ratings_t.c.guild_id == guild_id, ratings_t.c.user_id == user_id
            )
        )
    ).first()
    duel_row = None
    if rating is not None:
        above = await conn.scalar(
            sa.select(sa.func.count())
            .select_from(ratings_t)
            .where(ratings_t.c.guild_id == guild_id, ratings_t.c.rating > rating.rating)
        )
        duel_row = rating_row(int(above or 0) + 1, rating)
    rounds = int(totals.rounds)
    return PlayerStats(
        user_id=user_id,
        games=int(totals.games),
        wins=int(totals.wins),
        practice=int(practice.games),
        practice_wins=int(practice.wins),
        checkouts=int(totals.checkouts),
        perfects=int(totals.perfects),
        rounds=rounds,
        avg_points=float(totals.points) / rounds if rounds else None,
        best=None if best_row is None else leader_row(0, best_row),
        duel=duel_row,
    )
