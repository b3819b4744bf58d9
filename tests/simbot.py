"""What the simulated-Discord suites share: forced Digits, the real PHP pool, a fresh store.

Conftests import these fixtures by name, so every suite plays the same real bot
parts the same way.
"""

from __future__ import annotations

from collections import deque
from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio

from bot.storage import Store, open_store
from evaluator import Evaluator, EvaluatorSettings, open_evaluator
from rules import GameState


class ForcedDigits:
    """Digits the test chooses, round by round; '1234' once they run out."""

    def __init__(self) -> None:
        self.queue: deque[str] = deque()

    def extend(self, *digits: str) -> None:
        self.queue.extend(digits)

    def __call__(self, state: GameState, number: int) -> str:
        del state, number
        return self.queue.popleft() if self.queue else "1234"


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def evaluator() -> AsyncIterator[Evaluator]:
    """The real local PHP pool, warmed once for the whole session."""
    pool = await open_evaluator(EvaluatorSettings(evaluator="local", pool_size=2))
    yield pool
    await pool.close()


@pytest_asyncio.fixture(loop_scope="session")
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await open_store(f"sqlite+aiosqlite:///{tmp_path}/games.sqlite3")
    yield opened
    await opened.close()
