"""Cups: `cups`, `cup_entries`, `cup_legs`, `cup_matches`, `cup_posts`

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-07

A Cup (issue 31) is stored with its settings and, from the draw on, its bracket as JSON,
moved from phase to phase under `version` so it is drawn once; `cup_entries` are the
check-ins, `cup_legs` the duel each leg was played as and its result (kept once),
`cup_matches` each match's thread, current leg, who is Ready and its running duel,
`cup_posts` the claims that make each of its announcements once (as `daily_posts` does).
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "cups",
        sa.Column("id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("guild_id", sa.BigInteger(), nullable=False),
        sa.Column("channel_id", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(length=64), nullable=False),
        sa.Column("set_name", sa.String(length=64), nullable=False),
        sa.Column("starts_at", sa.Float(), nullable=False),
        sa.Column("zone", sa.String(length=64), nullable=False),
        sa.Column("repeat", sa.String(length=16), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("legs", sa.Integer(), nullable=False),
        sa.Column("seeding", sa.String(length=16), nullable=False),
        sa.Column("locale", sa.String(length=16), nullable=False),
        sa.Column("phase", sa.String(length=16), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("bracket", sa.Text(), nullable=True),
        sa.Column("champion", sa.String(length=64), nullable=True),
        sa.Column("created_by", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index("ix_cups_phase", "cups", ["phase", "starts_at"], unique=False)
    op.create_index("ix_cups_guild", "cups", ["guild_id", "starts_at"], unique=False)
    op.create_table(
        "cup_entries",
        sa.Column("cup_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("player", sa.String(length=64), nullable=False),
        sa.Column("checked_in_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("cup_id", "player"),
    )
    op.create_table(
        "cup_legs",
        sa.Column("cup_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("slot", sa.Integer(), nullable=False),
        sa.Column("leg", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=64), nullable=False),
        sa.Column("result", sa.String(length=16), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("cup_id", "round", "slot", "leg"),
    )
    op.create_index("ix_cup_legs_game", "cup_legs", ["game_id"], unique=False)
    op.create_table(
        "cup_matches",
        sa.Column("cup_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("slot", sa.Integer(), nullable=False),
        sa.Column("thread_id", sa.BigInteger(), nullable=True),
        sa.Column("leg", sa.Integer(), nullable=False),
        sa.Column("opened_at", sa.Float(), nullable=False),
        sa.Column("ready", sa.String(length=16), nullable=False),
        sa.Column("game_id", sa.String(length=64), nullable=True),
        sa.Column("done", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("cup_id", "round", "slot"),
    )
    op.create_table(
        "cup_posts",
        sa.Column("cup_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("what", sa.String(length=64), nullable=False),
        sa.Column("claimed_by", sa.String(length=64), nullable=False),
        sa.Column("claimed_at", sa.Float(), nullable=False),
        sa.Column("done_at", sa.Float(), nullable=True),
        sa.Column("message_id", sa.BigInteger(), nullable=True),
        sa.PrimaryKeyConstraint("cup_id", "what"),
    )


def downgrade() -> None:
    op.drop_table("cup_posts")
    op.drop_table("cup_matches")
    op.drop_index("ix_cup_legs_game", table_name="cup_legs")
    op.drop_table("cup_legs")
    op.drop_table("cup_entries")
    op.drop_index("ix_cups_guild", table_name="cups")
    op.drop_index("ix_cups_phase", table_name="cups")
    op.drop_table("cups")
