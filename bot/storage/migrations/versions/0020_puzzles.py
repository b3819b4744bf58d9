"""Puzzles: the prepared pool, the Sets it is kept for, runs, answers, daily puzzles

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-07

Issue 32: puzzles with their best answer found and confirmed ahead (`puzzles`, per Set
name and version), the Sets the pool is kept for (`puzzle_sets`), Storm, Streak and
daily-puzzle runs (`puzzle_runs`) with one row per answer (`puzzle_answers`), and each
server's daily puzzle (`puzzle_days`). New tables only: nothing stored before changes.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0020"
down_revision: str | None = "0019"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "puzzles",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("set_name", sa.String(length=64), nullable=False),
        sa.Column("set_version", sa.String(length=16), nullable=False),
        sa.Column("digits", sa.String(length=4), nullable=False),
        sa.Column("score", sa.String(length=40), nullable=False),
        sa.Column("best_formula", sa.Text(), nullable=False),
        sa.Column("best_result", sa.String(length=40), nullable=False),
        sa.Column("best_score", sa.String(length=40), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_puzzles_set", "puzzles", ["set_name", "set_version", "id"], unique=False)
    op.create_table(
        "puzzle_sets",
        sa.Column("set_name", sa.String(length=64), nullable=False),
        sa.Column("set_version", sa.String(length=16), nullable=False),
        sa.Column("game_set", sa.Text(), nullable=False),
        sa.Column("wanted_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("set_name", "set_version"),
    )
    op.create_table(
        "puzzle_runs",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("user_id", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("game_set", sa.Text(), nullable=False),
        sa.Column("locale", sa.String(length=16), nullable=False),
        sa.Column("period", sa.String(length=16), nullable=True),
        sa.Column("started_at", sa.Float(), nullable=False),
        sa.Column("ends_at", sa.Float(), nullable=True),
        sa.Column("puzzle_id", sa.Integer(), nullable=True),
        sa.Column("shown_at", sa.Float(), nullable=True),
        sa.Column("total", sa.Float(), nullable=False),
        sa.Column("solved", sa.Integer(), nullable=False),
        sa.Column("answered", sa.Integer(), nullable=False),
        sa.Column("finished_at", sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        "ix_puzzle_runs_board", "puzzle_runs", ["guild_id", "kind", "started_at"], unique=False
    )
    op.create_index("ix_puzzle_runs_open", "puzzle_runs", ["finished_at", "ends_at"], unique=False)
    op.create_table(
        "puzzle_answers",
        sa.Column("run_id", sa.String(length=64), nullable=False),
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("puzzle_id", sa.Integer(), nullable=False),
        sa.Column("formula", sa.Text(), nullable=True),
        sa.Column("score", sa.String(length=40), nullable=True),
        sa.Column("grade", sa.Float(), nullable=False),
        sa.Column("seconds", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("run_id", "seq"),
    )
    op.create_table(
        "puzzle_days",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("period", sa.String(length=16), nullable=False),
        sa.Column("puzzle_id", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "period"),
    )


def downgrade() -> None:
    op.drop_table("puzzle_days")
    op.drop_table("puzzle_answers")
    op.drop_index("ix_puzzle_runs_open", table_name="puzzle_runs")
    op.drop_index("ix_puzzle_runs_board", table_name="puzzle_runs")
    op.drop_table("puzzle_runs")
    op.drop_table("puzzle_sets")
    op.drop_index("ix_puzzles_set", table_name="puzzles")
    op.drop_table("puzzles")
