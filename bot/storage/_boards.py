"""Leaderboards, stats and duel ratings: the read side, plus the Elo write.

The Qualification board reads only `games` columns that its index holds, picks
each player's best game with a window function, and sorts by RULES.md's key
(checkouts by rounds, then remaining Score, then answering time). Lost games
(timeout, resignation) are not on the board: RULES.md ranks checkouts and
finished games only.
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from bot import elo
from bot.storage._codec import finished_moment, status
from bot.storage._games import dialect_insert, game_players, games
from bot.storage._models import BarredPlayer, Rating, RatingEvent, table
from bot.storage._records import GameRecord, LeaderRow, PlayerStats, RatingChange, RatingRow
from rules import FormulaLanguage, GameSet, Mode

ratings_t = table(Rating)
events_t = table(RatingEvent)
barred_t = table(BarredPlayer)

_RANK_ORDER = (games.c.rank_class, games.c.rank_value, games.c.answer_time, games.c.created_at)


_LEADER_COLUMNS = (
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


def _user_id(player: str) -> int:
    return int(player) if player.isdigit() else 0


def _leader_row(rank: int, row: Any) -> LeaderRow:
    return LeaderRow(
        rank=rank,
        user_id=_user_id(row.player),
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


def _not_barred(guild_id: int, player: Any) -> Any:
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
        _not_barred(guild_id, games.c.player),
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
    result = await conn.execute(
        sa.select(games.c.set_name)
        .where(games.c.guild_id == guild_id, games.c.mode == Mode.QUALIFICATION.value)
        .distinct()
        .order_by(games.c.set_name)
    )
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
        else:
            query = query.where(*conditions).order_by(games.c.created_at.desc(), games.c.id.desc())
    snapshot = await conn.scalar(query)
    if snapshot is None:
        return FormulaLanguage.PHP
    return GameSet.from_dict(json.loads(snapshot)).language


async def set_versions(
    conn: AsyncConnection, guild_id: int, set_name: str, since: str | None
) -> list[str]:
    """Versions with Qualification games (from period `since` on), latest played first."""
    latest = sa.func.max(games.c.created_at)
    conditions = [
        games.c.guild_id == guild_id,
        games.c.mode == Mode.QUALIFICATION.value,
        games.c.set_name == set_name,
    ]
    if since is not None:
        conditions.append(games.c.period >= since)
    result = await conn.execute(
        sa.select(games.c.set_version)
        .where(*conditions)
        .group_by(games.c.set_version)
        .order_by(latest.desc(), games.c.set_version)
    )
    return [str(v) for v in result.scalars()]


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
    conditions = _board_conditions(guild_id, set_name, since, version, until)
    ranked = (
        sa.select(
            games.c.id,
            *_RANK_ORDER,
            sa.func.row_number()
            .over(partition_by=games.c.player, order_by=(*_RANK_ORDER, games.c.id))
            .label("place"),
        )
        .where(*conditions)
        .subquery()
    )
    page = (
        sa.select(ranked.c.id)
        .where(ranked.c.place == 1)
        .order_by(*(ranked.c[c.name] for c in _RANK_ORDER), ranked.c.id)
        .limit(limit)
        .offset(offset)
        .subquery()
    )
    result = await conn.execute(
        sa.select(*_LEADER_COLUMNS)
        .join(page, page.c.id == games.c.id)
        .order_by(*_RANK_ORDER, games.c.id)
    )
    return [_leader_row(offset + i + 1, row) for i, row in enumerate(result)]


def _rating_row(rank: int, row: Any) -> RatingRow:
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
            _not_barred(guild_id, ratings_t.c.user_id),
        )
    )
    return int(count or 0)


async def duel(conn: AsyncConnection, guild_id: int, limit: int, offset: int) -> list[RatingRow]:
    result = await conn.execute(
        sa.select(ratings_t)
        .where(
            ratings_t.c.guild_id == guild_id,
            _not_barred(guild_id, ratings_t.c.user_id),
        )
        .order_by(ratings_t.c.rating.desc(), ratings_t.c.games.desc(), ratings_t.c.user_id)
        .limit(limit)
        .offset(offset)
    )
    return [_rating_row(offset + i + 1, row) for i, row in enumerate(result)]


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
            sa.select(*_LEADER_COLUMNS)
            .join(game_players, gp.game_id == games.c.id)
            .where(
                gp.guild_id == guild_id,
                gp.player == player,
                gp.mode == Mode.QUALIFICATION.value,
                games.c.rank_class.in_(RANKED_CLASSES),
            )
            .order_by(*_RANK_ORDER, games.c.id)
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
        duel_row = _rating_row(int(above or 0) + 1, rating)
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
        best=None if best_row is None else _leader_row(0, best_row),
        duel=duel_row,
    )


async def ends_rated_duel(conn: AsyncConnection, record: GameRecord) -> bool:
    """Whether saving `record` ends a rated duel: a duel finished with a result whose
    stored row is not finished yet (a game voided by an admin is never re-rated here)."""
    state = record.state
    if state.mode is not Mode.DUEL or status(state) != "finished":
        return False
    stored = await conn.scalar(sa.select(games.c.status).where(games.c.id == state.id))
    return stored is None or stored == "active"


async def record_duel(conn: AsyncConnection, record: GameRecord) -> list[RatingChange]:
    """Apply a finished duel to both ratings once; later calls return the same changes.

    Rating rows are locked in a fixed order before the events are read, so two
    concurrent calls for one duel (or two duels sharing a player) queue up on
    PostgreSQL instead of losing an update; the events' key (game, user) is the
    last guard against counting a duel twice.
    """
    state = record.state
    result = state.outcome
    if state.mode is not Mode.DUEL or result is None:
        raise ValueError(f"game {state.id} is not a finished duel")
    stored = await conn.scalar(sa.select(games.c.status).where(games.c.id == state.id))
    if stored != "finished":
        raise ValueError(f"save the finished duel {state.id} before rating it")
    users = [_user_id(p) for p in state.players]
    guild_id = record.guild_id
    await conn.execute(
        dialect_insert(conn, ratings_t)
        .values(
            [
                {
                    "guild_id": guild_id,
                    "user_id": u,
                    "rating": elo.START,
                    "games": 0,
                    "wins": 0,
                    "draws": 0,
                    "losses": 0,
                }
                for u in users
            ]
        )
        .on_conflict_do_nothing()
    )
    locked = await conn.execute(
        sa.select(ratings_t)
        .where(ratings_t.c.guild_id == guild_id, ratings_t.c.user_id.in_(users))
        .order_by(ratings_t.c.user_id)
        .with_for_update()
    )
    current = {row.user_id: row for row in locked}
    done = await conn.execute(sa.select(events_t).where(events_t.c.game_id == state.id))
    previous = {row.user_id: RatingChange(row.user_id, row.before, row.after) for row in done}
    if previous:
        return [previous[u] for u in users if u in previous]
    score_a = elo.DRAW if result.winner is None else (elo.WIN if result.winner == 0 else elo.LOSS)
    before = [current[u].rating for u in users]
    after = list(elo.rate(before[0], before[1], score_a))
    now = finished_moment(state, record.created_at)
    changes = [RatingChange(u, b, a) for u, b, a in zip(users, before, after, strict=True)]
    await conn.execute(
        events_t.insert(),
        [
            {
                "game_id": state.id,
                "user_id": c.user_id,
                "guild_id": guild_id,
                "before": c.before,
                "after": c.after,
                "created_at": now,
            }
            for c in changes
        ],
    )
    for seat, change in enumerate(changes):
        won = result.winner == seat
        drew = result.winner is None
        await conn.execute(
            ratings_t.update()
            .where(ratings_t.c.guild_id == guild_id, ratings_t.c.user_id == change.user_id)
            .values(
                rating=change.after,
                games=ratings_t.c.games + 1,
                wins=ratings_t.c.wins + int(won),
                draws=ratings_t.c.draws + int(drew),
                losses=ratings_t.c.losses + int(not won and not drew),
            )
        )
    return changes
