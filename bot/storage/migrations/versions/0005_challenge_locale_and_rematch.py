"""A challenge keeps its language; a duel has at most one rematch (a unique key);
bot_state keeps small facts of the installation (the synced command tree's hash)

Revision ID: 0005
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("challenges", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("locale", sa.String(length=16), nullable=False, server_default="en")
        )
        batch_op.add_column(sa.Column("rematch_of", sa.String(length=64), nullable=True))
        batch_op.create_index("uq_challenges_rematch_of", ["rematch_of"], unique=True)
    op.create_table(
        "bot_state",
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )


def downgrade() -> None:
    op.drop_table("bot_state")
    with op.batch_alter_table("challenges", schema=None) as batch_op:
        batch_op.drop_index("uq_challenges_rematch_of")
        batch_op.drop_column("rematch_of")
        batch_op.drop_column("locale")
