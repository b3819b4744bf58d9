"""A new game's first save on a SQLite file, in one go through the lane (`_lane`).

Through SQLAlchemy a new game's insert is about ten statements (the server and the
players seen, the game row, its seats, its first round), each a few crossings to
aiosqlite's thread and back, and the Store's writer lock is held across all of them.
Measured in the service bench (issue 34) at 300 answers/s on a loaded machine, those
inserts held the lock 60 % of the time (p50 10 ms, p99 195 ms each), and every other
save -- each a sub-millisecond lane transaction -- queued behind them: the answers' p50
went from ~1 ms to ~700 ms. That convoy, not SQLite nor the loop's CPU, was the knee.

So a game this Store has not written goes first as the lane's one transaction, worked
out here in pure Python: the game row's INSERT first (the gate: its primary key refuses
a game already stored -- after a restart, or by another process -- and then nothing is
written and the full way reads the row and decides, exactly as before), then the
server and players seen (kept if already there), the seats and the rounds. What the
full way does that this does not -- count a Qualification's attempts under the lock --
keeps that game on the full way.
"""

from __future__ import annotations

import time
from dataclasses import replace

import sqlalchemy as sa
from sqlalchemy.dialects import sqlite

from bot.storage import _codec, _state_text
from bot.storage._advance import Step, Written
from bot.storage._changes import Op, round_ops
from bot.storage._models import Game, GamePlayer, Player, Server, table
from bot.storage._records import GameRecord
from rules import GameState, Mode

_games, _seats = table(Game), table(GamePlayer)
_servers, _players = table(Server), table(Player)

_ROW = tuple(column.name for column in _games.c if column.name != "face")
NEW_GAME = _games.insert().values({name: sa.bindparam(name) for name in _ROW})
FACED_GAME = _games.insert().values({name: sa.bindparam(name) for name in (*_ROW, "face")})
"""The game row as `_codec.record_row` writes it: with the face only when it is not the
column's default (a store at a revision before 0021 has no such column)."""
SERVER_SEEN = (
    sqlite.insert(_servers)
    .values(guild_id=sa.bindparam("guild_id"), first_seen=sa.bindparam("first_seen"))
    .on_conflict_do_nothing()
)
PLAYER_SEEN = (
    sqlite.insert(_players)
    .values(id=sa.bindparam("id"), first_seen=sa.bindparam("first_seen"))
    .on_conflict_do_nothing()
)
NEW_SEATS = _seats.insert()


def started(state: GameState, now: float | None) -> float:
    """A new record's creation time when the caller gave none: its clock, else the state's."""
    if now is not None:
        return now
    if state.rounds:
        return state.rounds[0].started_at
    return time.time()


def first_step(record: GameRecord, now: float | None) -> Step | None:
    """The insert of a game not yet stored, as `_games.save` would write it; None where
    only the full way may (a Qualification's attempts are counted under the lock)."""
    state = record.state
    if state.mode is Mode.QUALIFICATION and record.period is not None:
        return None
    record = replace(record, created_at=record.created_at or started(state, now))
    seen = record.created_at
    state_json, cuts = _state_text.state_text(state)
    finished_at = None
    if state.outcome is not None:
        finished_at = now if now is not None else _codec.finished_moment(state, seen)
    row = _codec.record_row(record, state_json, finished_at)
    seats = _codec.player_rows(state, guild_id=record.guild_id, created_at=seen)
    ops: list[Op] = [
        (FACED_GAME if "face" in row else NEW_GAME, row),
        (SERVER_SEEN, {"guild_id": record.guild_id, "first_seen": seen}),
        (PLAYER_SEEN, [{"id": player, "first_seen": seen} for player in state.players]),
        (NEW_SEATS, seats),
        *round_ops(state, None),
    ]
    over = state.outcome is not None
    return Step(ops, Written(state_json, seen, finished_at, _codec.seat_totals(state), over, cuts))
