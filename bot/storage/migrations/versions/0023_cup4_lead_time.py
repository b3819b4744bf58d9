"""A Cup's announcement lead time: `cups.lead_s`

Revision ID: 0023
Revises: 0022
Create Date: 2026-12-07

A Cup was announced (and its check-ins opened) a fixed hour before its start; admins
now choose that time per Cup (`/cup create`, `/cup edit`). Cups set up before keep the
hour they were promised: the column's default.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0023"
down_revision: str | None = "0022"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("cups") as batch:
        batch.add_column(sa.Column("lead_s", sa.Float(), nullable=False, server_default="3600"))


def downgrade() -> None:
    with op.batch_alter_table("cups") as batch:
        batch.drop_column("lead_s")
