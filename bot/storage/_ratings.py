"""Duel ratings: the Elo write, once per finished duel, and the tables it keeps.

Apart from the boards' reads because it is the one write among them, and the one the
Store runs inside the save that ends a duel (`GameStore.save_game`): the end and the
rating change land together. Undoing a void (`_moderation`) rates the duel again
through `record_duel`; a void gives the changes of `events_t` back.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from bot import elo
from bot.storage._codec import finished_moment, status
from bot.storage._games import dialect_insert, games
from bot.storage._models import Rating, RatingEvent, table
from bot.storage._records import GameRecord, RatingChange
from rules import Mode

ratings_t = table(Rating)
events_t = table(RatingEvent)


def user_id(player: str) -> int:
    """A seat's player as a Discord user id (0 for one that is not a number)."""
    return int(player) if player.isdigit() else 0


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
    users = [user_id(p) for p in state.players]
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


async def game_changes(conn: AsyncConnection, game_id: str) -> list[RatingChange]:
    """The Elo a rated duel moved, by its players' ids (none for any other game)."""
    rows = await conn.execute(
        sa.select(events_t).where(events_t.c.game_id == game_id).order_by(events_t.c.user_id)
    )
    return [RatingChange(row.user_id, row.before, row.after) for row in rows]


async def elo_history(
    conn: AsyncConnection, guild_id: int, user_id: int, limit: int
) -> list[tuple[float, int, int]]:
    """(when, Elo before, Elo after) of the player's last `limit` rated duels on the
    server, oldest first (`ix_rating_events_player`)."""
    rows = await conn.execute(
        sa.select(events_t.c.created_at, events_t.c.before, events_t.c.after)
        .where(events_t.c.guild_id == guild_id, events_t.c.user_id == user_id)
        .order_by(events_t.c.created_at.desc(), events_t.c.game_id.desc())
        .limit(limit)
    )
    return [(float(row.created_at), row.before, row.after) for row in rows][::-1]
