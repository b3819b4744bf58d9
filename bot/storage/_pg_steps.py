"""A game's common save on PostgreSQL as one statement, one round trip.

Through SQLAlchemy a save on PostgreSQL was about ten round trips to the server, each
an event-loop wake-up and a pass through SQLAlchemy and asyncpg: the pool's pre-ping
(BEGIN, `;`, ROLLBACK), BEGIN, one statement per kind of row (the game row, the
seats, new rounds, resolved ones, new answers), COMMIT. That was nearly all of an
answer's CPU on PostgreSQL. Here the step that `_advance` worked out (`Known.plan`)
goes as a single statement on a connection of this module's own, in autocommit:
each kind of row is a data-modifying CTE, and every one but the game row's
compare-and-set reads that one's result (`FROM step`), so if the row no longer holds
the known state nothing at all is written and the save takes the full way, as on
SQLite (`_lane`). One statement is one transaction: an answer's key conflict undoes
the whole step, and the Store retries it the full way, where it is refused.

Values are bound by asyncpg (`$n`, each cast to its column's type); the SQL is built
from this module's table of statements, once per shape (which kinds, how many rows).
"""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg  # type: ignore[import-untyped]
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.storage import _advance as steps
from bot.storage._direct import Params, Statement
from bot.storage._models import AnswerRow, Game, GamePlayer, RoundRow, table

CONNECTIONS = 4
"""Saves in flight at once on this process's own connections (each a server backend)."""

_DIALECT = postgresql.dialect()  # type: ignore[no-untyped-call]
_games, _seats = table(Game), table(GamePlayer)
_rounds, _answers = table(RoundRow), table(AnswerRow)

_Update = tuple[sa.Table, dict[str, str], tuple[str, ...], dict[str, str]]
UPDATES: dict[int, _Update] = {  # the statement: its table, keys (bind: column), set, fixed
    id(steps.STEP): (_games, {"b_id": "id", "b_old": "state"}, steps.MUTABLE, {}),
    id(steps.GOING_ON): (_games, {"b_id": "id", "b_old": "state"}, steps.STILL_GOING, {}),
    id(steps.SEAT): (
        _seats,
        {"b_game": "game_id", "b_seat": "seat"},
        steps.SEAT_MUTABLE,
        {},
    ),
    id(steps.RESOLVE): (_rounds, {"b_game": "game_id", "b_n": "number"}, (), {"resolved": "true"}),
    id(steps.REPLAY): (
        _rounds,
        {"b_game": "game_id", "b_n": "number"},
        ("started_at", "deadline"),
        {},
    ),
}
"""`_advance`'s statements, as this module writes them (a statement not here: not here)."""
INSERTS: dict[int, sa.Table] = {id(steps.NEW_ROUNDS): _rounds, id(steps.NEW_ANSWERS): _answers}


def _cast(tbl: sa.Table, column: str) -> str:
    return str(tbl.c[column].type.compile(dialect=_DIALECT))


Shape = tuple[tuple[int, int, tuple[str, ...]], ...]
"""A step's statements by kind: (the statement's id, its rows, its columns' row keys)."""


def _columns(stmt: Statement, rows: list[Params]) -> list[tuple[str, str]]:
    """The statement's values, as (row key, column): an insert's are its rows' keys."""
    if id(stmt) in INSERTS:
        return [(name, name) for name in rows[0]]
    _, keys, sets, _ = UPDATES[id(stmt)]
    return [*keys.items(), *((name, name) for name in sets)]


def _values(tbl: sa.Table, columns: list[tuple[str, str]], rows: int, first: int) -> str:
    """`(VALUES ($n::T, ...), ...) AS v("key", ...)`, its arguments numbered from `first`."""
    casts = [_cast(tbl, column) for _, column in columns]
    lines, n = [], first
    for _ in range(rows):
        lines.append("(" + ", ".join(f"${n + i}::{cast}" for i, cast in enumerate(casts)) + ")")
        n += len(casts)
    names = ", ".join(f'"{key}"' for key, _ in columns)
    return f"(VALUES {', '.join(lines)}) AS v({names})"


def _text(shape: Shape) -> str:
    """The statement of a step of this shape; the first part is the game row's."""
    parts, first = [], 1
    for index, (key, rows, keys) in enumerate(shape):
        columns = [(k, k) for k in keys]
        gate = "" if index == 0 else ", step"
        if key in INSERTS:
            tbl = INSERTS[key]
            cols = ", ".join(f'"{c}"' for c in keys)
            source = _values(tbl, columns, rows, first)
            body = f"INSERT INTO {tbl.name} ({cols}) SELECT {cols} FROM {source}{gate}"  # noqa: S608
        else:
            tbl, where, sets, fixed = UPDATES[key]
            columns = [*where.items(), *((name, name) for name in sets)]
            source = _values(tbl, columns, rows, first)
            assigned = [f'"{c}" = v."{c}"' for c in sets]
            assigned += [f'"{c}" = {v}' for c, v in fixed.items()]
            match = " AND ".join(f't."{column}" = v."{k}"' for k, column in where.items())
            body = (  # the models' names only; every value is bound ($n)
                f"UPDATE {tbl.name} AS t SET {', '.join(assigned)} FROM {source}{gate} "  # noqa: S608
                f"WHERE {match}"
            )
        first += rows * len(columns)
        name = "step" if index == 0 else f"s{index}"
        parts.append(f"{name} AS ({body}{' RETURNING 1' if index == 0 else ''})")
    return f"WITH {', '.join(parts)} SELECT count(*) FROM step"  # noqa: S608


_texts: dict[Shape, str] = {}


def statement(ops: list[tuple[Statement, Params | list[Params]]]) -> tuple[str, list[Any]]:
    """The step's one statement and its arguments; the first op is the game row's."""
    shape, args = [], []
    for stmt, params in ops:
        rows = [params] if isinstance(params, dict) else list(params)
        columns = _columns(stmt, rows)
        shape.append((id(stmt), len(rows), tuple(key for key, _ in columns)))
        args += [row[key] for row in rows for key, _ in columns]
    key = tuple(shape)
    text = _texts.get(key)
    if text is None:
        text = _texts.setdefault(key, _text(key))
    return text, args


class PgSteps:
    """The common save's statement on this process's own connections to PostgreSQL."""

    def __init__(self, dsn: str) -> None:
        self.dsn = dsn
        self._idle: list[Any] = []
        self._room = asyncio.Semaphore(CONNECTIONS)

    @classmethod
    def of(cls, engine: AsyncEngine) -> PgSteps | None:
        """The steps for `engine`'s database, or None where saves stay on SQLAlchemy
        (not PostgreSQL, or connection options in the URL this module would not pass)."""
        url = engine.url
        if engine.dialect.name != "postgresql" or url.query:
            return None
        return cls(url.set(drivername="postgresql").render_as_string(hide_password=False))

    async def apply(self, ops: list[tuple[Statement, Params | list[Params]]]) -> bool:
        """Write the step in one statement; False (nothing written) if the game row no
        longer holds the known state. Errors are SQLAlchemy's kinds, as the Store's
        callers know them; a connection that failed is let go."""
        kinds = {id(stmt) for stmt, _ in ops}
        if id(steps.REPLAY) in kinds and id(steps.RESOLVE) in kinds:
            return False  # one round changed twice in a statement: the full way writes it
        sql, args = statement(ops)
        async with self._room:
            conn = self._idle.pop() if self._idle else await self._connect()
            try:
                written = await conn.fetchval(sql, *args)
            except asyncpg.IntegrityConstraintViolationError as error:  # the Store retries
                self._idle.append(conn)
                raise sa.exc.IntegrityError(sql, None, error) from error
            except BaseException as error:
                conn.terminate()
                if isinstance(error, asyncpg.PostgresError | OSError | asyncpg.InterfaceError):
                    raise sa.exc.OperationalError(sql, None, error) from error
                raise
            self._idle.append(conn)
        return bool(written == 1)

    async def _connect(self) -> Any:
        try:
            return await asyncpg.connect(self.dsn)
        except (OSError, asyncpg.PostgresError) as error:
            raise sa.exc.OperationalError("connect", None, error) from error

    async def close(self) -> None:
        idle, self._idle = self._idle, []
        for conn in idle:
            await conn.close()
