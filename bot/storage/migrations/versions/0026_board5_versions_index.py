"""Index a Set's versions by when they were played: the board's version list

Revision ID: 0026
Revises: 0025
Create Date: 2026-12-07

Every uncached web board asks for the Set's versions, latest played first (and the page
numbers them by their first game). Both grouped every Qualification game of the Set to
find each version's latest (or first) `created_at`: on 100,000 games ~16,700 entries of
the wide `ix_games_qualification`, ~4 ms of CPU per board on SQLite. `ix_games_versions`
holds a Set's games by version and time, so the versions are found by DISTINCT's skip
ahead and each one's latest or first game is one seek (`_boards.set_versions`).
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0026"
down_revision: str | None = "0025"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

VERSIONS = ["guild_id", "mode", "set_name", "set_version", "created_at"]


def upgrade() -> None:
    op.create_index("ix_games_versions", "games", VERSIONS, unique=False)


def downgrade() -> None:
    op.drop_index("ix_games_versions", table_name="games")
