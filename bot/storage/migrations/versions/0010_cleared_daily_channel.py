"""Remember a daily-post channel the bot cleared itself, and why

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-01

A channel that answers 403 or 404, or a server the bot left, is taken off `/config`
so nothing is sent there every night; `/config show` tells the admin which channel it
was, why and when (issue 20). Three nullable columns: existing rows read as "nothing
cleared".
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("server_config", schema=None) as batch_op:
        batch_op.add_column(sa.Column("cleared_channel_id", sa.BigInteger(), nullable=True))
        batch_op.add_column(sa.Column("cleared_reason", sa.String(length=16), nullable=True))
        batch_op.add_column(sa.Column("cleared_at", sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("server_config", schema=None) as batch_op:
        batch_op.drop_column("cleared_at")
        batch_op.drop_column("cleared_reason")
        batch_op.drop_column("cleared_channel_id")
