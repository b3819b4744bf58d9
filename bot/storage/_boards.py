"""Leaderboards: the Qualification board, the duel ratings' board and what they show.

The Qualification board reads only `games` columns that its index holds, picks
each player's best game with a window function, and sorts by RULES.md's key
(checkouts by rounds, then remaining Score, then answering time). Lost games
(timeout, resignation) are not on the board: RULES.md ranks checkouts and
finished games only. A player's totals are `_stats`; the Elo write is `_ratings`.
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage._board_best import board_best
from bot.storage._games import games
from bot.storage._models import BarredPlayer, table
from bot.storage._ratings import ratings_t, user_id
from bot.storage._records import LeaderRow, RatingRow
from rules import FormulaLanguage, GameSet, Mode

barred_t = table(BarredPlayer)

RANK_ORDER = (games.c.rank_class, games.c.rank_value, games.c.answer_time, games.c.created_at)
"""RULES.md's ranking key in `games` columns; of two games tied on all of it, the earlier."""

LEADER_COLUMNS = (
    games.c.id,
    games.c.player,
    games.c.set_name,
    games.c.period,
    games.c.rank_class,
    games.c.rounds_played,
    games.c.final_score,
    games.c.answer_time,
    games.c.perfect,
    games.c.termination,
)
"""What a board row shows: never the state JSON, which is most of a game's bytes."""


def leader_row(rank: int, row: Any) -> LeaderRow:
    return LeaderRow(
        rank=rank,
        user_id=user_id(row.player),
        game_id=row.id,
        set_name=row.set_name,
        period=row.period,
        rank_class=row.rank_class,
        rounds=row.rounds_played,
        score=row.final_score,
        answer_time=row.answer_time,
        perfect=row.perfect,
        termination=row.termination,
    )


RANKED_CLASSES = (0, 1)
"""rank_class of a checkout and of a game played to maxRound; 2 (a loss) is not ranked."""


def not_barred(guild_id: int, player: Any) -> Any:
    """Not a player an admin barred here: barred players are off every board while barred
    (their games are kept; unbarred, they are back). `player` is a text id (games) or a
    number (ratings); the barred list is read once per query, not per row."""
    user = barred_t.c.user_id
    ids = sa.select(user if isinstance(player.type, sa.BigInteger) else sa.cast(user, sa.String))
    return player.not_in(ids.where(barred_t.c.guild_id == guild_id).scalar_subquery())


def _board_conditions(
    guild_id: int, set_name: str, since: str | None, version: str | None, until: str | None = None
) -> list[Any]:
    """A board ranks one version of a Set (games under other numbers are another contest),
    over the periods from `since` to `until`."""
    conditions = [
        games.c.guild_id == guild_id,
        games.c.mode == Mode.QUALIFICATION.value,
        games.c.set_name == set_name,
        games.c.rank_class.in_(RANKED_CLASSES),
        not_barred(guild_id, games.c.player),
    ]
    if version is not None:
        conditions.append(games.c.set_version == version)
    if since is not None:
        conditions.append(games.c.period >= since)
    if until is not None:
        conditions.append(games.c.period <= until)
    return conditions


async def qualification_count(
    conn: AsyncConnection, guild_id: int, set_name: str, since: str | None,
    version: str | None = None, until: str | None = None,
) -> int:  # fmt: skip
    """Players on the board: a range of the board's index, like the board itself."""
    count = await conn.scalar(
        sa.select(sa.func.count(sa.distinct(games.c.player))).where(
            *_board_conditions(guild_id, set_name, since, version, until)
        )
    )
    return int(count or 0)


async def qualification_sets(conn: AsyncConnection, guild_id: int) -> list[str]:
    """The Sets with Qualification games here, by name (the web board's Set choice)."""
    conditions = [games.c.guild_id == guild_id, games.c.mode == Mode.QUALIFICATION.value]
    listed = _skipping(games.c.set_name, conditions)
    result = await conn.execute(sa.select(listed.c.value).order_by(listed.c.value))
    return [str(name) for name in result.scalars()]


async def set_language(
    conn: AsyncConnection, guild_id: int, set_name: str, version: str | None,
    game_id: str | None = None,
) -> FormulaLanguage:  # fmt: skip
    """The language of a Set's Qualification games here: of the game `game_id`; else of any
    game of `version` (a version names its language: `GameSet.version`), the first entry
    of the board's index range; else of the latest game. PHP when none was played (a
    board then shows no number at all)."""
    query = sa.select(games.c.set_snapshot).limit(1)
    if game_id is not None:
        query = query.where(games.c.id == game_id, games.c.guild_id == guild_id)
    else:
        conditions = [
            games.c.guild_id == guild_id,
            games.c.mode == Mode.QUALIFICATION.value,
            games.c.set_name == set_name,
        ]
        if version is not None:
            query = query.where(*conditions, games.c.set_version == version)
        else:  # the latest game's id from an index, then its row: not every row's snapshot
            latest = sa.select(games.c.id).where(*conditions).limit(1)
            latest = latest.order_by(games.c.created_at.desc(), games.c.id.desc())
            query = query.where(games.c.id == latest.scalar_subquery())
    snapshot = await conn.scalar(query)
    if snapshot is None:
        return FormulaLanguage.PHP
    return GameSet.from_dict(json.loads(snapshot)).language


def _of_set(guild_id: int, set_name: str) -> list[Any]:
    return [
        games.c.guild_id == guild_id,
        games.c.mode == Mode.QUALIFICATION.value,
        games.c.set_name == set_name,
    ]


def _skipping(column: Any, conditions: list[Any]) -> Any:
    """The distinct values of `column` in an index range, from the least up, one seek
    each (a recursive min over what is left), not one entry per game: a loose index
    scan that SQLite's DISTINCT does only with fresh statistics and PostgreSQL not at
    all. Needs an index with `conditions`' columns and then `column`."""
    first = sa.select(sa.func.min(column).label("value")).where(*conditions)
    found = first.cte("found", recursive=True)
    above = sa.select(sa.func.min(column)).where(*conditions, column > found.c.value)
    found = found.union_all(sa.select(above.scalar_subquery()).where(found.c.value.is_not(None)))
    return sa.select(found.c.value).where(found.c.value.is_not(None)).subquery()


def _by_time(guild_id: int, set_name: str, moment: Any, *more: Any) -> tuple[Any, Any]:
    """A Set's versions here (`_skipping` in `ix_games_versions`) and each one's `moment`
    (max or min of `created_at`: one seek in that index per version), instead of
    grouping every game of the Set (0026)."""
    listed = _skipping(games.c.set_version, [*_of_set(guild_id, set_name), *more])
    when = sa.select(moment(games.c.created_at)).where(
        *_of_set(guild_id, set_name), games.c.set_version == listed.c.value
    )
    return listed, when.scalar_subquery()


async def set_versions(
    conn: AsyncConnection, guild_id: int, set_name: str, since: str | None
) -> list[str]:
    """Versions with Qualification games (from period `since` on), latest played first."""
    if since is None:
        listed, latest = _by_time(guild_id, set_name, sa.func.max)
        query = sa.select(listed.c.value).order_by(latest.desc(), listed.c.value)
        return [str(v) for v in (await conn.execute(query)).scalars()]
    result = await conn.execute(
        sa.select(games.c.set_version)
        .where(*_of_set(guild_id, set_name), games.c.period >= since)
        .group_by(games.c.set_version)
        .order_by(sa.func.max(games.c.created_at).desc(), games.c.set_version)
    )
    return [str(v) for v in result.scalars()]


async def set_version_numbers(
    conn: AsyncConnection, guild_id: int, set_name: str
) -> dict[str, int]:
    """Each version of a Set with Qualification games here, numbered 1, 2, ... in the
    order it was first played: how a player reads a version (its id is a hash)."""
    listed, first = _by_time(guild_id, set_name, sa.func.min, games.c.set_version != "")
    result = await conn.execute(sa.select(listed.c.value).order_by(first, listed.c.value))
    return {str(v): number for number, v in enumerate(result.scalars(), start=1)}


async def qualification(
    conn: AsyncConnection,
    guild_id: int,
    set_name: str,
    since: str | None,
    limit: int,
    offset: int,
    version: str | None = None,
    until: str | None = None,
) -> list[LeaderRow]:
    rows, _ = await qualification_page(
        conn, guild_id, set_name, since, limit, offset, version, until
    )
    return rows


async def qualification_page(
    conn: AsyncConnection,
    guild_id: int,
    set_name: str,
    since: str | None,
    limit: int,
    offset: int,
    version: str | None = None,
    until: str | None = None,
) -> tuple[list[LeaderRow], int]:
    """A page of the board and how many players it ranks, in one pass over the board's
    rows: the count is the window's (`count(*) over ()` of each player's best game,
    before the page is cut), so it costs no second scan. Past the last page no row
    carries it, and it is counted apart."""
    if since is None and until is None and version is not None:
        return await _all_time_page(conn, guild_id, set_name, version, limit, offset)
    return await window_page(conn, guild_id, set_name, since, limit, offset, version, until)


def _partition(since: str | None) -> Any:
    """The window's partition: the player. From a period on (a day's, a week's board),
    written `player || ''` (the same groups) so that SQLite does not read the range
    from `ix_games_board`: that index is in the window's order, which spares the sort,
    but holds the period last, so a week's board read every game of the version
    (~16,700 entries on 100,000 games) to keep the week's few. The period's range in
    `ix_games_qualification` is read instead, and sorted. The board over all time and
    every version keeps `ix_games_board`'s order."""
    return games.c.player if since is None else games.c.player.concat("")


async def window_page(
    conn: AsyncConnection,
    guild_id: int,
    set_name: str,
    since: str | None,
    limit: int,
    offset: int,
    version: str | None = None,
    until: str | None = None,
) -> tuple[list[LeaderRow], int]:
    """`qualification_page` from `games` alone: each player's best game by a window over
    the range's games. Boards over periods and over every version; and the reference
    the all-time board from `board_best` is tested against."""
    conditions = _board_conditions(guild_id, set_name, since, version, until)
    ranked = (
        sa.select(
            games.c.id,
            *RANK_ORDER,
            sa.func.row_number()
            .over(partition_by=_partition(since), order_by=(*RANK_ORDER, games.c.id))
            .label("place"),
        )
        .where(*conditions)
        .subquery()
    )
    page = (
        sa.select(ranked.c.id, sa.func.count().over().label("total"))
        .where(ranked.c.place == 1)
        .order_by(*(ranked.c[c.name] for c in RANK_ORDER), ranked.c.id)
        .limit(limit)
        .offset(offset)
        .subquery()
    )
    result = (
        await conn.execute(
            sa.select(*LEADER_COLUMNS, page.c.total)
            .join(page, page.c.id == games.c.id)
            .order_by(*RANK_ORDER, games.c.id)
        )
    ).all()
    if not result:
        total = await qualification_count(conn, guild_id, set_name, since, version, until)
        return [], total
    return [leader_row(offset + i + 1, row) for i, row in enumerate(result)], result[0].total


BEST_ORDER = (
    board_best.c.rank_class,
    board_best.c.rank_value,
    board_best.c.answer_time,
    board_best.c.created_at,
    board_best.c.game_id,
)
"""`RANK_ORDER` and the id, as `board_best` holds them."""


async def _all_time_page(
    conn: AsyncConnection, guild_id: int, set_name: str, version: str, limit: int, offset: int
) -> tuple[list[LeaderRow], int]:
    """A version's all-time board from `board_best` (each player's best game, kept by the
    database's triggers): the page's rows read in `ix_board_best_rank`'s order and cut
    there (no sort, no other player's row read), instead of numbering every game of the
    version with a window. The count is a scalar subquery of the same statement, one
    count of the index range, not a window over every row (which made the database read
    and sort the whole board to cut one page). Ranks exactly as the window does."""
    of_version = (
        board_best.c.guild_id == guild_id,
        board_best.c.set_name == set_name,
        board_best.c.set_version == version,
        not_barred(guild_id, board_best.c.player),
    )
    count = sa.select(sa.func.count()).select_from(board_best).where(*of_version)
    best = (
        sa.select(board_best.c.game_id, *BEST_ORDER[:-1])
        .where(*of_version)
        .order_by(*BEST_ORDER)
        .limit(limit)
        .offset(offset)
        .subquery()
    )
    result = (
        await conn.execute(
            sa.select(*LEADER_COLUMNS, count.scalar_subquery().label("total"))
            .join(best, best.c.game_id == games.c.id)
            .order_by(*(best.c[c.name] for c in BEST_ORDER))
        )
    ).all()
    if not result:
        return [], int(await conn.scalar(count) or 0)
    return [leader_row(offset + i + 1, row) for i, row in enumerate(result)], result[0].total


def rating_row(rank: int, row: Any) -> RatingRow:
    return RatingRow(
        rank=rank,
        user_id=row.user_id,
        rating=row.rating,
        games=row.games,
        wins=row.wins,
        draws=row.draws,
        losses=row.losses,
    )


async def duel_count(conn: AsyncConnection, guild_id: int) -> int:
    count = await conn.scalar(
        sa.select(sa.func.count())
        .select_from(ratings_t)
        .where(
            ratings_t.c.guild_id == guild_id,
            not_barred(guild_id, ratings_t.c.user_id),
        )
    )
    return int(count or 0)


async def duel(conn: AsyncConnection, guild_id: int, limit: int, offset: int) -> list[RatingRow]:
    result = await conn.execute(
        sa.select(ratings_t)
        .where(
            ratings_t.c.guild_id == guild_id,
            not_barred(guild_id, ratings_t.c.user_id),
        )
        .order_by(ratings_t.c.rating.desc(), ratings_t.c.games.desc(), ratings_t.c.user_id)
        .limit(limit)
        .offset(offset)
    )
    return [rating_row(offset + i + 1, row) for i, row in enumerate(result)]
