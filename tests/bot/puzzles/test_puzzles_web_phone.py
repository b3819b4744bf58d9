"""The puzzles' boards page with rows and long Ukrainian names in a real browser (the
distribution's headless Chromium, as `tests/bot/web/test_browser.py`): at 320, 390 and
1366 CSS pixels nothing scrolls sideways and no cell is off-screen or hidden."""

from __future__ import annotations

import time
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

import rules
from bot.charts import ChartRenderer
from bot.common import SetsDirectory
from bot.puzzles import PuzzleRuns
from bot.storage import Store
from bot.web import create_app
from evaluator import Evaluator
from tests.bot.puzzles.conftest import Fill
from tests.bot.puzzles.test_puzzles_web import DAY, GUILD, Clock, _daily, _storm
from tests.bot.web.test_browser import CHROMIUM, FITS, LONG_NAMES, playwright_api

pytestmark = [
    pytest.mark.asyncio(loop_scope="session"),
    pytest.mark.skipif(CHROMIUM is None, reason="no chromium executable (apt chromium)"),
]
GLOBAL = rules.load_sets()


async def test_the_puzzles_page_fits_a_phone_with_long_names(
    store: Store, evaluator: Evaluator, fill: Fill, page_charts: ChartRenderer
) -> None:
    await fill(GLOBAL["darts"], 3)
    now, sets = time.time(), SetsDirectory(store, GLOBAL)
    users = list(LONG_NAMES)[:3]
    await store.names.remember(GUILD, {u: LONG_NAMES[u] for u in users}, 1.0)
    today = PuzzleRuns(store, evaluator, sets, Clock(now))
    for n, user in enumerate(users):
        await _storm(today, user, n + 1)
        await _daily(PuzzleRuns(store, evaluator, sets, Clock(now - DAY)), user)
    settings = await store.servers.set_web(GUILD, True, 1.0)
    await store.servers.name_server(GUILD, "Київський клуб дартсу «Формула»", 2.0)
    client = TestClient(TestServer(create_app(store, charts=page_charts)))
    await client.start_server()
    try:
        async with playwright_api.async_playwright() as pw:
            browser = await pw.chromium.launch(
                executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
            )
            try:
                for width in (320, 390, 1366):
                    for lang in ("uk", "en"):
                        context = await browser.new_context(
                            viewport={"width": width, "height": 800}
                        )
                        page = await context.new_page()
                        url = f"/s/{settings.web_key}/puzzles?window=all&lang={lang}"
                        await page.goto(str(client.make_url(url)))
                        await page.evaluate("document.fonts.ready")
                        fits: Any = await page.evaluate(FITS)
                        where = (width, lang)
                        assert fits["page"] <= fits["view"], (where, fits)
                        assert fits["outside"] == [] and fits["hidden"] == [], (where, fits)
                        assert LONG_NAMES[users[0]] in await page.content()
                        await context.close()
            finally:
                await browser.close()
    finally:
        await client.close()
