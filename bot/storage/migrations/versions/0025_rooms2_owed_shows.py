"""A room's owed reveals and final table: `rooms.owed`

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-07

A reveal or final table that Discord did not take was logged and lost for the
players; it is now kept with the room (JSON, "[]" when nothing is owed) and tried
again, through restarts, until it lands. Rooms stored before owe nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0025"
down_revision: str | None = "0024"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.add_column(sa.Column("owed", sa.Text(), nullable=False, server_default="[]"))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("owed")
