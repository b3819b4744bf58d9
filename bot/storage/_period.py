"""A Qualification period's figures, as the daily post reads them from the games.

Which Sets were played on which days (the posts to make), the Set as the day played it
(the version its board ranks), the games still running (a post waits for them: it
shows the Digits) and the day's summary: its final board, its Perfects and each
round's best answer.
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage._boards import RANKED_CLASSES, qualification, qualification_count
from bot.storage._games import games
from bot.storage._models import AnswerRow, RoundRow, table
from bot.storage._records import PeriodSummary, RoundBest
from rules import GameSet, Mode

rounds_t = table(RoundRow)
answers_t = table(AnswerRow)


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
