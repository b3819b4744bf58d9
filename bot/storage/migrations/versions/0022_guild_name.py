"""A server's name: `server_config.guild_name`; a player's Elo over time: an index

Revision ID: 0022
Revises: 0021
Create Date: 2026-12-07

The web pages name the server they show (titles, OpenGraph), and `formula-darts web` runs
without Discord: the bot keeps the name Discord gives (on join, on a rename, and when the
server becomes available after a start). NULL until the bot has seen it.
`ix_rating_events_player`: a player page's Elo history reads one player's rated duels
on a server, newest first, without scanning every server's.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0022"
down_revision: str | None = "0021"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("server_config") as batch:
        batch.add_column(sa.Column("guild_name", sa.String(length=100), nullable=True))
    op.create_index(
        "ix_rating_events_player", "rating_events", ["guild_id", "user_id", "created_at"]
    )


def downgrade() -> None:
    op.drop_index("ix_rating_events_player", table_name="rating_events")
    with op.batch_alter_table("server_config") as batch:
        batch.drop_column("guild_name")
