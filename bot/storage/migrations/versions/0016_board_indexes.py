"""Index each player's best game and each player's periods: the uncached board's queries

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-07

On 100,000 games the web board's window sorted every Qualification game of the Set
(`ix_games_qualification` holds the period between the version and the player), and
the board's streaks read the Set's whole range to find ten players. `ix_games_board`
holds a version's games by player in RULES.md's order, so the window reads them in
order with no sort; `ix_games_streaks` holds a Set's games by player and period. Both
are covering: the board and the streaks read no table row. Neither starts with
(guild_id, mode), so the queries over a server's or a Set's whole range (the Sets
played, their versions, the latest game) keep `ix_games_qualification`, whose
DISTINCT skips ahead (with `ix_games_board` first, the Sets' list read every entry).
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BOARD = [
    "guild_id", "set_name", "set_version", "mode", "player", "rank_class", "rank_value",
    "answer_time", "created_at", "id", "period",
]  # fmt: skip
STREAKS = ["guild_id", "player", "mode", "set_name", "period", "rank_class", "status"]


def upgrade() -> None:
    op.create_index("ix_games_board", "games", BOARD, unique=False)
    op.create_index("ix_games_streaks", "games", STREAKS, unique=False)


def downgrade() -> None:
    op.drop_index("ix_games_streaks", table_name="games")
    op.drop_index("ix_games_board", table_name="games")
