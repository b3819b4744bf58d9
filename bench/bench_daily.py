"""Daily-post benchmark: the database time of one server's daily post with 5,000 players
on the day's board, in SQLite and in PostgreSQL.

The server's games (5,000 players' Qualification on the posted day and on the days
either side, each round with its answer) are saved through the Store's own `save_game`
code, a few hundred games per transaction. Then `DailyPosts.run_due` is timed with a
channel that only records (no Discord): everything the post reads and writes (the
claim, the day's board, its count and Perfects, each round's best answer, the done
mark). The claim row is deleted between samples, untimed.

    python -m bench.bench_daily                    # both databases, writes docs/BENCHMARKS.md
    python -m bench.bench_daily --players 500 --no-write   # a quick look
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa

import rules
from bench._postgres import throwaway_postgres
from bench._report import percentile, write_section
from bot.common import SetsDirectory
from bot.daily import DailyContent, DailyPosts
from bot.storage import GameMeta, GameRecord, Store, _games, open_store
from bot.storage._posts import posts_t

GUILD = 900_000_000_000_000_001
DAYS = ["2026-03-01", "2026-03-02", "2026-03-03"]
POSTED = DAYS[1]
AFTER = datetime(2026, 3, 3, 0, 0, 30, tzinfo=UTC).timestamp()
CHUNK = 250


class Recorded:
    def __init__(self) -> None:
        self.posted: list[DailyContent] = []

    async def post(self, channel_id: int, content: DailyContent) -> int | None:
        self.posted.append(content)
        return channel_id


def _game(rng: random.Random, day: str, player: int) -> GameRecord:
    game_set = rules.CLASSIC
    state = rules.new_game(
        f"{day}-{player:08d}".replace("-", "")[:32].ljust(32, "0"),
        rules.Mode.QUALIFICATION,
        game_set,
        [str(800_000_000_000_000_000 + player)],
    )
    now = 1000.0
    for number in range(1, game_set.max_rounds + 1):
        state = rules.apply(state, rules.StartRound(str(1000 + number * 1111 % 9000), now))
        result = rng.choice([100, 100, 99, 51, 50, 1, rng.randint(1, 300)])
        formula = f"{rng.randint(1, 99)}+{rng.randint(1, 99)}"
        now += rng.uniform(3, 100)
        state = rules.apply(state, rules.Submit(state.players[0], formula, result, now))
        if state.outcome is not None:
            break
    if state.outcome is None:
        state = rules.apply(state, rules.Resign(state.players[0]))
    return GameRecord(
        state=state,
        guild_id=GUILD,
        channel_id=1,
        period=day,
        seed="seed",
        meta=GameMeta(),
        created_at=1_772_323_200.0,
    )


async def load(store: Store, players: int) -> tuple[float, int]:
    rng = random.Random(1)
    began = time.perf_counter()
    games = 0
    for day in DAYS:
        for start in range(0, players, CHUNK):
            records = [_game(rng, day, p) for p in range(start, min(players, start + CHUNK))]
            async with store.engine.begin() as conn:
                for record in records:
                    await _games.save(conn, record, None)
            games += len(records)
    await store.servers.update(GUILD, 0.0, channel_id=1)
    return time.perf_counter() - began, games


async def measure(store: Store, samples: int) -> dict[str, list[float]]:
    channel = Recorded()
    daily = DailyPosts(
        store, SetsDirectory(store, {"darts": rules.CLASSIC}), channel, clock=lambda: AFTER
    )
    times: dict[str, list[float]] = {"run_due (the whole post)": [], "summary": []}
    for _ in range(samples):
        async with store.engine.begin() as conn:
            await conn.execute(sa.delete(posts_t))
        began = time.perf_counter()
        due = await daily.run_due()
        times["run_due (the whole post)"].append((time.perf_counter() - began) * 1000)
        assert due.made == 1, due
        began = time.perf_counter()
        await store.servers.summary(GUILD, "darts", POSTED)
        times["summary"].append((time.perf_counter() - began) * 1000)
    last = channel.posted[-1].summary
    times["_players"] = [float(last.players)]
    times["_rounds"] = [float(len(last.rounds))]
    return times


async def run_one(url: str, players: int, samples: int) -> dict[str, Any]:
    store = await open_store(url)
    try:
        seconds, games = await load(store, players)
        print(f"  loaded {games} games in {seconds:.0f} s", file=sys.stderr)
        return {"load": seconds, "games": games, "times": await measure(store, samples)}
    finally:
        await store.close()


def report(players: int, results: dict[str, dict[str, Any]], samples: int) -> str:
    lines = [
        "## Daily post (`bench/bench_daily.py`)",
        "",
        f"One server, {players:,} players on the posted day's board and as many on each day"
        " either side (Qualification, darts, up to 7 rounds with one answer each), saved"
        " through the Store's `save_game`. `run_due` is the whole post's database work"
        " (claim, board top 10, player count, Perfects, each round's best answer, done"
        f" mark) with a channel that only records; {samples} samples. Times in ms."
        " Target: under 1 s per server.",
        "",
        "| database | games loaded | players on the board | measured | p50 | p99 | max |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, result in results.items():
        times = result["times"]
        shown = [k for k in times if not k.startswith("_")]
        for index, key in enumerate(shown):
            head = (
                f"| {name} | {result['games']:,} | {int(times['_players'][0]):,} "
                if index == 0
                else "| | | "
            )
            samples_ = times[key]
            lines.append(
                f"{head}| {key} | {percentile(samples_, 50):.1f} | "
                f"{percentile(samples_, 99):.1f} | {max(samples_):.1f} |"
            )
    return "\n".join(lines)


async def main_async(args: argparse.Namespace) -> int:
    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="fd-bench-daily-") as tmp:
        print("SQLite ...", file=sys.stderr)
        results["SQLite"] = await run_one(
            f"sqlite+aiosqlite:///{tmp}/daily.sqlite3", args.players, args.samples
        )
    if not args.skip_postgres:
        print("PostgreSQL ...", file=sys.stderr)
        with throwaway_postgres() as url:
            results["PostgreSQL"] = await run_one(url, args.players, args.samples)
    text = report(args.players, results, args.samples)
    print(text)
    if not args.no_write:
        write_section("daily", text)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--players", type=int, default=5_000)
    parser.add_argument("--samples", type=int, default=20)
    parser.add_argument("--skip-postgres", action="store_true")
    parser.add_argument("--no-write", action="store_true", help="do not update docs/BENCHMARKS.md")
    return asyncio.run(main_async(parser.parse_args(argv)))


if __name__ == "__main__":
    raise SystemExit(main())
