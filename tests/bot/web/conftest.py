"""The `site` fixture: a store with one server's games (`pages_site.populate`) and the
web app over it, served on a real loopback port by aiohttp's test server."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.charts import ChartRenderer
from bot.web import create_app
from tests.bot.web.pages_site import Site, populate
from tests.support.head_template import open_head_store


@pytest.fixture
async def site(tmp_path: Path, page_charts: ChartRenderer) -> AsyncIterator[Site]:
    store = await open_head_store(f"sqlite+aiosqlite:///{tmp_path}/web.sqlite3")
    key = await populate(store)
    client = TestClient(TestServer(create_app(store, charts=page_charts)))
    await client.start_server()
    try:
        yield Site(store, client, key)
    finally:
        await client.close()
        await store.close()
