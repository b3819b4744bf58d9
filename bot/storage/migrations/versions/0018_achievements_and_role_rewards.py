"""Achievements and roles as rewards: `achievements`, `role_rewards`, `role_holds`

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-07

Each achievement is earned once per player per server and stored with what earned it
(issue 32); a server's role rewards (`/config roles`) and the stored intents to grant or
take them, so each is done exactly once across restarts (issues 31 and 32).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "achievements",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("achievement", sa.String(length=32), nullable=False),
        sa.Column("source", sa.String(length=16), nullable=False),
        sa.Column("source_id", sa.String(length=64), nullable=False),
        sa.Column("earned_at", sa.Float(), nullable=False),
        sa.Column("void", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "user_id", "achievement"),
    )
    op.create_index("ix_achievements_source", "achievements", ["source", "source_id"], unique=False)
    op.create_table(
        "role_rewards",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("reward", sa.String(length=32), nullable=False),
        sa.Column("role_id", sa.BigInteger(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "reward"),
    )
    op.create_table(
        "role_holds",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("reward", sa.String(length=32), nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("role_id", sa.BigInteger(), nullable=False),
        sa.Column("key", sa.String(length=64), nullable=False),
        sa.Column("want", sa.Boolean(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.Column("done_at", sa.Float(), nullable=True),
        sa.Column("failure", sa.String(length=32), nullable=True),
        sa.PrimaryKeyConstraint("guild_id", "reward", "user_id"),
    )
    op.create_index("ix_role_holds_undone", "role_holds", ["done_at"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_role_holds_undone", table_name="role_holds")
    op.drop_table("role_holds")
    op.drop_table("role_rewards")
    op.drop_index("ix_achievements_source", table_name="achievements")
    op.drop_table("achievements")
