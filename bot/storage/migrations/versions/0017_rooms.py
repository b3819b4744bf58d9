"""Rooms: `rooms`, a room's state and where it is shown

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-07

A room of 2 to 20 players (issue 30) is stored whole after every change, so a restart
resumes its lobby or its round; `phase` finds the open ones. `room_places`: each player's
place in a room that ended with places, for `/history`.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("id", sa.String(length=64), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("thread_id", sa.BigInteger(), nullable=True),
        sa.Column("lobby_message_id", sa.BigInteger(), nullable=True),
        sa.Column("round_message_id", sa.BigInteger(), nullable=True),
        sa.Column("locale", sa.String(length=16), nullable=False),
        sa.Column("phase", sa.String(length=16), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("state", sa.Text(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_rooms_phase", "rooms", ["phase"], unique=False)
    op.create_table(
        "room_places",
        sa.Column("room_id", sa.String(length=64), nullable=False),
        sa.Column("player", sa.String(length=64), nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("place", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("room_id", "player"),
    )
    op.create_index(
        "ix_room_places_player", "room_places", ["guild_id", "player", "created_at"], unique=False
    )


def downgrade() -> None:
    op.drop_index("ix_room_places_player", table_name="room_places")
    op.drop_table("room_places")
    op.drop_index("ix_rooms_phase", table_name="rooms")
    op.drop_table("rooms")
