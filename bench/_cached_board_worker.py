"""One tree's cached board page; `bench_cached_board.py` starts it with only that tree on
the path (`bench_service.isolated`). Prints one JSON object: CPU per cached page and SQL
statements per cached page."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from typing import Any

from aiohttp import ClientSession
from aiohttp.test_utils import TestServer
from sqlalchemy import event

from bot.storage import open_store
from bot.web import create_app

GUILD = 900_000_000_000_000_000


async def measure(pages: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="fd-cached-board-") as tmp:
        store = await open_store(f"sqlite+aiosqlite:///{tmp}/web.sqlite3")
        key = (await store.servers.set_web(GUILD, True, 1.0)).web_key
        server = TestServer(create_app(store))
        await server.start_server()
        statements = 0

        def count(*args: Any) -> None:
            nonlocal statements
            statements += 1

        try:
            url = str(server.make_url(f"/s/{key}/?period=all"))
            async with ClientSession() as http:
                async with http.get(url) as first:  # the one uncached page
                    assert first.status == 200, first.status
                    await first.read()
                event.listen(store.engine.sync_engine, "before_cursor_execute", count)
                cpu = time.process_time()
                for _ in range(pages):
                    async with http.get(url) as answer:
                        assert answer.status == 200, answer.status
                        await answer.read()
                used = time.process_time() - cpu
        finally:
            await server.close()
            await store.close()
    return {"cpu_us": used / pages * 1e6, "statements": statements / pages}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", type=int, default=2000)
    args = parser.parse_args()
    result = asyncio.run(measure(args.pages))
    result["modules"] = {
        name: [module.__file__] if module.__file__ else list(getattr(module, "__path__", []))
        for name, module in list(sys.modules.items())
        if name.split(".")[0] in ("bot", "rules", "evaluator", "solver")
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
