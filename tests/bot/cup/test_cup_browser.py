"""The Cup pages in headless Chromium (Playwright, the distribution's chromium): at a
small phone, a common phone and a desktop width nothing scrolls sideways, and axe finds
no serious accessibility problem. Skipped without Playwright or chromium, as
tests/bot/web/test_browser.py is."""

from __future__ import annotations

import os
import shutil
from typing import Any

import pytest
from aiohttp.test_utils import TestClient

playwright_api = pytest.importorskip("playwright.async_api")
axe_module = pytest.importorskip("axe_playwright_python.async_playwright")
CHROMIUM = (
    os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium executable (apt chromium)")
SERIOUS = {"serious", "critical"}
WIDTH = "() => ({page: document.documentElement.scrollWidth, view: window.innerWidth})"


async def test_the_cup_pages_fit_a_phone_and_a_desktop(cup_site: tuple[TestClient, str]) -> None:
    http, base = cup_site
    async with playwright_api.async_playwright() as pw:
        browser: Any = await pw.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            for width in (320, 390, 1366):
                context = await browser.new_context(
                    bypass_csp=True, viewport={"width": width, "height": 800}
                )
                page = await context.new_page()
                for path in (base + "cups", base + "cup/11", base + "cup/11?lang=uk"):
                    response = await page.goto(str(http.make_url(path)))
                    assert response is not None and response.status == 200, path
                    layout = await page.evaluate(WIDTH)
                    assert layout["page"] <= layout["view"], (width, path, layout)
                    if width == 390 and "lang" not in path:  # axe is slow: one width
                        results = await axe_module.Axe().run(page)
                        serious = [v["id"] for v in results.response["violations"]
                                   if v["impact"] in SERIOUS]  # fmt: skip
                        assert serious == [], (width, path, serious)
                await context.close()
        finally:
            await browser.close()
