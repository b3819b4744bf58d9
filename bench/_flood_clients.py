"""The web flood bench's clients (`bench/bench_web_flood.py`), each a process of its own
so their work is not the served process's: an honest reader, a flood of page readers, a
slow-loris. `python -m bench._flood_clients --role ...` prints one JSON line."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import sys
import time
from collections import Counter
from typing import Any

import aiohttp


def _unlimit() -> None:
    """A client process may hold as many sockets as the machine allows."""
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


async def _honest(base: str, players: list[str], seconds: float) -> dict[str, Any]:
    """One reader at a time, a board then a player page: what each answer was, how long."""
    statuses: Counter[str] = Counter()
    times: list[float] = []
    deadline = time.perf_counter() + seconds
    timeout = aiohttp.ClientTimeout(total=15)
    async with aiohttp.ClientSession(timeout=timeout) as http:
        n = 0
        while time.perf_counter() < deadline:
            path = "?period=all" if n % 2 == 0 else f"p/{players[n % len(players)]}"
            n += 1
            began = time.perf_counter()
            try:
                async with http.get(base + path) as answer:
                    await answer.read()
                    statuses[str(answer.status)] += 1
                    if answer.status == 200:
                        times.append(time.perf_counter() - began)
            except (aiohttp.ClientError, TimeoutError) as exc:
                statuses[type(exc).__name__] += 1
            await asyncio.sleep(0.05)
    return {"statuses": dict(statuses), "times": times}


async def _flood(
    base: str, players: list[str], games: list[str], seconds: float, clients: int
) -> dict[str, Any]:
    """`clients` readers as fast as answered: odd ones player pages, even ones replays."""
    statuses: Counter[str] = Counter()
    deadline = time.perf_counter() + seconds
    timeout = aiohttp.ClientTimeout(total=15)
    connector = aiohttp.TCPConnector(limit=clients)

    async def client(http: aiohttp.ClientSession, first: int) -> None:
        n = first
        while time.perf_counter() < deadline:
            n += clients
            lang = "uk" if (n // len(players)) % 2 else "en"
            path = (
                f"p/{players[n % len(players)]}"
                if first % 2 or not games
                else (f"g/{games[n % len(games)]}")
            )
            try:
                async with http.get(f"{base}{path}?lang={lang}") as a:
                    await a.read()
                    statuses[str(a.status)] += 1
            except (aiohttp.ClientError, TimeoutError) as exc:
                statuses[type(exc).__name__] += 1

    async with aiohttp.ClientSession(timeout=timeout, connector=connector) as http:
        await asyncio.gather(*(client(http, i) for i in range(clients)))
    return {"statuses": dict(statuses)}


async def _loris(port: int, count: int, seconds: float) -> dict[str, Any]:
    """`count` connections that never finish their headers, each reopened when closed."""
    opened = closed = 0
    deadline = time.perf_counter() + seconds

    async def one() -> None:
        nonlocal opened, closed
        while time.perf_counter() < deadline:
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
            except OSError:
                await asyncio.sleep(1)
                continue
            opened += 1
            try:
                writer.write(b"GET /rules HTTP/1.1\r\nHost: x\r\n")
                while time.perf_counter() < deadline and not reader.at_eof():
                    writer.write(b"X")
                    await writer.drain()
                    try:
                        await asyncio.wait_for(reader.read(1024), 1.0)
                    except TimeoutError:
                        continue
            except OSError:
                pass
            finally:
                closed += 1
                writer.close()

    await asyncio.gather(*(one() for _ in range(count)))
    return {"opened": opened, "closed": closed}


async def _client(args: argparse.Namespace) -> None:
    _unlimit()
    if args.nice:  # a hostile client standing for one elsewhere (`--hostile-nice`)
        os.nice(args.nice)
    players = args.players.split(",") if args.players else []
    if args.role == "honest":
        out = await _honest(args.base, players, args.seconds)
    elif args.role == "flood":
        games = args.games_flooded.split(",") if args.games_flooded else []
        out = await _flood(args.base, players, games, args.seconds, args.clients)
    else:
        out = await _loris(args.port, args.loris, args.seconds)
    print(json.dumps(out), flush=True)


async def spawn(role: str, *extra: str) -> asyncio.subprocess.Process:
    """Start one client; `result` reads what it found."""
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bench._flood_clients", "--role", role, *extra,
        stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip


async def result(process: asyncio.subprocess.Process) -> dict[str, Any]:
    out, _ = await process.communicate()
    return dict(json.loads(out.decode().strip().splitlines()[-1]))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--role", choices=("honest", "flood", "loris"), required=True)
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("--base")
    parser.add_argument("--port", type=int)
    parser.add_argument("--players")
    parser.add_argument("--games-flooded")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--loris", type=int, default=800)
    parser.add_argument("--nice", type=int, default=0)
    asyncio.run(_client(parser.parse_args(argv)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
