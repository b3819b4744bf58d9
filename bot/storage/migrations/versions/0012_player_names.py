"""Players' display names per server, for the web pages

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-02

The bot has no members intent and `formula-darts web` no Discord at all, so the pages
named most players "Player …1234". The bot now keeps the display name it last saw in
each player's interaction (issue 22). A new table: nothing to carry over.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "player_names",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("user_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("seen_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "user_id"),
    )


def downgrade() -> None:
    op.drop_table("player_names")
