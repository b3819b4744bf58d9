"""Persistence: games, history, leaderboards, duel ratings, challenges and server Sets.

The bot uses only what is exported here; no SQL lives outside this package.
`open_store(url)` gives a migrated Store on SQLite (default) or PostgreSQL.
"""

from bot.storage._engine import DEFAULT_URL, normalize_url
from bot.storage._records import (
    AttemptsUsed,
    Challenge,
    GameRecord,
    LeaderRow,
    PlayerStats,
    RatingChange,
    RatingRow,
    StaleGame,
)
from bot.storage._store import Store, open_store

__all__ = [
    "DEFAULT_URL",
    "AttemptsUsed",
    "Challenge",
    "GameRecord",
    "LeaderRow",
    "PlayerStats",
    "RatingChange",
    "RatingRow",
    "StaleGame",
    "Store",
    "normalize_url",
    "open_store",
]
