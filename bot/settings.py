"""Bot configuration from the environment or a `.env` file (pydantic-settings).

Settings are an object passed to `create_bot`, never an importable module, so
tests build their own and nothing reads the environment behind their back.
"""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from bot.sharding import Shards, parse_ids
from evaluator.settings import EvaluatorSettings

DEFAULT_DATABASE_URL = "sqlite+aiosqlite:///data/formula-darts.sqlite3"


def database_kind(url: str) -> str:
    """The database of a URL (`sqlite`, `postgresql`), without importing SQLAlchemy."""
    scheme = url.split("://", 1)[0].split("+", 1)[0]
    return "postgresql" if scheme in ("postgres", "postgresql") else scheme


class LogFormat(StrEnum):
    """`LOG_FORMAT`: lines for people, or one JSON object per line for log collectors."""

    TEXT = "text"
    JSON = "json"


class SoloGames(StrEnum):
    """`SOLO_GAMES`: where Training, Qualification and Practice are played.

    `private` (the default): messages only the player sees, in the channel the game was
    started in; every message rides one of the player's interactions, so a game costs
    no bot-token call and one token carries about 10,000 games at once instead of 3,000
    (docs/scaling.md, "Games per bot token"), with no thread to clutter the channel and
    a Qualification nobody else can read, moderators included.
    `thread`: a thread per game (public; Qualification's private), readable afterwards.
    """

    THREAD = "thread"
    PRIVATE = "private"


class BotSettings(BaseSettings):
    """`DISCORD_TOKEN`, `DATABASE_URL`, `SETS_FILE`, `DEV_GUILD_ID`; the evaluator's own
    variables (`EVALUATOR`, `POOL_SIZE`, ...) are read by the nested `EvaluatorSettings`."""

    model_config = SettingsConfigDict(env_file=".env", env_prefix="", extra="ignore")

    discord_token: SecretStr | None = None
    database_url: str = DEFAULT_DATABASE_URL
    sets_file: Path | None = Field(
        default=None, description="a Sets YAML file; None means the shipped sets.yaml"
    )
    dev_guild_id: int | None = Field(
        default=None, description="sync commands to this guild only (instant, for development)"
    )
    evaluator_settings: EvaluatorSettings = Field(
        default_factory=EvaluatorSettings,
        description="read from its own variables; not named `evaluator`, which is one of them",
    )
    metrics_port: int | None = Field(
        default=None,
        ge=0,
        le=65535,
        description="serve /metrics and /healthz on this port; None: off, 0: any free port",
    )
    metrics_host: str = Field(
        default="127.0.0.1",
        description="the address /metrics listens on; 0.0.0.0 for a scraper in another container",
    )
    web_port: int | None = Field(
        default=None,
        ge=0,
        le=65535,
        description="serve the servers' web pages on this port; None: off, 0: any free port",
    )
    web_host: str = Field(
        default="127.0.0.1",
        description="the address the web pages listen on; 0.0.0.0 behind a reverse proxy",
    )
    web_base_url: str | None = Field(
        default=None,
        description="the pages' public address (https://darts.example.org): /config web and "
        "the links in Discord print it; None: no link is printed",
    )
    log_format: LogFormat = LogFormat.TEXT
    solo_games: SoloGames = Field(
        default=SoloGames.PRIVATE,
        description="where one player's games are played: private messages (no bot-token "
        "call: ~10,000 games per token), or a thread each (~3,000)",
    )
    shard_count: int | None = Field(
        default=None, ge=1, description="how many shards in all; None: Discord's recommendation"
    )
    shard_ids: str | None = Field(
        default=None, description='the shards this process runs, e.g. "0,1"; None: all'
    )

    @property
    def shards(self) -> Shards:
        return Shards(self.shard_count, parse_ids(self.shard_ids))

    def shard_problem(self) -> str | None:
        """Why this process may not start as configured, or None."""
        try:
            shards = self.shards
        except ValueError as exc:
            return str(exc)
        if (shards.count or 1) > 1 and database_kind(self.database_url) == "sqlite":
            return (
                "SHARD_COUNT above 1 needs PostgreSQL: one SQLite file has one writer, so "
                "set DATABASE_URL=postgresql+asyncpg://... for every shard process"
            )
        return None
