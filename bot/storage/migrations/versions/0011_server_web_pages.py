"""A server's web pages: its page key and whether they are on

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-01

`/config web on` turns on a server's pages (its boards, players, replays), addressed
by a random page key rather than the server's snowflake, so no one enumerates other
servers (issue 22). Existing servers read as "off, no key yet".
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("server_config", schema=None) as batch_op:
        batch_op.add_column(sa.Column("web_key", sa.String(length=32), nullable=True))
        batch_op.add_column(
            sa.Column("web_on", sa.Boolean(), server_default=sa.false(), nullable=False)
        )
        batch_op.create_index(batch_op.f("ix_server_config_web_key"), ["web_key"], unique=True)


def downgrade() -> None:
    with op.batch_alter_table("server_config", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_server_config_web_key"))
        batch_op.drop_column("web_on")
        batch_op.drop_column("web_key")
