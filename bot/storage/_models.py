"""Tables. The JSON state of a game is the truth; the other columns are copies for queries.

`games.state` restores a game exactly (int vs float results, every answer). Rounds,
answers and `game_players` repeat what it says in relational form so history,
stats and leaderboards never parse JSON, and the ranking fields of RULES.md are
denormalized onto `games` so a leaderboard is one index range scan.

Natural composite keys (game, round number, seat) make a round's resolution
idempotent in the database itself: the same answer can never be stored twice.
Player ids are text because the rules engine names players by strings (Discord
ids, or a local name in the terminal game); guild and channel ids are BIGINT.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

metadata = SQLModel.metadata


def table(model: type[SQLModel]) -> sa.Table:
    """The Core table of a model, for set-based statements (typed, unlike `__table__`)."""
    found = getattr(model, "__table__", None)
    if not isinstance(found, sa.Table):
        raise TypeError(f"{model.__name__} is not a table model")
    return found


NAME = 64
"""Room for a Set name (32 in the rules) and ids; VARCHAR lengths matter only to PostgreSQL."""
PLAYER_NAME = 100
"""Room for a Discord display name (32 characters today); a longer one is cut."""


class Player(SQLModel, table=True):
    __tablename__ = "players"

    id: str = Field(primary_key=True, sa_type=sa.String(NAME))
    first_seen: float = Field(sa_type=sa.Float)


class Server(SQLModel, table=True):
    __tablename__ = "servers"

    guild_id: int = Field(
        primary_key=True, sa_type=sa.BigInteger, sa_column_kwargs={"autoincrement": False}
    )
    first_seen: float = Field(sa_type=sa.Float)


BOARD_INDEX = (
    "ix_games_board", "guild_id", "set_name", "set_version", "mode", "player", "rank_class",
    "rank_value", "answer_time", "created_at", "id", "period",
)  # fmt: skip
STREAKS_INDEX = (
    "ix_games_streaks", "guild_id", "player", "mode", "set_name", "period", "rank_class", "status",
)  # fmt: skip


class Game(SQLModel, table=True):
    """One game. `version` grows with every state change (see `state_version`)."""

    __tablename__ = "games"
    __table_args__ = (
        # Qualification leaderboard and attempts: one range per (server, Set, version,
        # period), holding every column the board's window reads (an index-only scan).
        sa.Index(
            "ix_games_qualification",
            "guild_id",
            "mode",
            "set_name",
            "set_version",
            "period",
            "player",
            "rank_class",
            "rank_value",
            "answer_time",
            "created_at",
            "id",
        ),
        # each player's best game of a Set's version (the board's window, in the index's
        # order: no sort) and a player's periods of each Set (the streaks): 0016
        sa.Index(*BOARD_INDEX),
        sa.Index(*STREAKS_INDEX),
        # a Set's versions by when they were played (the board's version list): 0026
        sa.Index("ix_games_versions", "guild_id", "mode", "set_name", "set_version", "created_at"),
        sa.Index("ix_games_status", "status"),
        # the threads to archive after a restart (`finished_since`)
        sa.Index("ix_games_finished_at", "finished_at"),
    )

    id: str = Field(primary_key=True, sa_type=sa.String(NAME))
    guild_id: int = Field(sa_type=sa.BigInteger)
    channel_id: int = Field(sa_type=sa.BigInteger)
    mode: str = Field(sa_type=sa.String(16))
    set_name: str = Field(sa_type=sa.String(NAME))
    set_snapshot: str = Field(sa_type=sa.Text)
    set_version: str = Field(
        default="", sa_type=sa.String(16), sa_column_kwargs={"server_default": ""}
    )
    """`GameSet.version` as played: attempts and boards count one version at a time.
    "" for a game stored before versions whose Set could not be read back."""
    seed: str | None = Field(default=None, sa_type=sa.String(NAME * 2), nullable=True)
    period: str | None = Field(default=None, sa_type=sa.String(16), nullable=True)
    status: str = Field(sa_type=sa.String(16))
    player: str = Field(sa_type=sa.String(NAME))
    termination: str | None = Field(default=None, sa_type=sa.String(16), nullable=True)
    winner: int | None = Field(default=None, sa_type=sa.Integer, nullable=True)
    rounds_played: int = Field(sa_type=sa.Integer)
    perfect: bool = Field(sa_type=sa.Boolean)
    final_score: float = Field(sa_type=sa.Float)
    rank_class: int | None = Field(default=None, sa_type=sa.Integer, nullable=True)
    rank_value: float | None = Field(default=None, sa_type=sa.Float, nullable=True)
    answer_time: float | None = Field(default=None, sa_type=sa.Float, nullable=True)
    version: int = Field(sa_type=sa.Integer)
    state: str = Field(sa_type=sa.Text)
    meta: str = Field(sa_type=sa.Text)
    created_at: float = Field(sa_type=sa.Float)
    finished_at: float | None = Field(default=None, sa_type=sa.Float, nullable=True)
    face: str = Field(
        default="discord",
        sa_column=sa.Column(sa.String(16), nullable=False, server_default="discord"),
    )
    """The face that started the game (`Face`), which announces it: 0021. A database
    default only, so a row written without it (at an older revision) reads as Discord's."""


class GamePlayer(SQLModel, table=True):
    """A player's seat in a game, with per-game totals for stats and history."""

    __tablename__ = "game_players"
    __table_args__ = (
        sa.UniqueConstraint("game_id", "player", name="uq_game_players_player"),
        sa.Index("ix_game_players_history", "guild_id", "player", "created_at"),
    )

    game_id: str = Field(
        primary_key=True, sa_type=sa.String(NAME), foreign_key="games.id", ondelete="CASCADE"
    )
    seat: int = Field(
        primary_key=True, sa_type=sa.Integer, sa_column_kwargs={"autoincrement": False}
    )
    player: str = Field(sa_type=sa.String(NAME))
    guild_id: int = Field(sa_type=sa.BigInteger)
    mode: str = Field(sa_type=sa.String(16))
    status: str = Field(sa_type=sa.String(16))
    created_at: float = Field(sa_type=sa.Float)
    score: float = Field(sa_type=sa.Float)
    answered: int = Field(sa_type=sa.Integer)
    points_total: float = Field(sa_type=sa.Float)
    won: bool = Field(sa_type=sa.Boolean)
    checkout: bool = Field(sa_type=sa.Boolean)
    perfect: bool = Field(sa_type=sa.Boolean)


class RoundRow(SQLModel, table=True):
    __tablename__ = "rounds"

    game_id: str = Field(
        primary_key=True, sa_type=sa.String(NAME), foreign_key="games.id", ondelete="CASCADE"
    )
    number: int = Field(
        primary_key=True, sa_type=sa.Integer, sa_column_kwargs={"autoincrement": False}
    )
    digits: str = Field(sa_type=sa.String(4))
    started_at: float = Field(sa_type=sa.Float)
    deadline: float = Field(sa_type=sa.Float)
    resolved: bool = Field(sa_type=sa.Boolean)


class AnswerRow(SQLModel, table=True):
    """A final formula. `result` is text so PHP's int 3 and float 3.0 stay different."""

    __tablename__ = "answers"
    __table_args__ = (
        sa.ForeignKeyConstraint(
            ["game_id", "round_number"],
            ["rounds.game_id", "rounds.number"],
            ondelete="CASCADE",
            name="fk_answers_round",
        ),
        sa.UniqueConstraint("game_id", "round_number", "player", name="uq_answers_player"),
    )

    game_id: str = Field(primary_key=True, sa_type=sa.String(NAME))
    round_number: int = Field(
        primary_key=True, sa_type=sa.Integer, sa_column_kwargs={"autoincrement": False}
    )
    seat: int = Field(
        primary_key=True, sa_type=sa.Integer, sa_column_kwargs={"autoincrement": False}
    )
    player: str = Field(sa_type=sa.String(NAME))
    formula: str = Field(sa_type=sa.String(512))
    result: str = Field(sa_type=sa.String(64))
    points: float = Field(sa_type=sa.Float)
    score: float = Field(sa_type=sa.Float)
    elapsed: float = Field(sa_type=sa.Float)
    auto: bool = Field(sa_type=sa.Boolean)


class Rating(SQLModel, table=True):
    __tablename__ = "ratings"
    __table_args__ = (sa.Index("ix_ratings_board", "guild_id", "rating"),)

    guild_id: int = Field(
        primary_key=True, sa_type=sa.BigInteger, sa_column_kwargs={"autoincrement": False}
    )
    user_id: int = Field(
        primary_key=True, sa_type=sa.BigInteger, sa_column_kwargs={"autoincrement": False}
    )
    rating: int = Field(sa_type=sa.Integer)
    games: int = Field(sa_type=sa.Integer)
    wins: int = Field(sa_type=sa.Integer)
    draws: int = Field(sa_type=sa.Integer)
    losses: int = Field(sa_type=sa.Integer)


class RatingEvent(SQLModel, table=True):
    """One row per player per rated duel; its key makes a result count once."""

    __tablename__ = "rating_events"
    __table_args__ = (
        # a player's Elo over time on the web player page, newest first (0022)
        sa.Index("ix_rating_events_player", "guild_id", "user_id", "created_at"),
    )

    game_id: str = Field(
        primary_key=True, sa_type=sa.String(NAME), foreign_key="games.id", ondelete="CASCADE"
    )
    user_id: int = Field(
        primary_key=True, sa_type=sa.BigInteger, sa_column_kwargs={"autoincrement": False}
    )
    guild_id: int = Field(sa_type=sa.BigInteger)
    before: int = Field(sa_type=sa.Integer)
    after: int = Field(sa_type=sa.Integer)
    created_at: float = Field(sa_type=sa.Float)


class ChallengeRow(SQLModel, table=True):
    """A duel challenge. `rematch_of` names the duel a Rematch came from: its unique key
    lets a duel have one rematch however many processes see the clicks."""

    __tablename__ = "challenges"
    __table_args__ = (
        sa.Index("ix_challenges_status", "status"),
        sa.Index("uq_challenges_rematch_of", "rematch_of", unique=True),
    )

    id: str = Field(primary_key=True, sa_type=sa.String(NAME))
    guild_id: int = Field(sa_type=sa.BigInteger)
    channel_id: int = Field(sa_type=sa.BigInteger)
    challenger_id: int = Field(sa_type=sa.BigInteger)
    opponent_id: int = Field(sa_type=sa.BigInteger)
    set_name: str = Field(sa_type=sa.String(NAME))
    expires_at: float = Field(sa_type=sa.Float)
    status: str = Field(sa_type=sa.String(16))
    message_id: int = Field(sa_type=sa.BigInteger)
    locale: str = Field(
        default="en", sa_type=sa.String(16), sa_column_kwargs={"server_default": "en"}
    )
    rematch_of: str | None = Field(default=None, sa_type=sa.String(NAME), nullable=True)


class ServerSet(SQLModel, table=True):
    __tablename__ = "server_sets"

    guild_id: int = Field(
        primary_key=True, sa_type=sa.BigInteger, sa_column_kwargs={"autoincrement": False}
    )
    name: str = Field(primary_key=True, sa_type=sa.String(NAME))
    data: str = Field(sa_type=sa.Text)
    updated_at: float = Field(sa_type=sa.Float)


class InstallSecret(SQLModel, table=True):
    """Random secrets of this installation, made once and shared by every bot process
    on the database (e.g. the key of the Qualification Digits)."""

    __tablename__ = "install_secrets"

    name: str = Field(primary_key=True, sa_type=sa.String(NAME))
    value: str = Field(sa_type=sa.String(NAME))


class BotState(SQLModel, table=True):
    """Small facts of the installation that must survive a restart (e.g. the hash of the
    command tree last synced, so a restart does not sync again for nothing)."""

    __tablename__ = "bot_state"

    name: str = Field(primary_key=True, sa_type=sa.String(NAME))
    value: str = Field(sa_type=sa.Text)


class BarredPlayer(SQLModel, table=True):
    """A player an admin barred from ranked play (Qualification, rated duels) on a server."""

    __tablename__ = "barred_players"

    guild_id: int = Field(
        primary_key=True, sa_type=sa.BigInteger, sa_column_kwargs={"autoincrement": False}
    )
    user_id: int = Field(
        primary_key=True, sa_type=sa.BigInteger, sa_column_kwargs={"autoincrement": False}
    )
    reason: str = Field(sa_type=sa.String(512))
    since: float = Field(sa_type=sa.Float)


class ModerationLog(SQLModel, table=True):
    """Every admin action on a server's boards (void, unvoid, bar, unbar), with who and why."""

    __tablename__ = "moderation_log"
    __table_args__ = (sa.Index("ix_moderation_log_guild", "guild_id", "created_at"),)

    id: int | None = Field(default=None, primary_key=True, sa_type=sa.Integer)
    guild_id: int = Field(sa_type=sa.BigInteger)
    action: str = Field(sa_type=sa.String(16))
    target: str = Field(sa_type=sa.String(NAME))
    actor_id: int = Field(sa_type=sa.BigInteger)
    reason: str = Field(sa_type=sa.String(512))
    created_at: float = Field(sa_type=sa.Float)


WEB_KEY = 32


class ServerConfig(SQLModel, table=True):
    """A server's own settings (`/config`): where the daily post goes, the language of the
    bot's public messages there, and the timezone its Qualification days run in."""

    __tablename__ = "server_config"

    guild_id: int = Field(
        primary_key=True, sa_type=sa.BigInteger, sa_column_kwargs={"autoincrement": False}
    )
    channel_id: int | None = Field(default=None, sa_type=sa.BigInteger, nullable=True)
    language: str | None = Field(default=None, sa_type=sa.String(16), nullable=True)
    timezone: str = Field(
        default="UTC", sa_type=sa.String(NAME), sa_column_kwargs={"server_default": "UTC"}
    )
    channel_since: float | None = Field(default=None, sa_type=sa.Float, nullable=True)
    updated_at: float = Field(sa_type=sa.Float)
    cleared_channel_id: int | None = Field(default=None, sa_type=sa.BigInteger, nullable=True)
    """The channel the bot took off itself (403/404 on the post, or the bot left the server)."""
    cleared_reason: str | None = Field(default=None, sa_type=sa.String(16), nullable=True)
    cleared_at: float | None = Field(default=None, sa_type=sa.Float, nullable=True)
    web_key: str | None = Field(
        default=None, sa_type=sa.String(WEB_KEY), nullable=True, unique=True, index=True
    )
    """The server's page key in its web addresses (random, not its snowflake): made the
    first time an admin turns the web on, kept when it is turned off (links stay)."""
    web_on: bool = Field(
        default=False, sa_type=sa.Boolean, sa_column_kwargs={"server_default": sa.false()}
    )
    solo_games: str | None = Field(default=None, sa_type=sa.String(8), nullable=True)
    """Where one player's games are played here ("private", "thread"); None: the bot's
    own `SOLO_GAMES`."""
    guild_name: str | None = Field(default=None, sa_type=sa.String(100), nullable=True)
    """The server's name as Discord last gave it to the bot (its pages show it); None
    until seen (0022)."""


class DailyPost(SQLModel, table=True):
    """The claim on one daily post (server, Set, period): inserted before posting, so two
    processes never both post; `done_at` once posted; a claim left without it past its
    lease (`claimed_at`) was a crash mid-post and is taken again."""

    __tablename__ = "daily_posts"

    guild_id: int = Field(
        primary_key=True, sa_type=sa.BigInteger, sa_column_kwargs={"autoincrement": False}
    )
    set_name: str = Field(primary_key=True, sa_type=sa.String(NAME))
    period: str = Field(primary_key=True, sa_type=sa.String(16))
    claimed_by: str = Field(sa_type=sa.String(NAME))
    claimed_at: float = Field(sa_type=sa.Float)
    done_at: float | None = Field(default=None, sa_type=sa.Float, nullable=True)
    message_id: int | None = Field(default=None, sa_type=sa.BigInteger, nullable=True)


class PlayerName(SQLModel, table=True):
    """A player's display name on a server, as the bot last saw it in an interaction: the
    web pages name players by it (the bot has no members intent, and `formula-darts web`
    runs without Discord). Dropped when the bot leaves the server."""

    __tablename__ = "player_names"

    guild_id: int = Field(
        primary_key=True, sa_type=sa.BigInteger, sa_column_kwargs={"autoincrement": False}
    )
    user_id: int = Field(
        primary_key=True, sa_type=sa.BigInteger, sa_column_kwargs={"autoincrement": False}
    )
    name: str = Field(sa_type=sa.String(PLAYER_NAME))
    seen_at: float = Field(sa_type=sa.Float)


class UntoldSummary(SQLModel, table=True):
    """A finished game whose summary Discord did not take: tried again at `due` until it
    lands or its tries run out, across restarts (the row goes when it is told)."""

    __tablename__ = "untold_summaries"

    game_id: str = Field(primary_key=True, sa_type=sa.String(NAME))
    guild_id: int = Field(sa_type=sa.BigInteger)
    tries: int = Field(sa_type=sa.Integer)
    due: float = Field(sa_type=sa.Float)


class BestAnswer(SQLModel, table=True):
    """A round's best answer for a seat found after the game (`_best`): a replay reads it
    beside `GameMeta.best` (those found while the round was played) and never solves."""

    __tablename__ = "best_answers"

    game_id: str = Field(primary_key=True, sa_type=sa.String(NAME))
    round: int = Field(
        primary_key=True, sa_type=sa.Integer, sa_column_kwargs={"autoincrement": False}
    )
    seat: int = Field(
        primary_key=True, sa_type=sa.Integer, sa_column_kwargs={"autoincrement": False}
    )
    formula: str = Field(sa_type=sa.Text)
    result: str = Field(sa_type=sa.String(40))
    points: str = Field(sa_type=sa.String(40))
    score: str = Field(sa_type=sa.String(40))


class BestPending(SQLModel, table=True):
    """A finished game whose best answers are still owed (a sealed Qualification, a solve
    that failed): looked at again at `due`, `tries` so far (the backfill's own queue)."""

    __tablename__ = "best_pending"
    __table_args__ = (sa.Index("ix_best_pending_due", "due"),)

    game_id: str = Field(primary_key=True, sa_type=sa.String(NAME))
    finished_at: float = Field(sa_type=sa.Float)
    tries: int = Field(sa_type=sa.Integer)
    due: float = Field(sa_type=sa.Float)
