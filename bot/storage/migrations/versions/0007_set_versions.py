"""Games keep the version of their Set (its numbers and functions), for attempts and boards

Existing games get the version of the Set they were played with, read from their own
`set_snapshot` (exact, and needs neither sets.yaml nor a Set still existing); a
snapshot that does not read back as a Set gets "", which boards treat as a version
of its own. The Qualification index gains the column after the Set's name.

It computes with the live `GameSet.version` on purpose: stored versions must equal what
the code computes for the same Set, or a board would split one Set's games in two. A
later change to `version` therefore needs a migration that recomputes the column.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

import rules

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_TAIL = ["period", "player", "rank_class", "rank_value", "answer_time", "created_at", "id"]
_HEAD = ["guild_id", "mode", "set_name"]
UNKNOWN = ""


def version_of(snapshot: str) -> str:
    """The version of a stored Set snapshot; UNKNOWN when it is not a readable Set."""
    try:
        return rules.GameSet.from_dict(json.loads(snapshot)).version
    except (ValueError, TypeError, KeyError, AttributeError):
        return UNKNOWN


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("set_version", sa.String(length=16), nullable=False, server_default="")
        )
    games = sa.table("games", sa.column("set_snapshot", sa.Text), sa.column("set_version"))
    bind = op.get_bind()
    snapshots = bind.execute(sa.select(games.c.set_snapshot).distinct()).scalars().all()
    for snapshot in snapshots:  # one UPDATE per distinct Set, not per game
        version = version_of(snapshot)
        if version != UNKNOWN:
            bind.execute(
                games.update().where(games.c.set_snapshot == snapshot).values(set_version=version)
            )
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index("ix_games_qualification")
        batch_op.create_index("ix_games_qualification", [*_HEAD, "set_version", *_TAIL])


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index("ix_games_qualification")
        batch_op.create_index("ix_games_qualification", [*_HEAD, *_TAIL])
        batch_op.drop_column("set_version")
