"""What server admins do to keep a board clean: void a game, bar a player; logged, reversible.

A voided game stays stored as it was played (its state is the evidence) but counts
nowhere: its status is `void` (stats and attempts read `finished`), its ranking
fields are cleared (boards read those), and a rated duel's Elo is given back. Undoing
a void puts the ranking fields back from the state and rates the duel again from the
ratings as they are now (Elo depends on the order of games, so a re-rated duel can
move ratings slightly differently than it first did). Every action is one
transaction with its line in the log.
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

import rules
from bot.storage import _codec
from bot.storage._games import (
    RECORD_COLUMNS,
    dialect_insert,
    game_players,
    games,
    record_from_row,
)
from bot.storage._models import BarredPlayer, ModerationLog, table
from bot.storage._ratings import events_t, ratings_t, record_duel
from bot.storage._records import ModerationAction, ModerationEntry
from rules import Mode, Termination

barred_t = table(BarredPlayer)
log_t = table(ModerationLog)


async def _log(
    conn: AsyncConnection, guild_id: int, action: ModerationAction, target: str, actor_id: int,
    reason: str, now: float,
) -> None:  # fmt: skip
    await conn.execute(
        log_t.insert().values(
            guild_id=guild_id,
            action=action.value,
            target=target,
            actor_id=actor_id,
            reason=reason,
            created_at=now,
        )
    )


async def _locked_game(conn: AsyncConnection, guild_id: int, game_id: str) -> Any:
    return (
        await conn.execute(
            sa.select(games.c.status, *RECORD_COLUMNS)
            .where(games.c.id == game_id, games.c.guild_id == guild_id)
            .with_for_update()
        )
    ).one_or_none()


async def void(
    conn: AsyncConnection, guild_id: int, game_id: str, actor_id: int, reason: str, now: float,
    ended: bool = False,
) -> bool:  # fmt: skip
    """Void a finished game of this server; False if not one, or void already (voiding
    twice is refused, like barring twice) unless `ended`: the admin's own void of the
    running game has just ended it as void, and the action is logged."""
    row = await _locked_game(conn, guild_id, game_id)
    if row is None or row.status == "active" or (row.status == "void" and not ended):
        return False
    if row.status != "void":
        meta = json.loads(row.meta)
        meta["void_reason"] = reason
        await conn.execute(
            games.update()
            .where(games.c.id == game_id)
            .values(
                status="void",
                rank_class=None,
                rank_value=None,
                answer_time=None,
                meta=_codec.dumps(meta),
            )
        )
        await conn.execute(
            game_players.update().where(game_players.c.game_id == game_id).values(status="void")
        )
        await _give_elo_back(conn, game_id, rules.GameState.from_dict(json.loads(row.state)))
    await _log(conn, guild_id, ModerationAction.VOID, game_id, actor_id, reason, now)
    return True


async def unvoid(
    conn: AsyncConnection, guild_id: int, game_id: str, actor_id: int, reason: str, now: float
) -> bool:
    """Count an admin-voided game again; False if it is not one (a game that ended without
    a result, `Termination.VOID`, has nothing to count)."""
    row = await _locked_game(conn, guild_id, game_id)
    if row is None or row.status != "void":
        return False
    state = rules.GameState.from_dict(json.loads(row.state))
    if state.outcome is None or state.outcome.termination is Termination.VOID:
        return False
    meta = json.loads(row.meta)
    meta.pop("void_reason", None)
    rank = None if state.mode.is_duel else rules.ranking_key(state)
    await conn.execute(
        games.update()
        .where(games.c.id == game_id)
        .values(
            status="finished",
            rank_class=None if rank is None else rank[0],
            rank_value=None if rank is None else rank[1],
            answer_time=None if rank is None else rank[2],
            meta=_codec.dumps(meta),
        )
    )
    await conn.execute(
        game_players.update().where(game_players.c.game_id == game_id).values(status="finished")
    )
    if state.mode is Mode.DUEL:
        stored = (await conn.execute(sa.select(*RECORD_COLUMNS).where(games.c.id == game_id))).one()
        await record_duel(conn, record_from_row(stored))
    await _log(conn, guild_id, ModerationAction.UNVOID, game_id, actor_id, reason, now)
    return True


async def _give_elo_back(conn: AsyncConnection, game_id: str, state: rules.GameState) -> None:
    """Undo a rated duel: each player's rating loses the change, the counts the game."""
    events = (await conn.execute(sa.select(events_t).where(events_t.c.game_id == game_id))).all()
    result = state.outcome
    for event in events:
        seat = state.players.index(str(event.user_id))
        won = result is not None and result.winner == seat
        drew = result is not None and result.winner is None
        await conn.execute(
            ratings_t.update()
            .where(ratings_t.c.guild_id == event.guild_id, ratings_t.c.user_id == event.user_id)
            .values(
                rating=ratings_t.c.rating - (event.after - event.before),
                games=ratings_t.c.games - 1,
                wins=ratings_t.c.wins - int(won),
                draws=ratings_t.c.draws - int(drew),
                losses=ratings_t.c.losses - int(not won and not drew),
            )
        )
    await conn.execute(events_t.delete().where(events_t.c.game_id == game_id))
    guilds = {event.guild_id for event in events}
    if guilds:  # a player whose only rated duel this was leaves the Elo board
        await conn.execute(
            ratings_t.delete().where(ratings_t.c.guild_id.in_(guilds), ratings_t.c.games <= 0)
        )


async def bar(
    conn: AsyncConnection, guild_id: int, user_id: int, actor_id: int, reason: str, now: float
) -> bool:
    """Bar a player from ranked play here; False if they already are."""
    inserted = await conn.execute(
        dialect_insert(conn, barred_t)
        .values(guild_id=guild_id, user_id=user_id, reason=reason, since=now)
        .on_conflict_do_nothing()
    )
    if not inserted.rowcount:
        return False
    await _log(conn, guild_id, ModerationAction.BAR, str(user_id), actor_id, reason, now)
    return True


async def unbar(
    conn: AsyncConnection, guild_id: int, user_id: int, actor_id: int, reason: str, now: float
) -> bool:
    deleted = await conn.execute(
        barred_t.delete().where(barred_t.c.guild_id == guild_id, barred_t.c.user_id == user_id)
    )
    if not deleted.rowcount:
        return False
    await _log(conn, guild_id, ModerationAction.UNBAR, str(user_id), actor_id, reason, now)
    return True


async def barred(conn: AsyncConnection, guild_id: int, user_id: int) -> str | None:
    """Why the player is barred from ranked play here, or None."""
    reason = await conn.scalar(
        sa.select(barred_t.c.reason).where(
            barred_t.c.guild_id == guild_id, barred_t.c.user_id == user_id
        )
    )
    return None if reason is None else str(reason)


async def entries(conn: AsyncConnection, guild_id: int, limit: int) -> list[ModerationEntry]:
    result = await conn.execute(
        sa.select(log_t)
        .where(log_t.c.guild_id == guild_id)
        .order_by(log_t.c.created_at.desc(), log_t.c.id.desc())
        .limit(limit)
    )
    return [
        ModerationEntry(
            ModerationAction(row.action), row.target, row.actor_id, row.reason, row.created_at
        )
        for row in result
    ]
