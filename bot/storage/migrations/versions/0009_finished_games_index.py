"""Index games by finished_at: the threads to archive after a restart

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-01

`Store.finished_since` runs at every start (`ThreadCloser` re-arms the archiving of
games that ended in the last 15 minutes): without an index it read the whole games
table; with it, the few rows past the moment.
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.create_index("ix_games_finished_at", ["finished_at"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index("ix_games_finished_at")
