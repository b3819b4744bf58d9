"""Summaries Discord did not take yet, kept for their retries

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-02

A finished game's summary that Discord refused is tried again for an hour; its count
and next time were in memory, so a restart forgot them and the players never learned
how the game ended (issue 20). Nothing to fill: no row means nothing owed.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "untold_summaries",
        sa.Column("game_id", sa.String(length=64), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("tries", sa.Integer(), nullable=False),
        sa.Column("due", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("game_id"),
    )


def downgrade() -> None:
    op.drop_table("untold_summaries")
