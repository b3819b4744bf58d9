"""The web pages under load: a server's Qualification board with 100,000 games.

One server's games are bulk-loaded (`_storage_data`, bench_storage's data), its web
turned on, and the real aiohttp app served on a loopback port; `--clients` concurrent
clients then ask the all-time board for `--seconds`, twice: through the board cache (one
URL), and on the uncached path (a query the cache has not seen each time, so every
request runs the board's queries and renders the template). Prints pages/s and p50/p99
latency and writes the `web` section of docs/BENCHMARKS.md. SQLite by default;
`--postgres` a throwaway PostgreSQL server too.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import sys
import tempfile
import time
from typing import Any

import aiohttp
from aiohttp.test_utils import TestServer

from bench._postgres import throwaway_postgres
from bench._report import percentile, write_section
from bench._storage_data import Dataset, bulk_load
from bot.storage import open_store
from bot.web import create_app


async def _load(
    base: str, clients: int, seconds: float, unique: bool
) -> tuple[int, list[float], float]:
    counter = itertools.count()
    times: list[float] = []
    deadline = time.perf_counter() + seconds

    async def client(http: aiohttp.ClientSession) -> None:
        while time.perf_counter() < deadline:
            url = base + (f"&n={next(counter)}" if unique else "")
            began = time.perf_counter()
            async with http.get(url) as response:
                await response.read()
                assert response.status == 200, response.status
            times.append((time.perf_counter() - began) * 1000)

    began = time.perf_counter()
    async with aiohttp.ClientSession() as http:
        await asyncio.gather(*(client(http) for _ in range(clients)))
    return len(times), times, time.perf_counter() - began


async def run_one(url: str, data: Dataset, args: argparse.Namespace) -> dict[str, Any]:
    store = await open_store(url)
    try:
        print(f"  loading {data.games:,} games ...", file=sys.stderr)
        await bulk_load(store, data)
        guild = next(iter(data.players))
        key = (await store.servers.set_web(guild, True, 0.0)).web_key
        server = TestServer(create_app(store), host="127.0.0.1")
        await server.start_server()
        try:
            board = str(server.make_url(f"/s/{key}/?set=darts&period=all"))
            await _load(board, 1, 1.0, True)  # warm
            out: dict[str, Any] = {}
            for name, unique in (("cached", False), ("uncached", True)):
                count, times, took = await _load(board, args.clients, args.seconds, unique)
                out[name] = (count / took, percentile(times, 50), percentile(times, 99))
            return out
        finally:
            await server.close()
    finally:
        await store.close()


def report(data: Dataset, results: dict[str, dict[str, Any]], args: argparse.Namespace) -> str:
    lines = [
        "## Web pages (`bench/bench_web.py`)",
        "",
        f"The all-time Qualification board of one server with {data.games:,} games "
        f"({data.players_per_guild} players), {args.clients} concurrent clients for "
        f"{args.seconds:.0f} s each, the app and the clients in one process on loopback.",
        "",
        "| database | path | pages/s | p50 ms | p99 ms |",
        "|---|---|---|---|---|",
    ]
    for db, paths in results.items():
        for path, (rate, p50, p99) in paths.items():
            lines.append(f"| {db} | {path} | {rate:,.0f} | {p50:.1f} | {p99:.1f} |")
    return "\n".join(lines)


async def main_async(args: argparse.Namespace) -> int:
    results: dict[str, dict[str, Any]] = {}
    data = Dataset(args.games, args.games * 5, 1, args.players)
    with tempfile.TemporaryDirectory(prefix="fd-web-") as tmp:
        print("SQLite ...", file=sys.stderr)
        results["SQLite"] = await run_one(f"sqlite+aiosqlite:///{tmp}/web.sqlite3", data, args)
    if args.postgres:
        print("PostgreSQL ...", file=sys.stderr)
        with throwaway_postgres() as url:
            pg = Dataset(args.games, args.games * 5, 1, args.players)
            results["PostgreSQL"] = await run_one(url, pg, args)
    text = report(data, results, args)
    print(text)
    if not args.no_write:
        write_section("web", text)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--no-write", action="store_true", help="do not update docs/BENCHMARKS.md")
    return asyncio.run(main_async(parser.parse_args(argv)))


if __name__ == "__main__":
    raise SystemExit(main())
