"""Each player's best game of a Set's version (`board_best`), kept by triggers on `games`

Revision ID: 0024
Revises: 0023
Create Date: 2026-12-07

The uncached all-time board numbered every Qualification game of the version with a
window (on 100,000 games ~16,700 entries per page). `board_best` holds each player's
best ranked game already (see bot/storage/_board_best.py). Triggers keep it, in the
transaction that writes the game: after a Qualification game is inserted, deleted, or
changes a column the ranking reads (a save, a void, an unvoid), the player's row is
recomputed from `games` (delete, then the first ranked game in RULES.md's order).
On PostgreSQL the recomputation first takes a transaction lock on the player's key, so
two transactions writing one player's games recompute one after the other, the second
seeing the first's game. The table is backfilled from the games already stored.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0024"
down_revision: str | None = "0023"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

KEY = ("guild_id", "set_name", "set_version", "player")
RANKED = "mode = 'qualification' AND rank_class IN (0, 1)"
ORDER = "rank_class, rank_value, answer_time, created_at, id"
COLUMNS = "guild_id, set_name, set_version, player, game_id, rank_class, rank_value, " \
    "answer_time, created_at"  # fmt: skip
SOURCE = "guild_id, set_name, set_version, player, id, rank_class, rank_value, " \
    "answer_time, created_at"  # fmt: skip
WATCHED = ("mode", *KEY, "rank_class", "rank_value", "answer_time", "created_at")
"""A change to any of these can change a player's best game."""


def _recompute(values: Sequence[str]) -> str:
    """The statements that rebuild one player's row; `values` name its key (OLD's or
    NEW's columns, or the function's arguments)."""
    match = " AND ".join(f"{k} = {v}" for k, v in zip(KEY, values, strict=True))
    return (  # constant names only: no input reaches this text
        f"DELETE FROM board_best WHERE {match};\n"  # noqa: S608
        f"INSERT INTO board_best ({COLUMNS}) SELECT {SOURCE} FROM games\n"
        f"  WHERE {match} AND {RANKED} ORDER BY {ORDER} LIMIT 1;\n"
    )


def _changed() -> str:
    return " OR ".join(f"OLD.{c} IS NOT NEW.{c}" for c in WATCHED)


def _moved() -> str:
    """The game left its player's row (another key, or no longer a Qualification): that
    row is recomputed too; otherwise NEW's recomputation covers it."""
    return " OR ".join(f"OLD.{c} IS NOT NEW.{c}" for c in ("mode", *KEY))


def _ranked(row: str) -> str:
    """Only a ranked game's insert or delete can change a player's best (a game starts
    unranked: its save at the start recomputes nothing)."""
    return f"{row}.mode = 'qualification' AND {row}.rank_class IN (0, 1)"


OLD = _recompute([f"OLD.{k}" for k in KEY])
NEW = _recompute([f"NEW.{k}" for k in KEY])
SQLITE = [
    "CREATE TRIGGER games_board_best_insert AFTER INSERT ON games "
    f"WHEN {_ranked('NEW')} BEGIN\n{NEW}END",
    "CREATE TRIGGER games_board_best_update AFTER UPDATE ON games "
    "WHEN (OLD.mode = 'qualification' OR NEW.mode = 'qualification') "
    f"AND ({_changed()}) BEGIN\n{NEW}END",
    "CREATE TRIGGER games_board_best_moved AFTER UPDATE ON games "
    f"WHEN OLD.mode = 'qualification' AND ({_moved()}) BEGIN\n{OLD}END",
    "CREATE TRIGGER games_board_best_delete AFTER DELETE ON games "
    f"WHEN {_ranked('OLD')} BEGIN\n{OLD}END",
]

_ARGS = ("g_guild", "g_set", "g_version", "g_player")
POSTGRES = [
    "CREATE FUNCTION board_best_refresh(g_guild bigint, g_set varchar, g_version varchar, "
    "g_player varchar) RETURNS void LANGUAGE plpgsql AS $$ BEGIN\n"
    "PERFORM pg_advisory_xact_lock(hashtextextended("
    "g_guild::text || '/' || g_set || '/' || g_version || '/' || g_player, 23));\n"
    + _recompute(_ARGS)
    + "END $$",
    "CREATE FUNCTION games_board_best() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN\n"
    "IF OLD.mode = 'qualification' AND (TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND ("
    + _moved().replace(" IS NOT ", " IS DISTINCT FROM ")
    + "))) THEN\n"
    "  PERFORM board_best_refresh(OLD.guild_id, OLD.set_name, OLD.set_version, OLD.player);\n"
    "END IF;\n"
    "IF TG_OP IN ('UPDATE', 'INSERT') AND NEW.mode = 'qualification' THEN\n"
    "  PERFORM board_best_refresh(NEW.guild_id, NEW.set_name, NEW.set_version, NEW.player);\n"
    "END IF;\n"
    "RETURN NULL; END $$",
    "CREATE TRIGGER games_board_best_insert AFTER INSERT ON games FOR EACH ROW "
    f"WHEN ({_ranked('NEW')}) EXECUTE FUNCTION games_board_best()",
    "CREATE TRIGGER games_board_best_update AFTER UPDATE ON games FOR EACH ROW "
    f"WHEN ({_changed().replace(' IS NOT ', ' IS DISTINCT FROM ')}) "
    "EXECUTE FUNCTION games_board_best()",
    "CREATE TRIGGER games_board_best_delete AFTER DELETE ON games FOR EACH ROW "
    f"WHEN ({_ranked('OLD')}) EXECUTE FUNCTION games_board_best()",
]

BACKFILL = (  # constant names only
    f"INSERT INTO board_best ({COLUMNS}) SELECT {SOURCE} FROM (SELECT {SOURCE}, "  # noqa: S608
    f"row_number() OVER (PARTITION BY {', '.join(KEY)} ORDER BY {ORDER}) AS place "
    f"FROM games WHERE {RANKED}) AS ranked WHERE place = 1"
)


def upgrade() -> None:
    op.create_table(
        "board_best",
        sa.Column("guild_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("set_name", sa.String(length=64), nullable=False),
        sa.Column("set_version", sa.String(length=16), nullable=False),
        sa.Column("player", sa.String(length=64), nullable=False),
        sa.Column("game_id", sa.String(length=64), nullable=False),
        sa.Column("rank_class", sa.Integer(), nullable=False),
        sa.Column("rank_value", sa.Float(), nullable=True),
        sa.Column("answer_time", sa.Float(), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint(*KEY),
    )
    op.create_index(
        "ix_board_best_rank",
        "board_best",
        [*KEY[:3], "rank_class", "rank_value", "answer_time", "created_at", "game_id", "player"],
    )
    op.execute(BACKFILL)
    postgres = op.get_bind().dialect.name == "postgresql"
    for statement in POSTGRES if postgres else SQLITE:
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        for trigger in ("insert", "update", "delete"):
            op.execute(f"DROP TRIGGER games_board_best_{trigger} ON games")
        op.execute("DROP FUNCTION games_board_best()")
        op.execute("DROP FUNCTION board_best_refresh(bigint, varchar, varchar, varchar)")
    else:
        for trigger in ("insert", "update", "moved", "delete"):
            op.execute(f"DROP TRIGGER games_board_best_{trigger}")
    op.drop_index("ix_board_best_rank", table_name="board_best")
    op.drop_table("board_best")
