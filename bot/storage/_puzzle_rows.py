"""The puzzles' tables (`Store.puzzles`, `_puzzles`): the pool (`puzzles`), the Sets it
is kept for (`puzzle_sets`), runs (`puzzle_runs`), their answers (`puzzle_answers`) and
each server's daily puzzle (`puzzle_days`), with the answer's prebuilt statements."""

from __future__ import annotations

from enum import StrEnum

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from bot.storage._models import NAME, table


class PuzzleKind(StrEnum):
    STORM = "storm"
    STREAK = "streak"
    DAILY = "daily"


class PuzzleRow(SQLModel, table=True):
    __tablename__ = "puzzles"
    __table_args__ = (sa.Index("ix_puzzles_set", "set_name", "set_version", "id"),)

    id: int | None = Field(default=None, primary_key=True, sa_type=sa.Integer)
    set_name: str = Field(sa_type=sa.String(NAME))
    set_version: str = Field(sa_type=sa.String(16))
    digits: str = Field(sa_type=sa.String(4))
    score: str = Field(sa_type=sa.String(40))
    best_formula: str = Field(sa_type=sa.Text)
    best_result: str = Field(sa_type=sa.String(40))
    best_score: str = Field(sa_type=sa.String(40))
    created_at: float = Field(sa_type=sa.Float)


class PuzzleSetRow(SQLModel, table=True):
    """A Set the pool is kept for, with its snapshot (a server's own Set is added on its
    first puzzle)."""

    __tablename__ = "puzzle_sets"

    set_name: str = Field(primary_key=True, sa_type=sa.String(NAME))
    set_version: str = Field(primary_key=True, sa_type=sa.String(16))
    game_set: str = Field(sa_type=sa.Text)
    wanted_at: float = Field(sa_type=sa.Float)


class PuzzleRunRow(SQLModel, table=True):
    __tablename__ = "puzzle_runs"
    __table_args__ = (
        sa.Index("ix_puzzle_runs_board", "guild_id", "kind", "started_at"),
        sa.Index("ix_puzzle_runs_open", "finished_at", "ends_at"),  # the sweep's `expired`
    )

    id: str = Field(primary_key=True, sa_type=sa.String(NAME))
    guild_id: int = Field(sa_type=sa.BigInteger)
    user_id: int = Field(sa_type=sa.BigInteger)
    kind: str = Field(sa_type=sa.String(16))
    game_set: str = Field(sa_type=sa.Text)
    locale: str = Field(sa_type=sa.String(16))
    period: str | None = Field(default=None, sa_type=sa.String(16), nullable=True)
    started_at: float = Field(sa_type=sa.Float)
    ends_at: float | None = Field(default=None, sa_type=sa.Float, nullable=True)
    """A Storm's end; a Streak's or daily puzzle's current deadline."""
    puzzle_id: int | None = Field(default=None, sa_type=sa.Integer, nullable=True)
    shown_at: float | None = Field(default=None, sa_type=sa.Float, nullable=True)
    total: float = Field(sa_type=sa.Float)
    solved: int = Field(sa_type=sa.Integer)
    answered: int = Field(sa_type=sa.Integer)
    finished_at: float | None = Field(default=None, sa_type=sa.Float, nullable=True)


class PuzzleAnswerRow(SQLModel, table=True):
    __tablename__ = "puzzle_answers"

    run_id: str = Field(primary_key=True, sa_type=sa.String(NAME))
    seq: int = Field(
        primary_key=True, sa_type=sa.Integer, sa_column_kwargs={"autoincrement": False}
    )
    puzzle_id: int = Field(sa_type=sa.Integer)
    formula: str | None = Field(default=None, sa_type=sa.Text, nullable=True)
    """None: skipped, or out of time."""
    score: str | None = Field(default=None, sa_type=sa.String(40), nullable=True)
    grade: float = Field(sa_type=sa.Float)
    seconds: float = Field(sa_type=sa.Float)


class PuzzleDayRow(SQLModel, table=True):
    """The server's daily puzzle: chosen once, the same for everyone there."""

    __tablename__ = "puzzle_days"

    guild_id: int = Field(
        primary_key=True, sa_type=sa.BigInteger, sa_column_kwargs={"autoincrement": False}
    )
    period: str = Field(primary_key=True, sa_type=sa.String(16))
    puzzle_id: int = Field(sa_type=sa.Integer)


puzzles_t = table(PuzzleRow)
sets_t = table(PuzzleSetRow)
runs_t = table(PuzzleRunRow)
answers_t = table(PuzzleAnswerRow)
days_t = table(PuzzleDayRow)

ANSWER_ONCE = sa.insert(answers_t).prefix_with("OR IGNORE")
"""An answer's row unless its (run, seq) is there: on a SQLite file, through the games'
one-trip lane (`_lane`), whose first statement must write one row or nothing happens."""
RUN_MOVES_ON = (
    runs_t.update()
    .where(runs_t.c.id == sa.bindparam("run"))
    .values(
        total=runs_t.c.total + sa.bindparam("add_total"),
        solved=runs_t.c.solved + sa.bindparam("add_solved"),
        answered=sa.bindparam("new_answered"),
        puzzle_id=sa.bindparam("new_puzzle"),
        shown_at=sa.bindparam("new_shown"),
        ends_at=sa.bindparam("new_ends"),
        finished_at=sa.bindparam("new_finished"),
    )
)
"""The run's totals and next puzzle after an answer, in the answer's transaction."""
