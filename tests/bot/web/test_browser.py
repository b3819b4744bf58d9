"""The pages in a real browser: the distribution's headless Chromium driven by Playwright
(no browser download), with axe-core's accessibility check; a screenshot of each page is
saved under `build/web-shots/` (WEB_SHOTS) for a person to look at.

Skipped, saying why, where Playwright or the chromium executable is missing, unless
REQUIRE_BROWSER=1 (CI), where that fails.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.storage import open_store
from bot.web import create_app
from tests.bot.web import showcase
from tests.bot.web.pages_site import (
    ALICE,
    BOB,
    CAROL,
    DAVE,
    GUILD,
    HOSTILE,
    SECRET_DIGITS,
    Site,
    qualification,
    rated_duel,
    synced_commands,
    today,
)  # fmt: skip

playwright_api = pytest.importorskip("playwright.async_api")
axe_module = pytest.importorskip("axe_playwright_python.async_playwright")
CHROMIUM = (
    os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium executable (apt chromium)")
SHOTS = Path(os.environ.get("WEB_SHOTS", "build/web-shots"))
SERIOUS = {"serious", "critical"}


@pytest.fixture
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS


@pytest.fixture
async def browser(shots: Path) -> AsyncIterator[Any]:
    del shots
    async with playwright_api.async_playwright() as pw:
        launched = await pw.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            yield launched
        finally:
            await launched.close()


async def _open(browser: Any, site: Site, path: str, **context: Any) -> Any:
    page = await (await browser.new_context(**context)).new_page()
    response = await page.goto(str(site.client.make_url(path)))
    assert response is not None and response.status == 200, path
    return page


async def _check(browser: Any, site: Site, path: str, shot: str) -> None:
    """No serious axe violation (a context that lets axe's script in past the CSP), and a
    screenshot of the page as a phone shows it."""
    page = await _open(browser, site, path, bypass_csp=True, viewport={"width": 390, "height": 844})
    results = await axe_module.Axe().run(page)
    serious = [v["id"] for v in results.response["violations"] if v["impact"] in SERIOUS]
    assert serious == [], f"{path}: {results.generate_report()}"
    await page.screenshot(path=str(SHOTS / f"{shot}.png"), full_page=True)
    dark = await _open(browser, site, path, color_scheme="dark")
    await dark.screenshot(path=str(SHOTS / f"{shot}-dark.png"), full_page=True)


async def test_the_board_in_order_with_a_hostile_name_as_text(site: Site, browser: Any) -> None:
    page = await _open(browser, site, site.base + "?period=all")
    names = await page.locator("tbody th[scope=row]").all_inner_texts()
    assert names == ["Alice", HOSTILE, "Carol"]
    dialogs: list[str] = []
    page.on("dialog", lambda d: dialogs.append(d.message))
    assert await page.locator("b").count() == 0
    assert await page.evaluate("document.scripts.length") == 0
    assert dialogs == []
    await _check(browser, site, site.base + "?period=all", "board")
    await _check(browser, site, site.base + "duel", "duel")


async def test_the_replay_shows_each_round_and_the_best_answer(site: Site, browser: Any) -> None:
    path = f"{site.base}g/{'a' * 32}"
    page = await _open(browser, site, path)
    headings = await page.locator("main h2").all_inner_texts()
    assert headings == [f"Round {n} · Digits 1234" for n in range(1, 5)]
    assert "1*234 → Score 467" in await page.locator("main").inner_text()
    await _check(browser, site, path, "replay")


async def test_a_running_qualification_shows_nothing_of_its_digits(
    site: Site, browser: Any
) -> None:
    for path in (site.base, f"{site.base}g/{'d' * 32}", f"{site.base}p/{DAVE}"):
        page = await _open(browser, site, path)
        assert SECRET_DIGITS not in await page.content(), path
    await _check(browser, site, f"{site.base}g/{'d' * 32}", "replay-sealed")


async def test_the_switch_changes_the_language(site: Site, browser: Any) -> None:
    page = await _open(browser, site, "/rules", locale="en-US")
    assert await page.locator("h1").inner_text() == "The rules"
    await page.get_by_role("link", name="Українська").click()
    assert await page.locator("h1").inner_text() == "Правила"
    assert await page.locator("html").get_attribute("lang") == "uk"
    await _check(browser, site, "/rules?lang=uk", "rules-uk")


async def test_the_player_page(site: Site, browser: Any) -> None:
    path = f"{site.base}p/101"
    page = await _open(browser, site, path)
    labels = [await svg.get_attribute("aria-label")
              for svg in await page.locator("figure svg[role=img]").all()]  # fmt: skip
    assert labels == [
        "0\u00a0days with a finished Qualification in the last 17\u00a0weeks",
        "Score chart of the last games",
    ]
    await _check(browser, site, path, "player")


LAYOUT = """async () => {
  await document.fonts.ready;  // an emoji's fallback font may still be loading
  const tables = [...document.querySelectorAll('table')].map(t => {
    const box = t.closest('.scroll');
    const first = [...t.querySelectorAll('tbody tr:first-child > *')];
    return {
      width: t.scrollWidth, room: (box || t.parentElement).clientWidth,
      region: box !== null && box.tabIndex === 0 && !!box.getAttribute('aria-label'),
      rights: first.map(c => c.getBoundingClientRect().right),
    };
  });
  return {page: document.documentElement.scrollWidth, view: window.innerWidth, tables};
}"""


async def test_on_a_phone_nothing_scrolls_sideways_and_the_board_fits(
    site: Site, browser: Any
) -> None:
    """At 320 and 390 CSS pixels (small and common phones) no page is wider than the
    screen; a table wider than its room scrolls inside a labelled, focusable region; the
    board shows its whole table at 390 and at 320 still rank, player and Result without
    scrolling (it was 521 px in 358 once, cut after the Result)."""
    paths = [site.base + "?period=all", site.base + "duel", f"{site.base}p/101",
             f"{site.base}g/{'a' * 32}", f"{site.base}g/{'b' * 32}", "/rules?lang=uk",
             f"{site.base}rules?lang=en"]  # fmt: skip
    for width in (320, 390):
        for path in paths:
            page = await _open(browser, site, path, viewport={"width": width, "height": 800})
            layout = await page.evaluate(LAYOUT)
            assert layout["page"] <= layout["view"], (width, path, layout)
            for table in layout["tables"]:
                assert table["width"] <= table["room"] or table["region"], (width, path, table)
        board = await _open(
            browser, site, site.base + "?period=all", viewport={"width": width, "height": 800}
        )
        (table,) = (await board.evaluate(LAYOUT))["tables"]
        shown = table["rights"] if width == 390 else table["rights"][:3]
        assert max(shown) <= width, (width, table)
        await board.screenshot(path=str(SHOTS / f"board-{width}px.png"), full_page=True)


LONG_NAMES = {
    ALICE: "Олександра Костянтинівна Дніпропетровська-Запорізька",
    BOB: "Найкращийгравецьусієїкваліфікаціїкиївськоїобласті",
    CAROL: "Христина 🎯 Верховна-Вишгородська",
    DAVE: "Dave",
}
"""Long Ukrainian names, one a single word longer than a small phone's screen."""

FITS = """() => {
  const view = window.innerWidth;
  const cells = [...document.querySelectorAll('main tbody td, main tbody th, main li, main p')]
    .filter(c => c.getClientRects().length > 0);
  const outside = cells.filter(c => {
    const box = c.getBoundingClientRect();
    return box.right > view + 1 || box.left < -1;
  }).map(c => c.tagName + ': ' + c.textContent.trim().slice(0, 40));
  // a card shows its labels itself: the visually hidden header is no hidden column
  const hidden = [...document.querySelectorAll('main *')].filter(e =>
    !e.closest('pre, thead') && getComputedStyle(e).overflowX !== 'visible'
    && e.scrollWidth > e.clientWidth + 1).map(e => e.tagName + '.' + e.className);
  return {page: document.documentElement.scrollWidth, view, outside, hidden};
}"""


@pytest.fixture(autouse=True)
def _synced() -> Iterator[None]:
    """Every page as after the bot synced its commands in the process (as in a full run,
    where a bot test came first): the rules page then held Discord mentions, one long
    word each, and measured 337 px at 320 (never when run alone)."""
    with synced_commands():
        yield


@pytest.mark.parametrize("width", [320, 390, 1366])
async def test_every_page_fits_a_phone_with_long_names_and_ids(
    site: Site, browser: Any, width: int
) -> None:
    """At 320, 390 and 1366 CSS pixels, with long Ukrainian names and a long Set name: no
    page scrolls sideways, no cell is off-screen, nothing is hidden in a scrolled box
    (a phone reads each row as a card). Screenshots of every page, uk and en, phone and
    desktop, are saved for a person to look at. One test a width, so the suite's
    workers share the 66 pages."""
    await site.store.names.remember(GUILD, LONG_NAMES, 2.0)
    long_set = "кваліфікація-для-найдовших-назв-сетів"
    await qualification(site.store, GUILD, "7" * 32, 105, [100.0] * 6 + [0.009787928221854258])
    paths = {
        "board": site.base + "?period=all", "duel": site.base + "duel",
        "player": f"{site.base}p/{ALICE}", "replay": f"{site.base}g/{'a' * 32}",
        "replay-decimals": f"{site.base}g/{'7' * 32}", "replay-hostile": f"{site.base}g/{'b' * 32}",
        "not-found": f"{site.base}nowhere",
        "board-long-set": site.base + f"?period=all&set={long_set}",
        "rules": site.base + "rules", "day-board": site.base + "?day=2026-01-01",
        "puzzles": site.base + "puzzles",
    }  # fmt: skip
    await site.store.servers.name_server(GUILD, "Київський клуб дартсу «Формула»", 2.0)
    await rated_duel(site.store, "f" * 32, 1_767_229_200.0)  # the player page's Elo chart
    await qualification(site.store, GUILD, "9" * 32, ALICE, [100, 100, 100, 51], period=today())
    for lang in ("uk", "en"):
        for name, path in paths.items():
            page = await (
                await browser.new_context(viewport={"width": width, "height": 800})
            ).new_page()
            sep = "&" if "?" in path else "?"
            await page.goto(str(site.client.make_url(f"{path}{sep}lang={lang}")))
            await page.evaluate("document.fonts.ready")  # measured as it is read
            fits = await page.evaluate(FITS)
            where = (width, lang, name)
            assert fits["page"] <= fits["view"], (where, fits)
            assert fits["outside"] == [] and fits["hidden"] == [], (where, fits)
            shot = SHOTS / f"{name}-{lang}-{width}px.png"
            await page.screenshot(path=str(shot), full_page=True)
            await page.context.close()


async def test_the_readmes_screenshots(tmp_path: Path, browser: Any) -> None:
    """A realistic board and a duel replay on a phone, for docs/web-board.png and
    docs/web-replay.png (copied from build/web-shots by hand after a look)."""
    store = await open_store(f"sqlite+aiosqlite:///{tmp_path}/showcase.sqlite3")
    key, duel = await showcase.populate(store)
    client = TestClient(TestServer(create_app(store)))
    await client.start_server()
    try:
        for name, path in (("board", f"/s/{key}/?period=all"), ("replay", f"/s/{key}/g/{duel}")):
            context = await browser.new_context(
                viewport={"width": 390, "height": 844}, device_scale_factor=2
            )
            page = await context.new_page()
            response = await page.goto(str(client.make_url(f"{path}&lang=uk" if "?" in path
                                                           else f"{path}?lang=uk")))  # fmt: skip
            assert response is not None and response.status == 200, path
            await page.evaluate("document.fonts.ready")
            await page.screenshot(path=str(SHOTS / f"readme-{name}.png"))  # one phone screen
            await context.close()
    finally:
        await client.close()
        await store.close()
