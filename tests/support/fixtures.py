"""What the bot's suites share: forced Digits, the real PHP pool, a fresh store, and a
simulated Discord (simcord) around a bot, started and shut down in one place.

Conftests import the fixtures by name, so every suite plays the same real bot parts
the same way.
"""

from __future__ import annotations

import contextlib
from collections import deque
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
import pytest_asyncio
import simcord

from bot.storage import Store
from evaluator import Evaluator, EvaluatorSettings, open_evaluator
from rules import GameState
from tests.support.head_template import open_head_store
from tests.support.sim import RealWorkEnv


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
    opened = await open_head_store(f"sqlite+aiosqlite:///{tmp_path}/games.sqlite3")
    yield opened
    await opened.close()


@contextlib.asynccontextmanager
async def simulated(bot: Any, **options: Any) -> AsyncIterator[simcord.Env]:
    """A running simcord environment around `bot` that waits for its real work
    (`RealWorkEnv`); errors the bot swallowed fail the test.

    Like simcord's own `simcord_env` fixture, but usable on the session loop the
    PHP pool lives on, and by any fixture that builds its own bot.
    """
    if isinstance(bot, discord.AutoShardedClient) and bot.shard_count is None:
        options.setdefault("shard_count", 1)  # what Discord would recommend a small bot
    env = RealWorkEnv(bot, **options)
    await env.start()
    try:
        yield env
    finally:
        await env.shutdown()
        if env.check_errors:
            env._raise_errors_since(env._errors_acknowledged)


@pytest.fixture(scope="session")
def solver() -> Iterator[Any]:
    """The solver in its own process, once for the session (its start costs a second).

    A plain fixture: SolverProcess holds no event loop (each call asks for the running
    one), so every test's own loop can use it; a session-loop fixture made tests on
    function loops wait forever."""
    from solver.process import SolverProcess

    opened = SolverProcess(timeout_s=120)
    opened.spawn()
    yield opened
    opened.shutdown()
