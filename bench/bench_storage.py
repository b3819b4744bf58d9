"""Storage benchmark: 100,000 games and 1,000,000 rounds in SQLite and in PostgreSQL.

The rows are produced by the same codec the Store writes with (so the data has
production's shape and indexes), bulk-loaded (executemany on SQLite, COPY on
PostgreSQL), then the read queries the bot's commands use are timed through the
Store, and so is the write path: `save_game` after each step of fresh games.

    python -m bench.bench_storage                  # both databases, writes docs/BENCHMARKS.md
    python -m bench.bench_storage --games 2000 --rounds 20000 --no-write   # a quick look
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import sqlalchemy as sa

import rules
from bench._report import percentile, write_section
from bot.storage import GameMeta, GameRecord, Store, open_store
from bot.storage import _codec as codec
from bot.storage._models import (
    AnswerRow,
    Game,
    GamePlayer,
    Player,
    Rating,
    RoundRow,
    Server,
    table,
)

DAYS = [f"2026-{month:02d}-{day:02d}" for month in (9, 10, 11) for day in range(1, 31)]
TODAY = DAYS[-1]
WEEK_START = DAYS[-7]
SETS = [
    rules.CLASSIC,
    rules.GameSet("blitz", 501, 100, 50, 12, 30, 4),
    rules.GameSet("marathon", 1001, 100, 50, 20, 120, 7),
]
LOAD_CHUNK = 5_000


@dataclass
class Dataset:
    games: int
    rounds: int
    guilds: int
    players_per_guild: int
    seed: int = 1
    loaded_rounds: int = 0
    loaded_answers: int = 0
    players: dict[int, list[str]] = field(default_factory=dict)


def _guild_id(index: int) -> int:
    return 900_000_000_000_000_000 + index


def _player_id(guild: int, index: int) -> str:
    return str(800_000_000_000_000_000 + guild * 100_000 + index)


def _synthetic_state(
    rng: random.Random,
    game_id: str,
    mode: rules.Mode,
    players: list[str],
    game_set: rules.GameSet,
    rounds: int,
    finished: bool,
) -> rules.GameState:
    """A plausible game built directly (not through apply) so 100k of them take seconds."""
    scores: list[rules.Number] = [game_set.start_score] * len(players)
    played: list[rules.Round] = []
    start = 1_790_000_000.0 + rng.random() * 8_000_000
    for number in range(1, rounds + 1):
        answers: list[rules.Answer | None] = []
        for seat in range(len(players)):
            result: rules.Number = rng.randint(1, 400) if rng.random() < 0.9 else rng.random() * 300
            points, score = rules.apply_points(scores[seat], result, game_set.goal, game_set.bonus)
            scores[seat] = score
            answers.append(
                rules.Answer(
                    "12+34", result, points, score, rng.random() * 60, auto=rng.random() < 0.05
                )
            )
        began = start + number * 150
        played.append(
            rules.Round(
                number,
                str(rng.randint(1000, 9999)),
                began,
                began + game_set.time_limit,
                answers,
                resolved=True,
            )
        )
    outcome = None
    if finished:
        roll = rng.random()
        if roll < 0.45:
            scores[0] = 0
            outcome = rules.Outcome(
                rules.Termination.CHECKOUT, 0, rounds, rounds <= game_set.min_rounds
            )
        elif roll < 0.85:
            outcome = rules.Outcome(
                rules.Termination.MAX_ROUNDS, None if mode is rules.Mode.DUEL else 0, rounds
            )
        else:
            outcome = rules.Outcome(rules.Termination.TIMEOUT, None, rounds)
    elif played:
        played[-1].resolved = False
    return rules.GameState(game_id, mode, game_set, players, scores, played, outcome)


def generate(data: Dataset) -> Iterator[dict[str, list[dict[str, Any]]]]:
    """Rows per table, in chunks; round counts are drawn so the total is `data.rounds`."""
    rng = random.Random(data.seed)
    mean = data.rounds / data.games
    for guild in range(data.guilds):
        data.players[_guild_id(guild)] = [
            _player_id(guild, i) for i in range(data.players_per_guild)
        ]
    chunk: dict[str, list[dict[str, Any]]] = {
        "games": [],
        "game_players": [],
        "rounds": [],
        "answers": [],
    }
    rounds_left = data.rounds
    for index in range(data.games):
        guild = _guild_id(rng.randrange(data.guilds))
        roll = rng.random()
        mode = (
            rules.Mode.QUALIFICATION
            if roll < 0.5
            else rules.Mode.TRAINING
            if roll < 0.8
            else rules.Mode.DUEL
        )
        players = rng.sample(data.players[guild], mode.players)
        game_set = SETS[rng.randrange(len(SETS))]
        games_left = data.games - index
        target = rounds_left / games_left if games_left else mean
        rounds = max(1, min(game_set.max_rounds, round(rng.uniform(target - 4, target + 4))))
        if games_left == 1:
            rounds = max(1, rounds_left)
        rounds_left -= rounds
        finished = rng.random() > 0.01
        state = _synthetic_state(rng, f"g{index:07d}", mode, players, game_set, rounds, finished)
        period = rng.choice(DAYS) if mode is rules.Mode.QUALIFICATION else None
        created = state.rounds[0].started_at if state.rounds else 1_790_000_000.0
        chunk["games"].append(
            codec.game_row(
                state,
                guild_id=guild,
                channel_id=guild + 1,
                period=period,
                seed="bench" if period else None,
                meta=GameMeta(locale="en"),
                created_at=created,
                finished_at=created + 3000 if finished else None,
                state_json=codec.dumps(state.to_dict()),
            )
        )
        chunk["game_players"].extend(codec.player_rows(state, guild_id=guild, created_at=created))
        for rnd in state.rounds:
            chunk["rounds"].append(codec.round_row(state.id, rnd))
            for seat, answer in enumerate(rnd.answers):
                if answer is not None:
                    chunk["answers"].append(
                        codec.answer_row(state.id, rnd, seat, state.players[seat], answer)
                    )
        if len(chunk["games"]) >= LOAD_CHUNK:
            yield chunk
            chunk = {name: [] for name in chunk}
    if chunk["games"]:
        yield chunk


def _static_rows(data: Dataset) -> dict[str, list[dict[str, Any]]]:
    rng = random.Random(data.seed + 1)
    servers = [{"guild_id": g, "first_seen": 0.0} for g in data.players]
    players = [{"id": p, "first_seen": 0.0} for ps in data.players.values() for p in ps]
    ratings = []
    for guild, members in data.players.items():
        for player in members:
            games = rng.randint(1, 60)
            wins = rng.randint(0, games)
            draws = rng.randint(0, games - wins)
            ratings.append(
                {
                    "guild_id": guild,
                    "user_id": int(player),
                    "rating": rng.randint(800, 1400),
                    "games": games,
                    "wins": wins,
                    "draws": draws,
                    "losses": games - wins - draws,
                }
            )
    return {"servers": servers, "players": players, "ratings": ratings}


TABLES = {
    "servers": table(Server),
    "players": table(Player),
    "ratings": table(Rating),
    "games": table(Game),
    "game_players": table(GamePlayer),
    "rounds": table(RoundRow),
    "answers": table(AnswerRow),
}


async def bulk_load(store: Store, data: Dataset) -> float:
    """Insert everything in chunks; returns seconds. COPY on PostgreSQL, executemany on SQLite."""
    began = time.perf_counter()
    async with store.engine.begin() as conn:
        await _load_chunk(conn, _static_rows(data))
        for chunk in generate(data):
            data.loaded_rounds += len(chunk["rounds"])
            data.loaded_answers += len(chunk["answers"])
            await _load_chunk(conn, chunk)
    async with store.engine.connect() as conn:
        if store.dialect == "postgresql":
            autocommit = await conn.execution_options(isolation_level="AUTOCOMMIT")
            await autocommit.exec_driver_sql("VACUUM ANALYZE")
        else:
            await conn.exec_driver_sql("ANALYZE")
            await conn.commit()
    return time.perf_counter() - began


async def _load_chunk(conn: Any, chunk: dict[str, list[dict[str, Any]]]) -> None:
    for name, rows in chunk.items():
        if not rows:
            continue
        target = TABLES[name]
        if conn.dialect.name == "postgresql":
            raw = (await conn.get_raw_connection()).driver_connection
            columns = list(rows[0])
            await raw.copy_records_to_table(
                name, records=[tuple(r[c] for c in columns) for r in rows], columns=columns
            )
        else:
            await conn.execute(target.insert(), rows)


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
        return store.qualification_leaderboard(rng.choice(guilds), rng.choice(SETS).name, since)

    def duel() -> Awaitable[object]:
        return store.duel_leaderboard(rng.choice(guilds), offset=rng.choice([0, 0, 10, 100]))

    def stats() -> Awaitable[object]:
        guild = rng.choice(guilds)
        return store.player_stats(guild, int(rng.choice(data.players[guild])))

    def history() -> Awaitable[object]:
        guild = rng.choice(guilds)
        return store.history(guild, int(rng.choice(data.players[guild])))

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
        await store.save_game(record)
        now = time.time()
        while record.state.outcome is None and len(per_round) < samples:
            spent = 0.0
            for action in (
                rules.StartRound(str(rng.randint(1000, 9999)), now),
                rules.Submit(player, "12+34", rng.randint(1, 300), now + 5),
            ):
                record = dataclasses.replace(record, state=rules.apply(record.state, action))
                began = time.perf_counter()
                await store.save_game(record)
                elapsed = (time.perf_counter() - began) * 1000
                steps.append(elapsed)
                spent += elapsed
            per_round.append(spent)
    return steps, per_round


@contextmanager
def throwaway_postgres() -> Iterator[str]:
    """Start a private PostgreSQL cluster (as `postgres` when root) and yield its URL."""
    bindir = next(iter(sorted(Path("/usr/lib/postgresql").glob("*/bin"))), None)
    if shutil.which("initdb"):
        bindir = Path(str(shutil.which("initdb"))).parent
    if bindir is None:
        raise RuntimeError("PostgreSQL binaries not found (apt-get install postgresql)")
    root = Path(tempfile.mkdtemp(prefix="fd-bench-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        as_user = ["runuser", "-u", "postgres", "--"]
        shutil.chown(root, "postgres")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    data = root / "data"
    subprocess.run(
        [
            *as_user,
            str(bindir / "initdb"),
            "-D",
            str(data),
            "-A",
            "trust",
            "-U",
            "postgres",
            "--no-sync",
        ],
        check=True,
        capture_output=True,
    )
    options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c shared_buffers=512MB"
    subprocess.run(
        [
            *as_user,
            str(bindir / "pg_ctl"),
            "-D",
            str(data),
            "-l",
            str(root / "log"),
            "-o",
            options,
            "-w",
            "start",
        ],
        check=True,
        capture_output=True,
    )
    try:
        yield f"postgresql+asyncpg://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            [*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-m", "fast", "stop"],
            check=False,
            capture_output=True,
        )
        shutil.rmtree(root, ignore_errors=True)


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
