"""Where a server's solo games are played: `server_config.solo_games`

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-02

`/config games` lets a server choose private messages or a thread per game for
Training, Qualification and Practice (issue 20: private games cost no bot-token call).
Existing servers read as None: the bot's own `SOLO_GAMES`.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("server_config", schema=None) as batch_op:
        batch_op.add_column(sa.Column("solo_games", sa.String(length=8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("server_config", schema=None) as batch_op:
        batch_op.drop_column("solo_games")
