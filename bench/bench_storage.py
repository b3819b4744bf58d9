"""Storage benchmark: 100,000 games and 1,000,000 rounds in SQLite and in PostgreSQL.

The rows are produced by the same codec the Store writes with (so the data has
production's shape and indexes) and bulk-loaded (`_storage_data`: executemany on SQLite,
COPY on PostgreSQL), then the read queries the bot's commands use are timed through the
Store, and so is the write path: `save_game` after each step of fresh games.

    python -m bench.bench_storage                  # both databases, writes docs/BENCHMARKS.md
    python -m bench.bench_storage --games 2000 --rounds 20000 --no-write   # a quick look
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import random
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from typing import Any

import sqlalchemy as sa

import rules
from bench._postgres import throwaway_postgres
from bench._report import percentile, write_section
from bench._storage_data import SETS, TODAY, WEEK_START, Dataset, bulk_load
from bot.storage import GameRecord, Store, open_store


async def timed(samples: int, call: Callable[[], Awaitable[object]]) -> list[float]:
    times = []
    for _ in range(samples):
        began = time.perf_counter()
        await call()
        times.append((time.perf_counter() - began) * 1000)
    return times


async def measure(store: Store, data: Dataset, samples: int) -> dict[str, list[float]]:
    rng = random.Random(data.seed + 2)
    guilds = list(data.players)

    def qualification() -> Awaitable[object]:
        since = rng.choice([None, WEEK_START, TODAY])
        return store.boards.qualification_leaderboard(
            rng.choice(guilds), rng.choice(SETS).name, since
        )

    def duel() -> Awaitable[object]:
        return store.boards.duel_leaderboard(rng.choice(guilds), offset=rng.choice([0, 0, 10, 100]))

    def stats() -> Awaitable[object]:
        guild = rng.choice(guilds)
        return store.boards.player_stats(guild, int(rng.choice(data.players[guild])))

    def history() -> Awaitable[object]:
        guild = rng.choice(guilds)
        return store.games.history(guild, int(rng.choice(data.players[guild])))

    results = {
        "qualification_leaderboard": await timed(samples, qualification),
        "duel_leaderboard": await timed(samples, duel),
        "player_stats": await timed(samples, stats),
        "history (10 games)": await timed(samples, history),
    }
    guild = guilds[0]
    results["save_game per step"], results["write per round"] = await _writes(
        store, rng, guild, samples
    )
    return results


async def _writes(
    store: Store, rng: random.Random, guild: int, samples: int
) -> tuple[list[float], list[float]]:
    """Fresh Qualification games played through the rules, saved after every step."""
    steps: list[float] = []
    per_round: list[float] = []
    game_index = 0
    while len(per_round) < samples:
        game_index += 1
        player = str(700_000_000_000_000_000 + game_index)
        state = rules.new_game(f"w{game_index}", rules.Mode.QUALIFICATION, rules.CLASSIC, [player])
        record = GameRecord(state=state, guild_id=guild, channel_id=1, period=TODAY, seed="bench")
        await store.games.save_game(record)
        now = time.time()
        while record.state.outcome is None and len(per_round) < samples:
            spent = 0.0
            for action in (
                rules.StartRound(str(rng.randint(1000, 9999)), now),
                rules.Submit(player, "12+34", rng.randint(1, 300), now + 5),
            ):
                record = dataclasses.replace(record, state=rules.apply(record.state, action))
                began = time.perf_counter()
                await store.games.save_game(record)
                elapsed = (time.perf_counter() - began) * 1000
                steps.append(elapsed)
                spent += elapsed
            per_round.append(spent)
    return steps, per_round


async def run_one(url: str, data: Dataset, samples: int) -> dict[str, Any]:
    store = await open_store(url)
    try:
        load = await bulk_load(store, data)
        async with store.engine.connect() as conn:
            size = await _size(conn)
        print(f"  loaded in {load:.1f} s ({size})", file=sys.stderr)
        timings = await measure(store, data, samples)
    finally:
        await store.close()
    return {"load": load, "size": size, "timings": timings}


async def _size(conn: Any) -> str:
    if conn.dialect.name == "postgresql":
        value = await conn.scalar(sa.select(sa.func.pg_database_size(sa.func.current_database())))
    else:
        pages = await conn.scalar(sa.text("PRAGMA page_count"))
        page = await conn.scalar(sa.text("PRAGMA page_size"))
        value = pages * page
    return f"{value / 2**20:.0f} MiB"


def report(data: Dataset, results: dict[str, dict[str, Any]], samples: int) -> str:
    lines = [
        "## Storage",
        "",
        f"{data.games:,} games ({data.loaded_rounds:,} rounds, {data.loaded_answers:,} answers) "
        f"over {data.guilds} servers with {data.players_per_guild} players each; half of the "
        "games Qualification over 90 daily periods and 3 Sets, a fifth duels. "
        f"{samples} samples per query, random server/Set/period/player. Times in ms. "
        "SQLite: one file, WAL, synchronous=NORMAL. PostgreSQL: a local throwaway cluster "
        "(fsync on, shared_buffers 512MB) over TCP loopback.",
        "",
        "| database | bulk load | size | query | p50 | p99 |",
        "|---|---|---|---|---|---|",
    ]
    for name, result in results.items():
        first = True
        for query, times in result["timings"].items():
            head = f"| {name} | {result['load']:.0f} s | {result['size']} " if first else "| | | "
            lines.append(
                f"{head}| {query} | {percentile(times, 50):.2f} | {percentile(times, 99):.2f} |"
            )
            first = False
    lines += [
        "",
        "`write per round` is the two `save_game` calls of one round (start, then the answer"
        " that resolves it), each one transaction with the stale-write check. Leaderboard target:"
        " p50 under 20 ms on both.",
    ]
    return "\n".join(lines)


async def main_async(args: argparse.Namespace) -> int:
    data = Dataset(args.games, args.rounds, args.guilds, args.players)
    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="fd-bench-") as tmp:
        print("SQLite ...", file=sys.stderr)
        results["SQLite"] = await run_one(
            f"sqlite+aiosqlite:///{tmp}/bench.sqlite3", data, args.samples
        )
    if not args.skip_postgres:
        print("PostgreSQL ...", file=sys.stderr)
        pg_data = Dataset(args.games, args.rounds, args.guilds, args.players)
        if args.postgres_url:
            results["PostgreSQL"] = await run_one(args.postgres_url, pg_data, args.samples)
        else:
            with throwaway_postgres() as url:
                results["PostgreSQL"] = await run_one(url, pg_data, args.samples)
    text = report(data, results, args.samples)
    print(text)
    if not args.no_write:
        write_section("storage", text)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--rounds", type=int, default=1_000_000)
    parser.add_argument("--guilds", type=int, default=10)
    parser.add_argument("--players", type=int, default=500, help="players per server")
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--postgres-url", help="an empty database to use instead of a throwaway")
    parser.add_argument("--skip-postgres", action="store_true")
    parser.add_argument("--no-write", action="store_true", help="do not update docs/BENCHMARKS.md")
    return asyncio.run(main_async(parser.parse_args(argv)))


if __name__ == "__main__":
    raise SystemExit(main())
