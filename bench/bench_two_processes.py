"""The database cost per round with two bot processes on one PostgreSQL, against one.

Two shard processes share one database but never one game (each owns its servers'
games), so what they share is the server: its CPU, its WAL, its locks. Each run here
is `bench/_service_worker.py` (the real GameService, real PHP pool, no simulator)
on a fresh database: one process alone, then two at once on the same database, each
with its own games; the pattern repeats (A B A B) so the machine's load falls on both.
The cost per round is `save_game`'s time per answer (Training: one answer a round).

    python -m bench.bench_two_processes              # writes docs/BENCHMARKS.md
    python -m bench.bench_two_processes --pairs 1 --no-write
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
from typing import Any

from bench._postgres import throwaway_postgres
from bench._report import percentile, write_section
from bench.bench_service import ROOT, WORKER, _fresh_database


def _start(args: list[str]) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, str(WORKER), *args],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _results(workers: list[subprocess.Popen[str]]) -> list[dict[str, Any]]:
    out = []
    for worker in workers:
        stdout, stderr = worker.communicate()
        if worker.returncode != 0:
            raise RuntimeError(f"worker failed:\n{stderr[-3000:]}")
        out.append(json.loads(stdout))
    return out


def measure(server: str, processes: int, common: list[str]) -> list[dict[str, Any]]:
    """`processes` workers at once on one fresh database."""
    url = asyncio.run(_fresh_database(server))
    asyncio.run(_migrated(url))  # the schema first: the workers then start together
    return _results([_start([*common, "--url", url]) for _ in range(processes)])


async def _migrated(url: str) -> None:
    from bot.storage import open_store

    store = await open_store(url)
    await store.close()


def _row(label: str, runs: list[dict[str, Any]]) -> tuple[str, float, float]:
    db = [sample for run in runs for sample in run["db"]]
    own = [sample for run in runs for sample in run["own"]]
    p50, p99 = percentile(db, 50), percentile(db, 99)
    line = (
        f"| {label} | {len(db)} | {p50:.2f} | {p99:.2f} | "
        f"{percentile(own, 50):.2f} | {percentile(own, 99):.2f} |"
    )
    return line, p50, p99


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--pairs", type=int, default=2)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--answers", type=int, default=1500)
    parser.add_argument("--warmup", type=int, default=200)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    common = [
        *("--games", str(args.games), "--answers", str(args.answers)),
        *("--warmup", str(args.warmup), "--pool", "1"),
    ]
    one: list[dict[str, Any]] = []
    two: list[dict[str, Any]] = []
    with throwaway_postgres() as server:
        for _ in range(args.pairs):
            one += measure(server, 1, common)
            two += measure(server, 2, common)
    single, s50, s99 = _row("one process", one)
    double, d50, d99 = _row("two processes at once, each its own games", two)
    text = "\n".join(
        [
            "## Two processes on one PostgreSQL (`bench/bench_two_processes.py`)",
            "",
            f"`bench/_service_worker.py` (the real GameService, a PHP pool of 1 worker per "
            f"process, no simulator), {args.games} Training games held per process, "
            f"{args.answers} answers each one at a time; one process alone, then two at once "
            f"on one database, {args.pairs} time(s) each, alternating. DB = `save_game` per "
            "answer (= per round in Training); own = the service's whole work per answer "
            "less PHP. Times in ms. Both processes and PostgreSQL share the same 2 cores.",
            "",
            "| processes | answers | DB p50 | DB p99 | own p50 | own p99 |",
            "|---|---|---|---|---|---|",
            single,
            double,
            "",
            f"With two processes the database cost per round is {d50 / s50:.2f}x at p50 and "
            f"{d99 / s99:.2f}x at p99 of one process's, on a machine where the two bot "
            "processes and PostgreSQL compete for the same 2 cores (on separate hosts the "
            "bot processes would not take the database's CPU).",
        ]
    )
    print(text)
    if not args.no_write:
        write_section("two-processes", text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
