"""Writing and reading games: one transaction per state change, stale writes refused."""

from __future__ import annotations

import json
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import replace
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage import _codec
from bot.storage._advance import Known, Written, write_rounds, written
from bot.storage._first import first_step, started
from bot.storage._lane import SqliteLane
from bot.storage._models import AnswerRow, Game, GamePlayer, Player, RoundRow, Server, table
from bot.storage._pg_steps import PgSteps
from bot.storage._records import (
    AttemptsUsed,
    Face,
    FinishedThread,
    GameMeta,
    GameRecord,
    StaleGame,
)
from bot.storage._state_text import state_text
from rules import GameState, Mode

Writer = Callable[[], AbstractAsyncContextManager[AsyncConnection]]
"""The Store's write transaction (its SQLite writer lock taken)."""

games = table(Game)
game_players = table(GamePlayer)
rounds_t = table(RoundRow)
answers_t = table(AnswerRow)
players_t = table(Player)
servers_t = table(Server)

RECORD_COLUMNS = (
    games.c.state,
    games.c.guild_id,
    games.c.channel_id,
    games.c.period,
    games.c.seed,
    games.c.meta,
    games.c.created_at,
    games.c.face,
)


def dialect_insert(conn: AsyncConnection, target: sa.Table) -> Any:
    """INSERT with ON CONFLICT support for the connection's database."""
    if conn.dialect.name == "postgresql":
        return postgresql.insert(target)
    return sqlite.insert(target)


def record_from_row(row: Any) -> GameRecord:
    return GameRecord(
        state=GameState.from_dict(json.loads(row.state)),
        guild_id=row.guild_id,
        channel_id=row.channel_id,
        period=row.period,
        seed=row.seed,
        meta=GameMeta.from_dict(json.loads(row.meta)),
        created_at=row.created_at,
        face=Face(row.face),
    )


async def save(conn: AsyncConnection, record: GameRecord, now: float | None = None) -> Written:
    """Insert or advance one game inside the caller's transaction.

    The game row is locked first (FOR UPDATE on PostgreSQL; SQLite writers are
    serialized by the Store), then the stored state decides: the same state only
    updates bookkeeping, a state that extends it is written, anything else is
    another history of the game and raises StaleGame.

    Times come from the caller's clock (`now`) or the state itself, not from this
    machine's: a simulated clock and a restarted bot see the same history. Returns
    what is now stored, for the next save's shortcut (`_advance`).
    """
    state = record.state
    new = state.to_dict()
    state_json, cuts = state_text(state)
    stored = (
        await conn.execute(
            sa.select(games.c.state, games.c.meta, games.c.created_at, games.c.finished_at)
            .where(games.c.id == state.id)
            .with_for_update()
        )
    ).one_or_none()
    if stored is None:
        record = replace(record, created_at=record.created_at or started(state, now))
        finished = await _insert_new(conn, record, state_json, now)
        return written(record, state_json, new, finished, cuts)
    record = replace(record, created_at=stored.created_at)  # a copy: the caller's stays as it is
    old = json.loads(stored.state)
    if old == new:
        _same_writer(state.id, stored.meta, record.meta)
        await conn.execute(
            games.update()
            .where(games.c.id == state.id)
            .values(meta=_codec.dumps(record.meta.to_dict()), channel_id=record.channel_id)
        )
        return written(record, stored.state, old, stored.finished_at)
    if not _codec.extends(old, new):
        raise StaleGame(f"game {state.id} was changed by another writer; reload it")
    finished_at = stored.finished_at
    if finished_at is None and state.outcome is not None:
        finished_at = now if now is not None else _codec.finished_moment(state, record.created_at)
    row = _codec.record_row(record, state_json, finished_at)
    del row["id"]
    await conn.execute(games.update().where(games.c.id == state.id).values(**row))
    for seat_row in _codec.player_rows(
        state, guild_id=record.guild_id, created_at=record.created_at
    ):
        await conn.execute(
            game_players.update()
            .where(game_players.c.game_id == state.id, game_players.c.seat == seat_row["seat"])
            .values(**seat_row)
        )
    await write_rounds(conn, state, old)
    return written(record, state_json, new, finished_at, cuts)


async def save_game(
    write: Writer, known: Known, record: GameRecord, now: float | None,
    lane: SqliteLane | PgSteps | None = None,
) -> None:  # fmt: skip
    """`GameStore.save_game`: the shortcut (`_advance`) if it can, else the full way, in one
    transaction; on a SQLite file the shortcut is one trip to SQLite's thread (`_lane`), on
    PostgreSQL one statement (`_pg_steps`), and a game it never wrote is first tried as a
    new one in the lane (`_first`).
    A key conflict (a rival's new game with this id) is retried once; then it is
    StaleGame."""
    game_id = record.state.id
    if (
        isinstance(lane, SqliteLane)
        and not known.knows(game_id)
        and await _first_save(lane, known, record, now)
    ):
        return
    for attempt in range(2):
        try:
            step = known.plan(record, now) if lane is not None else None
            if step is not None and lane is not None and await lane.apply(step.ops):
                known.keep(game_id, step.written)
                return
            async with write() as conn:
                stored = None if lane is not None else await known.advance(conn, record, now)
                stored = stored or await save(conn, record, now)
            known.keep(game_id, stored)
            return
        except BaseException as exc:
            known.forget(game_id)  # what landed is unknown: the next save reads it back
            if not isinstance(exc, IntegrityError):
                raise
            if attempt:
                raise StaleGame(f"game {game_id} conflicts with a stored one") from exc


async def _first_save(
    lane: SqliteLane, known: Known, record: GameRecord, now: float | None
) -> bool:
    """A game this Store never wrote, inserted in the lane; False: nothing was written
    (the game is stored already, or only the full way may insert it), take the full way."""
    step = first_step(record, now)
    if step is None:
        return False
    try:
        if not await lane.apply(step.ops):
            return False
    except IntegrityError:
        return False  # its row is there (a restart, another process): the full way decides
    known.keep(record.state.id, step.written)
    return True


def _same_writer(game_id: str, stored_meta: str, meta: GameMeta) -> None:
    """The same state saved again is a retry of this writer's own save, or another
    process that computed the same step (two processes holding one game): that one is
    stale, or both would announce it. Saves that name no writer are always retries."""
    stored = json.loads(stored_meta).get("writer")
    if stored and meta.writer and stored != meta.writer:
        raise StaleGame(f"game {game_id}: this step was written by another process")


async def _insert_new(
    conn: AsyncConnection, record: GameRecord, state_json: str, now: float | None
) -> float | None:
    state = record.state
    seen = record.created_at
    if state.mode is Mode.QUALIFICATION and record.period is not None:
        await _check_attempts(conn, record)
    await conn.execute(
        dialect_insert(conn, servers_t)
        .values(guild_id=record.guild_id, first_seen=seen)
        .on_conflict_do_nothing()
    )
    await conn.execute(
        dialect_insert(conn, players_t)
        .values([{"id": p, "first_seen": seen} for p in state.players])
        .on_conflict_do_nothing()
    )
    finished_at = None
    if state.outcome is not None:
        finished_at = now if now is not None else _codec.finished_moment(state, seen)
    await conn.execute(games.insert().values(**_codec.record_row(record, state_json, finished_at)))
    await conn.execute(
        game_players.insert(),
        _codec.player_rows(state, guild_id=record.guild_id, created_at=record.created_at),
    )
    await write_rounds(conn, state, None)
    return finished_at


async def _check_attempts(conn: AsyncConnection, record: GameRecord) -> None:
    """Count earlier attempts under a lock: SQLite's writer lock, or an advisory one."""
    state, period = record.state, record.period
    assert period is not None
    if conn.dialect.name == "postgresql":
        key = f"attempts/{record.guild_id}/{state.game_set.name}/{period}/{state.players[0]}"
        await conn.execute(sa.select(sa.func.pg_advisory_xact_lock(sa.func.hashtext(key))))
    used = await count_attempts(
        conn, record.guild_id, state.players[0], state.game_set.name, period,
        version=state.game_set.version,
    )  # fmt: skip
    if used >= state.game_set.attempts:
        raise AttemptsUsed(
            f"{state.players[0]} has used {used} of {state.game_set.attempts} "
            f"attempt(s) at {state.game_set.name} in {period}"
        )


async def load(conn: AsyncConnection, game_id: str) -> GameRecord | None:
    row = (
        await conn.execute(sa.select(*RECORD_COLUMNS).where(games.c.id == game_id))
    ).one_or_none()
    return None if row is None else record_from_row(row)


async def active(conn: AsyncConnection) -> list[GameRecord]:
    result = await conn.execute(
        sa.select(*RECORD_COLUMNS)
        .where(games.c.status == "active")
        .order_by(games.c.created_at, games.c.id)
    )
    return [record_from_row(row) for row in result]


async def active_of(conn: AsyncConnection, guild_id: int, user_id: int) -> GameRecord | None:
    row = (
        await conn.execute(
            sa.select(*RECORD_COLUMNS)
            .join(game_players, game_players.c.game_id == games.c.id)
            .where(
                game_players.c.guild_id == guild_id,
                game_players.c.player == str(user_id),
                game_players.c.status == "active",
            )
            .order_by(games.c.created_at.desc())
            .limit(1)
        )
    ).first()
    return None if row is None else record_from_row(row)


async def attempt_counts(
    conn: AsyncConnection, guild_id: int, user_id: int | str, set_name: str, period: str,
    *, version: str | None = None,
) -> tuple[int, int]:  # fmt: skip
    """(attempts used, Qualifications started) in the period, in one query; with `version`,
    only that version's (an edited Set's numbers make a new Qualification, with attempts of
    its own). A void game uses no attempt (RULES.md) but was started (its Digits were seen)."""
    conditions = [
        games.c.guild_id == guild_id,
        games.c.mode == "qualification",
        games.c.set_name == set_name,
        games.c.period == period,
        games.c.player == str(user_id),
    ]
    if version is not None:
        conditions.append(games.c.set_version == version)
    used = sa.func.coalesce(sa.func.sum(sa.case((games.c.status != "void", 1), else_=0)), 0)
    row = (
        await conn.execute(sa.select(used, sa.func.count()).select_from(games).where(*conditions))
    ).one()
    return int(row[0]), int(row[1])


async def count_attempts(
    conn: AsyncConnection, guild_id: int, user_id: int | str, set_name: str, period: str,
    *, version: str | None = None,
) -> int:  # fmt: skip
    """Attempts used in the period (void games use none)."""
    used, _started = await attempt_counts(
        conn, guild_id, user_id, set_name, period, version=version
    )
    return used


async def recent_starts(
    conn: AsyncConnection, guild_id: int, user_id: int, since: float
) -> list[float]:
    """When the player's games on the server started, from `since` on, newest first.

    One game its mode lets go (`Mode.quick_resign_is_free`: resigned in its first round,
    no answer of the player's) is left out: a change of mind costs nothing. Only one:
    a loop of starts and quick resigns still makes a thread (or a message) a start,
    and the limit is what keeps such a loop from the server's channel."""
    answered = sa.exists().where(
        answers_t.c.game_id == games.c.id, answers_t.c.player == str(user_id)
    )
    quick_resign = sa.and_(
        games.c.mode.in_([mode.value for mode in Mode if mode.quick_resign_is_free]),
        sa.func.coalesce(games.c.termination, "") == "resign",
        games.c.rounds_played <= 1,
        ~answered,
    )
    result = await conn.execute(
        sa.select(game_players.c.created_at, quick_resign.label("quick"))
        .join(games, games.c.id == game_players.c.game_id)
        .where(
            game_players.c.guild_id == guild_id,
            game_players.c.player == str(user_id),
            game_players.c.created_at >= since,
        )
        .order_by(game_players.c.created_at.desc())
    )
    starts, forgiven = [], False
    for row in result:
        if row.quick and not forgiven:
            forgiven = True
            continue
        starts.append(float(row.created_at))
    return starts


async def overdue(conn: AsyncConnection, before: float) -> list[GameRecord]:
    """Active games whose open round's deadline is before `before` (a sweep's catch)."""
    late = (
        sa.select(rounds_t.c.game_id)
        .where(rounds_t.c.resolved.is_(False), rounds_t.c.deadline < before)
        .scalar_subquery()
    )
    result = await conn.execute(
        sa.select(*RECORD_COLUMNS)
        .where(games.c.status == "active", games.c.id.in_(late))
        .order_by(games.c.created_at, games.c.id)
    )
    return [record_from_row(row) for row in result]


async def history(
    conn: AsyncConnection, guild_id: int, user_id: int, limit: int, offset: int
) -> list[GameRecord]:
    result = await conn.execute(
        sa.select(*RECORD_COLUMNS)
        .join(game_players, game_players.c.game_id == games.c.id)
        .where(game_players.c.guild_id == guild_id, game_players.c.player == str(user_id))
        .order_by(game_players.c.created_at.desc(), games.c.id.desc())
        .limit(limit)
        .offset(offset)
    )
    return [record_from_row(row) for row in result]


async def history_count(conn: AsyncConnection, guild_id: int, user_id: int) -> int:
    count = await conn.scalar(
        sa.select(sa.func.count())
        .select_from(game_players)
        .where(game_players.c.guild_id == guild_id, game_players.c.player == str(user_id))
    )
    return int(count or 0)


async def find(conn: AsyncConnection, guild_id: int, id_or_prefix: str) -> GameRecord | None:
    """A game of this server by its id or an unambiguous prefix (summaries show 8 characters)."""
    key = id_or_prefix.strip()
    if not key:
        return None
    rows = (
        await conn.execute(
            sa.select(games.c.id, *RECORD_COLUMNS)
            .where(games.c.guild_id == guild_id, games.c.id.startswith(key, autoescape=True))
            .order_by(games.c.id)
            .limit(2)
        )
    ).all()
    exact = [row for row in rows if row.id == key]
    if exact:
        return record_from_row(exact[0])
    return record_from_row(rows[0]) if len(rows) == 1 else None


async def finished_since(conn: AsyncConnection, since: float) -> list[FinishedThread]:
    """The threads of the games that finished after `since`, to archive after a restart.
    A private game has none: its channel is the server's own, never to be archived."""
    result = await conn.execute(
        sa.select(games.c.guild_id, games.c.channel_id, games.c.finished_at, games.c.meta)
        .where(games.c.finished_at > since)
        .order_by(games.c.finished_at)
    )
    return [
        FinishedThread(row.guild_id, row.channel_id, row.finished_at)
        for row in result
        if not json.loads(row.meta).get("private")
    ]
