"""Qualification index covers the board's window (created_at, id)

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_OLD = [
    "guild_id",
    "mode",
    "set_name",
    "period",
    "player",
    "rank_class",
    "rank_value",
    "answer_time",
]


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index("ix_games_qualification")
        batch_op.create_index("ix_games_qualification", [*_OLD, "created_at", "id"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index("ix_games_qualification")
        batch_op.create_index("ix_games_qualification", _OLD, unique=False)
