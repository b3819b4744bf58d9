"""Fixtures every bot suite may use: the real PHP pool, a SQLite store, forced Digits,
settings that never read the environment."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.settings import BotSettings
from tests.support.fixtures import ForcedDigits, evaluator, store  # noqa: F401 (fixtures)


@pytest.fixture
def digits() -> ForcedDigits:
    return ForcedDigits()


@pytest.fixture
def settings(tmp_path: Path) -> BotSettings:
    return BotSettings(
        discord_token=None,
        database_url=f"sqlite+aiosqlite:///{tmp_path}/unused.sqlite3",
        dev_guild_id=None,
    )
