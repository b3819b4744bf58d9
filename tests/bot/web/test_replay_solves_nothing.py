"""A replay never solves on a request (issue 29: 16 clients over 16 replays emptied every
live reveal). A past Qualification's best answers are found once, by the backfill at the
solver's lowest lane, and every view after reads them: the views count no solver call.

Seen failing first: when the page solved them itself, four views asked the solver 20
times (five rounds each)."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from aiohttp.test_utils import TestClient, TestServer

import rules
from bot.play import BestBackfill
from bot.solving import ConfirmedSolver
from bot.storage import Store, open_store
from bot.web import create_app
from solver.process import Lane
from solver.result import Candidate
from tests.bot.web.pages_site import Site, populate
from tests.support.fixtures import solver  # noqa: F401 (fixture)

pytestmark = pytest.mark.asyncio(loop_scope="session")

BOBS_GAME = "b" * 32  # a past Qualification's, five rounds, kept no best answers
BEST = re.compile(r"<code>([^<]+)</code> →")


class Counting:
    """The real solver confirmed by real PHP, counting what it is asked."""

    def __init__(self, real: ConfirmedSolver) -> None:
        self.real = real
        self.calls = 0

    async def best(
        self, digits: str, score: rules.Number, game_set: rules.GameSet, *, aim: int = 0
    ) -> Candidate | None:
        self.calls += 1
        return await self.real.best(digits, score, game_set, aim=aim)

    async def finish(
        self, digits: str, score: rules.Number, game_set: rules.GameSet, *, last: bool = False
    ) -> Candidate | None:
        self.calls += 1
        return await self.real.finish(digits, score, game_set, last=last)


async def no_pause(_seconds: float) -> None:
    await asyncio.sleep(0)


@pytest_asyncio.fixture(loop_scope="session")
async def counted(
    tmp_path: Path, evaluator: Any, solver: Any
) -> AsyncIterator[tuple[Site, Counting]]:
    store: Store = await open_store(f"sqlite+aiosqlite:///{tmp_path}/web.sqlite3")
    key = await populate(store)
    counting = Counting(ConfirmedSolver(solver, evaluator, lane=Lane.BACKFILL))
    client = TestClient(TestServer(create_app(store)))
    await client.start_server()
    try:
        yield Site(store, client, key), counting
    finally:
        await client.close()
        await store.close()


async def _views(site: Site, times: int) -> list[str]:
    pages = []
    for _ in range(times):
        page = await site.client.get(f"{site.base}g/{BOBS_GAME}")
        assert page.status == 200
        pages.append(await page.text())
    return pages


async def test_replay_views_ask_the_solver_nothing(counted: tuple[Site, Counting]) -> None:
    site, counting = counted
    before = await _views(site, 4)
    assert counting.calls == 0
    assert not BEST.findall(before[-1])  # not found yet: shown without them

    backfill = BestBackfill(site.store, counting, sleep=no_pause)
    assert await backfill.step() == counting.calls > 0
    solved = counting.calls

    after = await _views(site, 4)
    assert counting.calls == solved
    assert len(BEST.findall(after[-1])) == 5  # one a round
    restarted = BestBackfill(site.store, counting, sleep=no_pause)
    assert await restarted.step() == 0  # kept: never solved again
    assert counting.calls == solved
