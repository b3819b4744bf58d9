"""What a view of a finished replay costs the pages' process, kept (`ReplayCache`) or
rendered each time: CPU ms per view (`process_time`: the loop's Python and SQLite's
thread), over a real aiohttp server and store (the web tests' small site). Both ways in
the same run, alternating. Prints its table; `--write` puts it in docs/BENCHMARKS.md."""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from typing import Any, TypeVarTuple

from aiohttp.test_utils import TestClient, TestServer

from bench._report import write_section
from bot.storage import open_store
from bot.web import NoNames, create_app
from bot.web._cache import ReplayCache
from bot.web._keys import REPLAYS
from tests.bot.web.pages_site import populate

Args = TypeVarTuple("Args")


class _NoCharts:
    """A replay draws no chart: no chart worker is started."""

    async def render(self, chart: Callable[[*Args], bytes], *args: *Args) -> bytes | None:
        del chart, args
        return None


async def _views(client: TestClient[Any, Any], path: str, views: int) -> float:
    """CPU ms per view of `path`, `views` views one after another."""
    began = time.process_time()
    for _ in range(views):
        async with client.get(path) as answer:
            assert answer.status == 200
            await answer.read()
    return (time.process_time() - began) * 1000 / views


async def main_async(args: argparse.Namespace) -> str:
    load = os.getloadavg()[0]
    rows: dict[str, list[float]] = {"kept": [], "rendered each time": []}
    with tempfile.TemporaryDirectory(prefix="fd-replays-") as tmp:
        store = await open_store(f"sqlite+aiosqlite:///{tmp}/web.sqlite3")
        try:
            key = await populate(store)
            app = create_app(store, NoNames(), charts=_NoCharts())
            client: TestClient[Any, Any] = TestClient(TestServer(app))
            await client.start_server()
            try:
                path = f"/s/{key}/g/{'a' * 32}"
                await _views(client, path, 20)  # warm: templates, page key
                for _ in range(args.runs):
                    app[REPLAYS] = ReplayCache(3600.0)
                    rows["kept"].append(await _views(client, path, args.views))
                    app[REPLAYS] = ReplayCache(0.0)  # never fresh: each view renders
                    rows["rendered each time"].append(await _views(client, path, args.views))
            finally:
                await client.close()
        finally:
            await store.close()
    lines = [
        "## A finished replay's view, kept or rendered (`bench/bench_replay_views.py`)",
        "",
        f"CPU ms per view (the server's and the client's, one process), {args.views} views "
        f"of one finished replay a run, {args.runs} runs of each way alternating; "
        f"load average {load:.1f} at the start.",
        "",
        "| replay page | CPU ms per view, median | min | max |",
        "|---|---|---|---|",
    ]
    for name, samples in rows.items():
        lines.append(
            f"| {name} | {statistics.median(samples):.2f} | {min(samples):.2f} "
            f"| {max(samples):.2f} |"
        )
    ratio = statistics.median(rows["rendered each time"]) / statistics.median(rows["kept"])
    lines += ["", f"Rendered each time / kept: **{ratio:.1f}x** CPU per view."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--views", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--write", action="store_true", help="update docs/BENCHMARKS.md")
    args = parser.parse_args(argv)
    text = asyncio.run(main_async(args))
    print(text)
    if args.write:
        write_section("replay-views", text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
