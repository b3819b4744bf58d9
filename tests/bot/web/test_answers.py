"""What every answer of the pages carries, and what is kept: the security headers on
errors and 304s too, any `?page=`, gzip, a board served from memory, a finished replay
kept long, the player's chart drawn once off the loop. Real store, real aiohttp server."""

from __future__ import annotations

import asyncio
import contextlib
import gzip
from collections.abc import AsyncIterator, Callable, Collection, Iterator, Mapping
from pathlib import Path
from typing import Any, TypeVarTuple

import pytest
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import event

from bot.storage import Store, open_store
from bot.web import NoNames, create_app, serve
from bot.web._keys import DRAWN
from tests.bot.web.pages_site import ALICE, GUILD, Site, populate

Args = TypeVarTuple("Args")
SECURITY = ("Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy")


def secured(headers: Mapping[str, str]) -> bool:
    return all(name in headers for name in SECURITY)


class BrokenNames:
    """Names that fail: the page's handler raises, so the answer is a 500."""

    async def names(self, guild_id: int, user_ids: Collection[int]) -> Mapping[int, str]:
        raise RuntimeError("the names are gone")


class CountingCharts:
    """A chart renderer that draws nothing itself: it counts what it was asked and hands
    back a small SVG, as the worker process would."""

    def __init__(self) -> None:
        self.calls = 0

    async def render(self, chart: Callable[[*Args], bytes], *args: *Args) -> bytes | None:
        del chart, args
        self.calls += 1
        return b'<svg role="img" aria-label="drawn in the worker"></svg>'


@contextlib.contextmanager
def statements_run(store: Store) -> Iterator[list[str]]:
    """The SQL statements the store runs while the block runs."""
    statements: list[str] = []

    def count(*args: Any) -> None:
        statements.append(str(args[2]))

    engine = store.engine.sync_engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", count)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    store = await open_store(f"sqlite+aiosqlite:///{tmp_path}/web.sqlite3")
    try:
        yield store
    finally:
        await store.close()


async def _client(app: Any) -> TestClient[Any, Any]:
    client: TestClient[Any, Any] = TestClient(TestServer(app))
    await client.start_server()
    return client


async def test_every_answer_has_the_security_headers(site: Site) -> None:
    """200, 304, 404 and 405."""
    ok = await site.client.get(site.base)
    assert ok.status == 200 and secured(ok.headers)
    again = await site.client.get(site.base, headers={"If-None-Match": ok.headers["ETag"]})
    assert again.status == 304 and secured(again.headers)
    missing = await site.client.get("/s/" + "Z" * 20 + "/")
    assert missing.status == 404 and secured(missing.headers)
    posted = await site.client.post(site.base)
    assert posted.status == 405 and secured(posted.headers)


async def test_a_request_the_parser_refuses_is_a_400_with_the_security_headers(
    store: Store,
) -> None:
    """aiohttp answers it before any route is found (no middleware, no signal)."""
    async with serve(create_app(store, NoNames()), "127.0.0.1", 0) as runner:
        port = runner.addresses[0][1]
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET /rules HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n")
        answer = (await asyncio.wait_for(reader.read(), 30)).decode("latin-1")
        writer.close()
    head = answer.split("\r\n\r\n", 1)[0].lower()
    assert head.split(" ")[1] == "400", head
    assert all(name.lower() + ":" in head for name in SECURITY), head


async def test_a_500_has_the_security_headers_and_no_traceback(store: Store) -> None:
    key = await populate(store)
    client = await _client(create_app(store, BrokenNames()))
    try:
        answer = await client.get(f"/s/{key}/?period=all")
        assert answer.status == 500 and secured(answer.headers)
        assert "RuntimeError" not in await answer.text()
    finally:
        await client.close()


async def test_any_page_number_is_a_page(site: Site) -> None:
    """More than 4,300 digits once answered 500 (int() refuses them)."""
    for path in ("duel?page=", "?page=", "?period=all&page="):
        answer = await site.client.get(site.base + path + "9" * 5000)
        assert answer.status == 200, path


async def test_a_cached_board_is_served_without_a_query(site: Site) -> None:
    """The same board asked with its query written another way (`page=00`, parameters
    in another order) is the same page, from memory: no SQL statement at all, not even
    the page key's (whether the pages are still on is remembered too: `PageKeys`; that
    `/config web off` still takes effect at once is tests/bot/web/test_pages_on.py)."""
    first = await site.client.get(site.base + "?period=all&page=0")
    assert first.status == 200
    with statements_run(site.store) as statements:
        for same in ("?page=00&period=all", "?period=all&page=0&page=0", "?period=all"):
            answer = await site.client.get(site.base + same)
            assert answer.status == 200 and "Alice" in await answer.text(), same
    assert statements == []


async def test_pages_are_gzipped_for_a_client_that_takes_it(site: Site) -> None:
    for path in (site.base, f"{site.base}p/{ALICE}", f"{site.base}g/{'a' * 32}", "/rules"):
        answer = await site.client.get(path, headers={"Accept-Encoding": "gzip"})
        assert answer.status == 200, path
        assert answer.headers.get("Content-Encoding") == "gzip", path
        assert "Accept-Encoding" in answer.headers.get("Vary", ""), path
        assert "</html>" in await answer.text()  # the client unzips it


async def test_a_page_asked_again_is_served_gzipped_as_kept(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A cached board is the same bytes each time: compressed once, not per request (as
    aiohttp's own compression did, in an executor thread for every page over 4 KiB)."""
    compressed: list[int] = []
    real = gzip.compress

    def counting(data: bytes, *args: Any, **kwargs: Any) -> bytes:
        compressed.append(len(data))
        return real(data, *args, **kwargs)

    monkeypatch.setattr(gzip, "compress", counting)
    bodies = set()
    for _ in range(3):
        answer = await site.client.get(
            site.base + "?period=all", headers={"Accept-Encoding": "gzip"}, auto_decompress=False
        )
        assert answer.status == 200 and answer.headers["Content-Encoding"] == "gzip"
        bodies.add(await answer.read())
    assert len(compressed) == 1 and len(bodies) == 1
    assert b"Alice" in gzip.decompress(bodies.pop())
    plain = await site.client.get(site.base + "?period=all", headers={"Accept-Encoding": ""})
    assert "Content-Encoding" not in plain.headers and "Alice" in await plain.text()


async def test_a_finished_replay_is_kept_long_and_a_running_one_not_at_all(site: Site) -> None:
    done = await site.client.get(f"{site.base}g/{'a' * 32}")
    control = done.headers["Cache-Control"]
    assert done.status == 200 and "public" in control and "ETag" in done.headers
    assert int(control.split("max-age=")[1].split(",")[0]) >= 86400
    running = await site.client.get(f"{site.base}g/{'d' * 32}")
    assert running.headers["Cache-Control"] == "no-store"


async def test_a_finished_replay_is_served_from_memory(site: Site) -> None:
    """A flood of views of a finished replay (issue 29) costs one rendering: the views
    after the first ask the database nothing, the same page and headers; a running game's
    replay is asked each time; turning the pages off still answers 404 at once."""
    finished, running = f"{site.base}g/{'a' * 32}", f"{site.base}g/{'d' * 32}"
    first = await site.client.get(finished)
    assert first.status == 200
    with statements_run(site.store) as statements:
        for _ in range(3):
            again = await site.client.get(finished)
            assert again.status == 200 and await again.text() == await first.text()
            for header in ("Cache-Control", "ETag", "Content-Language", "Vary"):
                assert again.headers[header] == first.headers[header], header
        assert statements == []
        for _ in range(2):
            assert (await site.client.get(running)).status == 200
        assert statements  # not kept: its rounds are still being played
    await site.store.servers.set_web(GUILD, False, 0.0)
    assert (await site.client.get(finished)).status == 404


async def test_the_players_chart_is_drawn_by_the_renderer_once(store: Store) -> None:
    """Off the event loop (the renderer is the chart worker's process) and kept: a second
    view of the same games asks nothing more."""
    key = await populate(store)
    charts = CountingCharts()
    client = await _client(create_app(store, charts=charts))
    try:
        for lang in ("en", "en", "uk", "uk"):
            page = await client.get(f"/s/{key}/p/{ALICE}?lang={lang}")
            assert page.status == 200 and "drawn in the worker" in await page.text()
        assert charts.calls == 2  # once per language
    finally:
        await client.close()


def _drawn(html: str) -> bool:
    """Whether the page has a chart the worker drew (the streak calendar is not one)."""
    return html.count("<svg") > html.count('<svg class="cal"')


async def test_a_chart_the_worker_could_not_draw_leaves_the_page_without_it(
    store: Store,
) -> None:
    class Failing(CountingCharts):
        async def render(self, chart: Callable[[*Args], bytes], *args: *Args) -> bytes | None:
            self.calls += 1
            return None

    key = await populate(store)
    charts = Failing()
    client = await _client(create_app(store, charts=charts))
    try:
        page = await client.get(f"/s/{key}/p/{ALICE}")
        assert page.status == 200 and not _drawn(await page.text())
        assert charts.calls == 1
    finally:
        await client.close()


async def test_past_the_charts_being_drawn_a_page_comes_without_its_chart(
    store: Store,
) -> None:
    """A flood of players' pages queues nothing behind the chart worker: while it draws
    as many as it may, the next page is answered without its chart, and draws it later."""

    class Slow(CountingCharts):
        def __init__(self) -> None:
            super().__init__()
            self.go = asyncio.Event()
            self.asked = asyncio.Event()

        async def render(self, chart: Callable[[*Args], bytes], *args: *Args) -> bytes | None:
            self.calls += 1
            self.asked.set()
            await self.go.wait()
            return b"<svg>drawn slowly</svg>"

    key = await populate(store)
    charts = Slow()
    app = create_app(store, charts=charts)
    app[DRAWN].drawing = 1
    client = await _client(app)
    try:
        first = asyncio.create_task(client.get(f"/s/{key}/p/{ALICE}"))
        await asyncio.wait_for(charts.asked.wait(), 30)
        second = await asyncio.wait_for(client.get(f"/s/{key}/p/{ALICE}"), 30)
        assert second.status == 200 and not _drawn(await second.text())
        charts.go.set()
        assert "drawn slowly" in await (await first).text()
        third = await client.get(f"/s/{key}/p/{ALICE}")
        assert "drawn slowly" in await third.text() and charts.calls == 1
    finally:
        await client.close()
