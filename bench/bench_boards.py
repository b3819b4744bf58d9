"""The uncached web board on 100,000 games, this tree against a baseline commit.

What the web page asks the store for a board it has not cached (the Sets played, the
Set's versions, then the board: the server's settings, the page and its count, the
page's streaks, the Set's language) on SQLite, timed in CPU (`time.process_time`: the
event loop's Python and SQLite's thread alike, so the shared machine's load does not
count as work). The data is loaded once by the baseline's own loader at its schema;
each run gets a copy, which the tree's `open_store` upgrades to its head (the indexes
and `board_best` added since the baseline, timed). The loader's ANALYZE ran at the
baseline's schema, so indexes added later have no statistics, as in a bot's SQLite
database (never analyzed): the board's queries must not need them. Each tree runs its
own code, checked as in `bench_service` (`isolated`, `foreign_modules`); runs alternate A B A B.

    python -m bench.bench_boards --base /tmp/perf-base            # writes docs/BENCHMARKS.md
    python -m bench.bench_boards --base /tmp/perf-base --data /tmp/web100k.sqlite3 --no-write
    python -m bench.bench_boards --base /tmp/perf-base --postgres --no-write

With `--postgres` the same on a throwaway PostgreSQL cluster (`bench._postgres`): loaded
once into a database that each run gets a copy of (`CREATE DATABASE ... TEMPLATE`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import asyncpg  # type: ignore[import-untyped]

from bench._postgres import throwaway_postgres
from bench._report import percentile, write_section
from bench.bench_service import ROOT, foreign_modules, isolated

WORKER = Path(__file__).resolve().parent / "_boards_worker.py"
PERIODS = ("all", "week")


def run(tree: Path, args: list[str]) -> dict[str, Any]:
    command, env = isolated(tree)
    done = subprocess.run(
        [*command, str(WORKER), *args], env=env, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"worker failed ({tree}):\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout)
    if foreign := foreign_modules(tree, result.pop("modules")):
        raise RuntimeError(f"worker ran code from outside {tree}: {foreign[:5]}")
    return result


def copy_database(source: Path, target: Path) -> str:
    for suffix in ("", "-wal", "-shm"):
        if Path(f"{source}{suffix}").exists():
            shutil.copyfile(f"{source}{suffix}", f"{target}{suffix}")
    return f"sqlite+aiosqlite:///{target}"


def copy_postgres(server: str, source: str, target: str) -> str:
    """A fresh copy of the loaded database `source` as `target`; its URL."""

    async def copy() -> None:
        conn = await asyncpg.connect(server.replace("+asyncpg", ""))
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{target}"')
            await conn.execute(f'CREATE DATABASE "{target}" TEMPLATE "{source}"')
        finally:
            await conn.close()

    asyncio.run(copy())
    return f"{server.rsplit('/', 1)[0]}/{target}"


def run_postgres(
    args: argparse.Namespace, trees: dict[str, Path]
) -> tuple[dict[str, list[dict[str, Any]]], str]:
    """Load once with the baseline's loader, then every run on a copy of it."""
    with throwaway_postgres() as server:
        loaded = copy_postgres(server, "template0", "loaded")
        done = run(trees["baseline"], ["--url", loaded, "--load", "--games", str(args.games),
                   "--players", str(args.players)])  # fmt: skip
        runs: dict[str, list[dict[str, Any]]] = {label: [] for label in trees}
        for _ in range(args.pairs):
            for label, tree in trees.items():
                url = copy_postgres(server, "loaded", "run")
                runs[label].append(run(tree, ["--url", url, "--repeats", str(args.repeats)]))
    return runs, f"Loading took {done['load_s']:.0f} s."


WHOSE_CPU = {
    "SQLite": "the loop's Python and SQLite's thread",
    "PostgreSQL": "the client's process only, not the server's",
}


def report(args: argparse.Namespace, runs: dict[str, list[dict[str, Any]]], load: str) -> str:
    lines = [
        "## Uncached web board (`bench/bench_boards.py`)",
        "",
        f"One server's Qualification board on {args.games:,} games ({args.players:,} players; "
        "half of the games Qualification over three Sets, so ~16,700 in the board's Set), "
        f"{args.engine}. What the web page asks the store for a board it has not cached: the Sets "
        "played, the Set's versions, the board (settings, the page and its player count, "
        "the page's streaks, the Set's language); CPU ms per board (`process_time`: "
        f"{WHOSE_CPU[args.engine]}), {args.repeats} boards per run, {args.pairs} "
        f"run(s) of each tree alternating, against `{args.base_label}`. {load}",
        "",
        "Wall ms: the same boards' wall-clock time, which on PostgreSQL includes the "
        "server's CPU (another process) and on this shared machine its waiting.",
        "",
        "| period | code | CPU p50 ms | CPU p99 ms | wall p50 ms | open (migrate) s |",
        "|---|---|---|---|---|---|",
    ]
    for period in PERIODS:
        stats, wall = {}, {}
        for label, results in runs.items():
            samples = [s for r in results for s in r[period]]
            walls = [s for r in results for s in r[f"{period}_wall"]]
            stats[label] = (percentile(samples, 50), percentile(samples, 99))
            wall[label] = percentile(walls, 50)
            opened = max(r["open_s"] for r in results)
            lines.append(
                f"| {period} | {label} | {stats[label][0]:.1f} | {stats[label][1]:.1f} | "
                f"{wall[label]:.1f} | {opened:.1f} |"
            )
        if "baseline" in stats:
            (b50, b99), (t50, t99) = stats["baseline"], stats["this tree"]
            lines.append(
                f"| {period} | **baseline / this** | **{b50 / t50:.2f}x** | "
                f"**{b99 / t99:.2f}x** | **{wall['baseline'] / wall['this tree']:.2f}x** | |"
            )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--base", type=Path, required=True, help="a checkout of the baseline")
    parser.add_argument("--base-label", default="767f095")
    parser.add_argument("--data", type=Path, help="a database the baseline loaded (reused)")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2_000)
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--pairs", type=int, default=2)
    parser.add_argument("--postgres", action="store_true")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    args.engine = "PostgreSQL" if args.postgres else "SQLite"
    trees = {"this tree": ROOT, "baseline": args.base.resolve()}
    if args.postgres:
        text = report(args, *run_postgres(args, trees))
        print(text)
        if not args.no_write:
            write_section("boards-postgres", text)
        return 0
    with tempfile.TemporaryDirectory(prefix="fd-boards-") as tmp:
        data = args.data or Path(tmp) / "loaded.sqlite3"
        load = f"Data: `{args.data}` (loaded before)."
        if args.data is None:
            loaded = run(trees["baseline"], ["--url", f"sqlite+aiosqlite:///{data}", "--load",
                         "--games", str(args.games), "--players", str(args.players)])  # fmt: skip
            load = f"Loading took {loaded['load_s']:.0f} s."
        runs: dict[str, list[dict[str, Any]]] = {label: [] for label in trees}
        for _ in range(args.pairs):
            for label, tree in trees.items():
                url = copy_database(data, Path(tmp) / "run.sqlite3")
                runs[label].append(run(tree, ["--url", url, "--repeats", str(args.repeats)]))
    text = report(args, runs, load)
    print(text)
    if not args.no_write:
        write_section("boards", text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
