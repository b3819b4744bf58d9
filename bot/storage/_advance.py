"""The common save made cheap: a game this Store wrote last, advanced by a step or two.

Nearly every save advances an active game that this process saved a moment ago, so
its stored state is known without reading it back. The game row is then updated
only where it still holds exactly that state (a compare-and-set on the state text,
atomic on SQLite and PostgreSQL alike), and only what changed is written, with
statements built once (SQLAlchemy's compiled cache does the rest). Whatever this
path cannot decide alone -- a game it never wrote, another writer's state found in
the row, a state that does not extend the known one -- goes the full way
(`_games.save`: read and lock the row, then decide), so exactly-once holds as before:
the answers' primary key and the stale-write check are untouched.

The step is worked out first in pure Python (`Known.plan`: the statements and their
values), so on a SQLite file it can be written in one go (`_lane`); elsewhere each
statement goes inside the caller's transaction (`Known.advance`).

What is known is only a shortcut: losing it costs one full save, never a wrong one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage import _changes, _codec, _state_text
from bot.storage._changes import Op, round_ops
from bot.storage._direct import direct
from bot.storage._models import Game, GamePlayer, table
from bot.storage._records import GameRecord
from bot.storage._state_text import Cuts, Leaves
from rules import GameState

MUTABLE = (
    "channel_id", "status", "termination", "winner", "rounds_played", "perfect", "final_score",
    "rank_class", "rank_value", "answer_time", "version", "state", "meta", "finished_at",
)  # fmt: skip
"""The `games` columns a step can change; the rest are fixed when the game is created."""
STILL_GOING = ("channel_id", "rounds_played", "final_score", "version", "state", "meta")
"""Of those, the ones a step of a game still going on can change (`_codec.going_on_row`)."""
SEAT_MUTABLE = _codec.SEAT_TOTALS


@dataclass(frozen=True, slots=True)
class Written:
    """A game as this Store last committed it: enough to write the next step alone.

    Kept for every running game, so it is compact (issue 28, memory per game): the state
    as its stored text alone, which the compare-and-set needs as it is (its dict, three
    times the text's size, is read back from it on the step that needs it), and of each
    seat only the columns a step can change (`SEAT_MUTABLE`)."""

    state_json: str
    created_at: float
    finished_at: float | None
    seats: tuple[tuple[Any, ...], ...]
    over: bool
    """The state has an outcome: a finished game is not kept."""
    cuts: Cuts | None = None
    """Where the parts of `state_json` lie (a few ints), so the next step parses back only
    the round it changed (`_changes`); None: unknown, the next step parses it whole."""
    leaves: Leaves | None = None
    """What each round's part was made from (references to the state's own values, which
    the live game holds anyway), so the next step dumps only the rounds it changed
    (`_state_text.state_parts`); None: it dumps them all."""


def written(
    record: GameRecord, state_json: str, state: dict[str, Any], finished_at: float | None,
    cuts: Cuts | None = None,
) -> Written:  # fmt: skip
    """What a full save left in the store (its seat rows are the state's, as written)."""
    seats = _codec.seat_totals(record.state)
    over = state["outcome"] is not None
    return Written(state_json, record.created_at, finished_at, seats, over, cuts)


_games, _seats = table(Game), table(GamePlayer)
STEP = (
    _games.update()
    .where(_games.c.id == sa.bindparam("b_id"), _games.c.state == sa.bindparam("b_old"))
    .values({name: sa.bindparam(name) for name in MUTABLE})
)
"""The game row's step, only where the row still holds the known state (compare-and-set)."""
GOING_ON = (
    _games.update()
    .where(_games.c.id == sa.bindparam("b_id"), _games.c.state == sa.bindparam("b_old"))
    .values({name: sa.bindparam(name) for name in STILL_GOING})
)
"""`STEP` of a game that was going on and still is: the known row holds the values of
the other columns already (an active game's status, no result, no ranking, no end), so
they and the indexes over them are left alone."""
SEAT = (
    _seats.update()
    .where(_seats.c.game_id == sa.bindparam("b_game"), _seats.c.seat == sa.bindparam("b_seat"))
    .values({name: sa.bindparam(name) for name in SEAT_MUTABLE})
)

RESOLVE, REPLAY = _changes.RESOLVE, _changes.REPLAY
NEW_ROUNDS, NEW_ANSWERS = _changes.NEW_ROUNDS, _changes.NEW_ANSWERS
"""The rounds' statements (`_changes`), as `_pg_steps` knows them."""


@dataclass(frozen=True, slots=True)
class Step:
    """A save worked out in advance: `ops` (the compare-and-set on the game row first),
    and what is stored once they commit."""

    ops: list[Op]
    written: Written


class Known:
    """The last committed form of this process's active games (finished ones are let go)."""

    def __init__(self) -> None:
        self._games: dict[str, Written] = {}

    def keep(self, game_id: str, value: Written) -> None:
        if value.over:
            self._games.pop(game_id, None)
        else:
            self._games[game_id] = value

    def knows(self, game_id: str) -> bool:
        return game_id in self._games

    def forget(self, game_id: str) -> None:
        self._games.pop(game_id, None)

    def plan(self, record: GameRecord, now: float | None) -> Step | None:
        """`record` as the next step of the known state, not yet written; None: the full
        way. Pure Python, so the statements can go to the database all in one go."""
        state = record.state
        known = self._games.get(state.id)
        if known is None:
            return None
        last = None
        if known.cuts is not None and known.leaves is not None:
            last = (known.state_json, known.cuts, known.leaves)
        state_json, cuts, leaves = _state_text.state_parts(state, last)
        rounds: list[Op] = []
        same = state_json == known.state_json
        if not same:
            changes = _changes.since(known.state_json, known.cuts, state, state_json, cuts)
            if changes is None:
                return None
            same, rounds = changes
            if same:  # an equal state of another text: the stored text's rounds are not
                leaves = None  # made from these values
        if same:  # the stored text stays, and where its parts lie
            state_json, cuts = known.state_json, known.cuts
        finished_at = known.finished_at
        over = state.outcome is not None
        if finished_at is None and over:
            finished_at = _codec.finished_moment(state, known.created_at) if now is None else now
        statement = STEP
        if state.outcome is None and finished_at is None:  # the known state is going on too
            statement = GOING_ON
            row = _codec.going_on_row(
                state, channel_id=record.channel_id, meta=record.meta, state_json=state_json
            )
        else:
            row = _game_values(record, state_json, finished_at)
        row.update(b_id=state.id, b_old=known.state_json)
        ops: list[Op] = [(statement, row)]
        created_at = known.created_at  # the stored start, not the caller's
        if same:
            return Step(
                ops, Written(state_json, created_at, finished_at, known.seats, over, cuts, leaves)
            )
        seats = _codec.seat_totals(state)
        changed = [
            {"b_game": state.id, "b_seat": seat, **dict(zip(SEAT_MUTABLE, values, strict=True))}
            for seat, (values, before) in enumerate(zip(seats, known.seats, strict=True))
            if values != before
        ]
        if changed:
            ops.append((SEAT, changed))
        ops += rounds
        return Step(ops, Written(state_json, created_at, finished_at, seats, over, cuts, leaves))

    async def advance(
        self, conn: AsyncConnection, record: GameRecord, now: float | None
    ) -> Written | None:
        """Write `record` as the next step of the known state; None: take the full way."""
        step = self.plan(record, now)
        if step is None:
            return None
        (first, row), *rest = step.ops
        if await direct.run(conn, first, row) != 1:
            return None  # another writer's state is stored: the full way decides
        for statement, params in rest:
            await direct.run(conn, statement, params)
        return step.written


async def write_rounds(conn: AsyncConnection, state: GameState, old: dict[str, Any] | None) -> None:
    """`round_ops`, written inside the caller's transaction."""
    for statement, rows in round_ops(state, old):
        await direct.run(conn, statement, rows)


def _game_values(record: GameRecord, state_json: str, finished_at: float | None) -> _codec.Row:
    return _codec.step_row(
        record.state, channel_id=record.channel_id, meta=record.meta,
        finished_at=finished_at, state_json=state_json,
    )  # fmt: skip
