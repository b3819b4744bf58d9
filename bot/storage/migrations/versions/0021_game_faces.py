"""Game faces: `games.face`, the face a game was started from

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-07

Each game is announced by the face it was started from (issue 30): Discord, the
terminal, the web. A game stored before this revision was started in Discord, so the
column's default says so and every old row reads as it always did.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0021"
down_revision: str | None = "0020"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(
            sa.Column("face", sa.String(length=16), nullable=False, server_default="discord")
        )


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("face")
