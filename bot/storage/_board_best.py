"""Each player's best Qualification game of a Set's version: the all-time board's rows.

The all-time board ranked every game of the version with a window to find each
player's best (on 100,000 games ~16,700 index entries read and numbered per page);
`board_best` holds that best game already, one row per (server, Set, version, player),
so the board reads one row per player. It is written by the database itself: triggers
on `games` (migration 0024) recompute a player's row whenever one of their
Qualification games is inserted, deleted, or changes a ranking column (a save, a void,
an unvoid), in the same transaction as that write, so it is never behind the games
and no code path (the bot's save, moderation, a bulk load) can forget it. A row is the
first of the player's ranked games (rank_class 0 or 1) in RULES.md's order
(`RANK_ORDER`, then the id), exactly the window's `row_number() = 1`; a player with no
ranked game has none. Barred players are filtered when read, as on the window board.
Boards over a period range or over every version still read `games`.
"""

from __future__ import annotations

import sqlalchemy as sa

from bot.storage._models import NAME, metadata

RANK_INDEX = (
    "guild_id", "set_name", "set_version", "rank_class", "rank_value", "answer_time",
    "created_at", "game_id", "player",
)  # fmt: skip
"""A version's rows in RULES.md's order (then the game's id): the board reads its page
in this order with no sort, the player (for the barred filter) in the entry."""

board_best = sa.Table(
    "board_best",
    metadata,
    sa.Column("guild_id", sa.BigInteger, primary_key=True, autoincrement=False),
    sa.Column("set_name", sa.String(NAME), primary_key=True),
    sa.Column("set_version", sa.String(16), primary_key=True),
    sa.Column("player", sa.String(NAME), primary_key=True),
    sa.Column("game_id", sa.String(NAME), nullable=False),
    sa.Column("rank_class", sa.Integer, nullable=False),
    sa.Column("rank_value", sa.Float, nullable=True),
    sa.Column("answer_time", sa.Float, nullable=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Index("ix_board_best_rank", *RANK_INDEX),
)
"""One row per player and Set version: their best ranked game, kept by triggers (0024)."""
