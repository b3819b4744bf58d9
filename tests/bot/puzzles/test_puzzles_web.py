"""The puzzles' boards on a server's web pages (`/s/<key>/puzzles`): runs played through
the real flow (a pool the real solver filled, answers judged by real PHP), then read as a
visitor reads them, in both languages; today's daily puzzle stays sealed."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from aiohttp.test_utils import TestClient, TestServer

import rules
from bot.charts import ChartRenderer
from bot.common import SetsDirectory
from bot.puzzles import Graded, PuzzleRuns
from bot.storage import PuzzleKind, Store
from bot.web import create_app
from evaluator import Evaluator
from tests.bot.puzzles.conftest import Fill

pytestmark = pytest.mark.asyncio(loop_scope="session")

GLOBAL = rules.load_sets()
GUILD, ALICE, BOB, CAROL = 1, 101, 102, 103
DAY = 86_400.0


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest_asyncio.fixture(loop_scope="session")
async def client(store: Store, page_charts: ChartRenderer) -> AsyncIterator[TestClient]:
    await store.names.remember(GUILD, {ALICE: "Alice", BOB: "Bob <b>", CAROL: "Carol"}, 1.0)
    client = TestClient(TestServer(create_app(store, charts=page_charts)))
    await client.start_server()
    try:
        yield client
    finally:
        await client.close()


async def _base(store: Store) -> str:
    settings = await store.servers.set_web(GUILD, True, 1.0)
    assert settings.web_key is not None
    return f"/s/{settings.web_key}/puzzles"


async def _storm(flow: PuzzleRuns, user: int, solved: int) -> None:
    """A Storm: `solved` puzzles answered with their best, then one skipped, then Stop."""
    shown = await flow.start(GUILD, user, PuzzleKind.STORM, None, "en")
    for _ in range(solved):
        graded = await flow.submit(shown.run.id, user, shown.seq, shown.puzzle.best_formula)
        assert isinstance(graded, Graded) and graded.answer.grade == 1.0 and graded.next
        shown = graded.next
    await flow.skip(shown.run.id, user, shown.seq)
    await flow.stop(shown.run.id, user)


async def _daily(flow: PuzzleRuns, user: int) -> None:
    shown = await flow.daily(GUILD, user, "en")
    graded = await flow.submit(shown.run.id, user, shown.seq, shown.puzzle.best_formula)
    assert isinstance(graded, Graded) and graded.answer.grade == 1.0


def _section(html: str, kind: str) -> str:
    return html.split(f'<h2 id="{kind}">', 1)[1].split("</section>", 1)[0]


async def test_the_boards_by_window_and_the_daily_puzzle_sealed_until_its_day_ends(
    store: Store, evaluator: Evaluator, fill: Fill, client: TestClient
) -> None:
    await fill(GLOBAL["darts"], 4)
    now = time.time()
    sets = SetsDirectory(store, GLOBAL)
    today = PuzzleRuns(store, evaluator, sets, Clock(now))
    await _storm(today, ALICE, 2)
    await _storm(today, BOB, 1)
    await _storm(PuzzleRuns(store, evaluator, sets, Clock(now - 10 * DAY)), CAROL, 3)
    streak = await today.start(GUILD, BOB, PuzzleKind.STREAK, None, "en")
    first = await today.submit(streak.run.id, BOB, streak.seq, streak.puzzle.best_formula)
    assert isinstance(first, Graded) and first.next is not None
    await today.skip(streak.run.id, BOB, first.next.seq)  # a Streak of 1
    await _daily(PuzzleRuns(store, evaluator, sets, Clock(now - DAY)), ALICE)  # yesterday's
    await _daily(today, CAROL)  # today's: sealed

    base = await _base(store)
    page = await client.get(f"{base}?lang=en")
    assert page.status == 200
    html = await page.text()
    main = html.split("<main>", 1)[1]
    storm = _section(main, "storm")
    assert "Storm · today" in storm
    assert storm.index("Alice") < storm.index("Bob &lt;b&gt;")  # 2.00 before 1.00, escaped
    assert "2.00" in storm and "Carol" not in storm  # Carol's Storm is 10 days old
    assert "Bob &lt;b&gt;" in _section(main, "streak")
    daily = _section(main, "daily")
    assert "Alice" in daily and "1.00" in daily  # yesterday's day ended: shown
    assert "Carol" not in daily and "sealed until" in daily and "1 player so far" in daily
    assert f'href="/s/{base.split("/")[2]}/puzzles?lang=en"' in html  # in the server's menu

    everything = await (await client.get(f"{base}?window=all&lang=en")).text()
    assert "Carol" in _section(everything, "storm") and "Storm · all time" in everything
    week = await (await client.get(f"{base}?window=week&lang=en")).text()
    assert "Carol" not in _section(week, "storm")

    uk = await (await client.get(f"{base}?lang=uk")).text()
    assert "Шторм · сьогодні" in uk and "Серія задач" in uk and "Задача дня" in uk
    assert "2,00" in uk and "Задачу дня закрито до" in uk


async def test_odd_addresses_read_as_today_or_are_not_found(
    store: Store, client: TestClient
) -> None:
    base = await _base(store)
    odd = await client.get(f"{base}?window=<script>&lang=en")
    assert odd.status == 200
    html = await odd.text()
    assert "<script>" not in html.split("<main>", 1)[1]
    assert "Nobody has played it here in this period yet." in html
    assert (await client.get("/s/nosuchkeynosuchkey00/puzzles")).status == 404
