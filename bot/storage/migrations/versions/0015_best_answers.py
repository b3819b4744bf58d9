"""Best answers found after a game, and the games still owed theirs

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-07

A replay solved every view of a game that kept no best answers (a Qualification,
whose rounds are not solved while its day runs, or a round whose solve was late):
16 clients over 16 replays emptied every live reveal (issue 29). Now a background
job finds them once, at the solver's lowest priority, and keeps them here
(`best_answers`); `best_pending` holds the games it still owes (a sealed
Qualification, a failed solve) and when to look again. Games finished before this
revision are reached by the job's backlog cursor (`bot_state`): nothing to fill here.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "best_answers",
        sa.Column("game_id", sa.String(length=64), nullable=False),
        sa.Column("round", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("formula", sa.Text(), nullable=False),
        sa.Column("result", sa.String(length=40), nullable=False),
        sa.Column("points", sa.String(length=40), nullable=False),
        sa.Column("score", sa.String(length=40), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "round", "seat"),
    )
    op.create_table(
        "best_pending",
        sa.Column("game_id", sa.String(length=64), nullable=False),
        sa.Column("finished_at", sa.Float(), nullable=False),
        sa.Column("tries", sa.Integer(), nullable=False),
        sa.Column("due", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("game_id"),
    )
    with op.batch_alter_table("best_pending", schema=None) as batch_op:
        batch_op.create_index("ix_best_pending_due", ["due"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("best_pending", schema=None) as batch_op:
        batch_op.drop_index("ix_best_pending_due")
    op.drop_table("best_pending")
    op.drop_table("best_answers")
