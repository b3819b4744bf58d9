"""`formula-darts web` serves the pages alone over the bot's database (the bot's own child
on WEB_PORT is this command: tests/bot/web/test_pages_child.py)."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import aiohttp

from bot.cli import build_parser
from bot.cli._web import _serve
from bot.settings import BotSettings
from bot.storage import open_store
from tests.bot.web.pages_site import populate


def _settings(tmp_path: Path, port: int | None) -> BotSettings:
    url = f"sqlite+aiosqlite:///{tmp_path}/web.sqlite3"
    return BotSettings(discord_token=None, database_url=url, web_port=port)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_formula_darts_web_serves_the_same_database_alone(tmp_path: Path) -> None:
    url = _settings(tmp_path, None).database_url
    store = await open_store(url)
    try:
        key = await populate(store)
    finally:
        await store.close()
    args = build_parser().parse_args(["web", "--url", url, "--port", "1"])
    assert (args.command, args.port, args.host) == ("web", 1, None)
    port = _free_port()
    served = asyncio.create_task(_serve(url, "127.0.0.1", port))
    try:
        async with aiohttp.ClientSession() as http:
            for _ in range(100):
                try:
                    page = await http.get(f"http://127.0.0.1:{port}/s/{key}/?period=all")
                    break
                except aiohttp.ClientConnectionError:
                    await asyncio.sleep(0.05)
            assert page.status == 200
            text = await page.text()
            # no Discord here: the names the bot kept in the store (it said "Player …101")
            assert "Alice" in text and "Player …" not in text
    finally:
        served.cancel()
        await asyncio.gather(served, return_exceptions=True)
