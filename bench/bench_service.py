"""The game service headless: the bot's own work per answer, against a baseline commit.

No simulator: `bench/_service_worker.py` drives the real GameService (real local PHP
pool, real store) with a Discord stand-in that renders and posts nowhere. Each run
is a subprocess that imports the bot either from this tree or from a baseline
checkout (`--base`: `git worktree add /tmp/perf-base 767f095`), and the two
are interleaved (A B A B ...) so the shared machine's load falls on both alike.
Each tree runs its own code, checked: the worker starts without `site` (so the
editable install's finder, which maps `bot`, `rules`, `evaluator` and `solver` to
one tree, is not installed) with only the tree and the site-packages on its path,
and reports where every module of those packages was loaded from; a module from
anywhere else fails the run.

Measured per answer, one at a time: the service's own time (the whole `submit`
less the wait for PHP), PHP's, and the store's (`save_game`, the DB cost). Each answer
comes through an interaction, as every answer of the real bot does (a stand-in `Via`
that carries nothing; a tree whose `submit` takes none gets none). Then,
for this tree only, answers offered at growing rates (open loop) until p99 of the
answer's whole handling passes 50 ms, and the memory one held game costs.

    python -m bench.bench_service --base /tmp/perf-base            # writes docs/BENCHMARKS.md
    python -m bench.bench_service --base /tmp/perf-base --pairs 1 --no-pg --no-write
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import site
import subprocess
import sys
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import asyncpg  # type: ignore[import-untyped]

from bench._postgres import throwaway_postgres
from bench._report import percentile, write_section

ROOT = Path(__file__).resolve().parent.parent
WORKER = Path(__file__).resolve().parent / "_service_worker.py"
RATES = [50, 100, 200, 300, 400, 600, 800, 1000, 1200]


def isolated(tree: Path) -> tuple[list[str], dict[str, str]]:
    """The command prefix and environment that import the project from `tree` only.

    `-S` skips `site`, so no `.pth` file runs: the editable install's finder (which
    would answer for a package the tree lacks with this tree's) stays out, and the
    site-packages come back as plain path entries after the tree.
    """
    path = [str(tree), *(p for p in site.getsitepackages() if Path(p).is_dir())]
    return [sys.executable, "-S"], {**os.environ, "PYTHONPATH": os.pathsep.join(path)}


def foreign_modules(tree: Path, files: dict[str, list[str]]) -> list[str]:
    """The project's modules (name: its file, or a package's paths) loaded from outside `tree`."""
    root = tree.resolve()
    return sorted(
        f"{name}: {where}"
        for name, places in files.items()
        for where in places
        if not Path(where).resolve().is_relative_to(root)
    )


def run_worker(tree: Path, args: list[str]) -> dict[str, Any]:
    """One measured run with `tree`'s code, checked to be only that tree's; its JSON result."""
    command, env = isolated(tree)
    done = subprocess.run(
        [*command, str(WORKER), *args], env=env, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(f"worker failed ({tree}):\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout)
    modules = result.pop("modules")
    if not modules or (foreign := foreign_modules(tree, modules)):
        raise RuntimeError(f"worker ran code from outside {tree}: {foreign[:5]}")
    return result


async def _fresh_database(server: str) -> str:
    name = f"fd_bench_{uuid.uuid4().hex[:10]}"
    admin = await asyncpg.connect(server.replace("postgresql+asyncpg://", "postgresql://"))
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    return server.rsplit("/", 1)[0] + f"/{name}"


def interleaved(
    trees: dict[str, Path],
    pairs: int,
    args: list[str],
    pg_server: str | None = None,
    together: bool = False,
) -> dict[str, list[dict[str, Any]]]:
    """`pairs` runs of each tree, alternating (`together`: at the same time, so a load
    that comes and goes falls on both alike); on PostgreSQL each run gets a fresh
    database."""
    runs: dict[str, list[dict[str, Any]]] = {label: [] for label in trees}
    for _ in range(pairs):
        urls = {label: asyncio.run(_fresh_database(pg_server)) if pg_server else ""
                for label in trees}  # fmt: skip
        work = {label: [*args, "--url", urls[label]] if urls[label] else args for label in trees}
        if together:
            with ThreadPoolExecutor(len(trees)) as pool:
                done = {label: pool.submit(run_worker, tree, work[label])
                        for label, tree in trees.items()}  # fmt: skip
                for label, future in done.items():
                    runs[label].append(future.result())
        else:
            for label, tree in trees.items():
                runs[label].append(run_worker(tree, work[label]))
    return runs


def pooled(runs: list[dict[str, Any]], key: str) -> list[float]:
    return [sample for run in runs for sample in run[key]]


def _stats(runs: list[dict[str, Any]]) -> dict[str, float]:
    out = {"saves": sum(r["saves"] for r in runs) / len(runs)}
    for key in ("own", "php", "db", "cpu"):
        samples = pooled(runs, key)
        out[f"{key}50"], out[f"{key}99"] = percentile(samples, 50), percentile(samples, 99)
    return out


def compare(runs: dict[str, list[dict[str, Any]]], db: str) -> list[str]:
    """Table rows: each tree's pooled p50/p99, and the baseline's ratio to this tree."""
    stats = {label: _stats(r) for label, r in runs.items()}
    lines = []
    for label, s in stats.items():
        lines.append(
            f"| {db} | {label} | {s['own50']:.2f} | {s['own99']:.2f} | {s['cpu50']:.2f} | "
            f"{s['cpu99']:.2f} | {s['db50']:.2f} | {s['db99']:.2f} | {s['php50']:.2f} | "
            f"{s['saves']:.2f} |"
        )
    if "baseline" in stats:
        base, this = stats["baseline"], stats["this tree"]
        pairs = [
            percentile(b["cpu"], 50) / percentile(t["cpu"], 50)
            for b, t in zip(runs["baseline"], runs["this tree"], strict=True)
        ]
        lines.append(
            f"| {db} | **baseline / this** | **{base['own50'] / this['own50']:.2f}x** | "
            f"**{base['own99'] / this['own99']:.2f}x** | "
            f"**{base['cpu50'] / this['cpu50']:.2f}x** | "
            f"**{base['cpu99'] / this['cpu99']:.2f}x** | {base['db50'] / this['db50']:.2f}x | "
            f"{base['db99'] / this['db99']:.2f}x | CPU p50 per pair: "
            f"{', '.join(f'{p:.2f}x' for p in pairs)} | |"
        )
    return lines


def capacity(label: str, run: dict[str, Any], limit_ms: float) -> list[str]:
    lines = []
    for step in run["offered"]:
        lat = step["lat"]
        p50, p99 = percentile(lat, 50), percentile(lat, 99)
        ok = "yes" if p99 < limit_ms and not step["dropped"] else "no"
        saves = step.get("saves_ms") or [float("nan")]
        lines.append(
            f"| {label} | {step['rate']:.0f} | {step['done']:.0f} | {p50:.1f} | {p99:.1f} | "
            f"{percentile(saves, 50):.2f} | {percentile(saves, 99):.1f} | "
            f"{step.get('loop_cpu', float('nan')) * 100:.0f} % | {step['dropped']} | {ok} |"
        )
    return lines


def report(
    args: argparse.Namespace,
    sqlite: dict[str, list[dict[str, Any]]],
    pg: dict[str, list[dict[str, Any]]] | None,
    held: dict[str, dict[str, Any]],
) -> str:
    """The section's Markdown; `held` is each tree's capacity run (offered rates, memory)."""
    base = f" against `{args.base_label}` (`{args.base}`)" if args.base else ""
    lines = [
        "## Service, headless (`bench/bench_service.py`)",
        "",
        f"The real GameService, real local PHP pool ({args.pool} workers), no simulator: "
        f"{args.games} Training games held, {args.answers} answers per run one at a time "
        f"(after {args.warmup} warm-up), {args.pairs} run(s) of each tree "
        f"{'at the same time' if args.together else 'interleaved'}{base}. "
        "*Own* is the service's work per answer: `submit` from call to return (checks, "
        "locks, rules, every save, rendering the round and result embeds for a stand-in "
        "Discord that sends nothing) minus the wait for PHP. *CPU* is the event loop "
        "thread's CPU time through the same `submit` (`time.thread_time`: the bot's own work "
        "without the time the shared machine's load kept it waiting; the pool's Python for "
        "the formula included). *DB* is the part of *own* spent "
        "in `save_game` (per answer, which in Training is per round); *saves* per answer. "
        "Times in ms; the ratio is the baseline's time over this tree's, from the same run "
        "on the same machine.",
        "",
        "| database | code | own p50 | own p99 | CPU p50 | CPU p99 | DB p50 | DB p99 | PHP p50 "
        "| saves |",
        "|---|---|---|---|---|---|---|---|---|---|",
        *compare(sqlite, "SQLite"),
        *(compare(pg, "PostgreSQL") if pg else []),
        "",
        f"Answers offered at a steady rate (open loop, SQLite, {args.seconds:.0f} s "
        f"a step{', both trees at the same time' if args.together else ''}) to idle games "
        f"among {args.games}; latency is the whole `submit`, PHP "
        f"included. The step passes while p99 < {args.limit_ms:.0f} ms and no answer "
        "found every game busy. *Save* is each `save_game` call's own wall time (a save "
        "queued behind the Store's writer lock waits in it); *loop busy* the event loop "
        "thread's CPU time over the step's wall time.",
        "",
        "| code | offered /s | handled /s | p50 ms | p99 ms | save p50 ms | save p99 ms "
        "| loop busy | no idle game | passes |",
        "|---|---|---|---|---|---|---|---|---|---|",
        *(row for label, run in held.items() for row in capacity(label, run, args.limit_ms)),
        "",
        f"Games per process: one held Training game (round open, posted) costs "
        f"{held['this tree']['kib_per_game']:.1f} KiB of Python memory (tracemalloc while "
        f"opening {args.games}; baseline "
        f"{held.get('baseline', held['this tree'])['kib_per_game']:.1f} KiB), so 100,000 "
        f"held games need about "
        f"{held['this tree']['kib_per_game'] * 100_000 / 1024 / 1024:.1f} GiB; the count is "
        "bounded by memory and by the answers per second above, not by a limit in the code.",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--base", type=Path, help="a checkout of the baseline commit")
    parser.add_argument("--base-label", default="767f095")
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--answers", type=int, default=1500)
    parser.add_argument("--warmup", type=int, default=200)
    parser.add_argument("--pool", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--limit-ms", type=float, default=50.0)
    parser.add_argument(
        "--stop-ms", type=float, default=0.0,
        help="stop stepping up the rate once p99 passes this (default: --limit-ms); a high "
        "one steps on past the limit, to see where a loaded machine's latency comes from",
    )  # fmt: skip
    parser.add_argument("--rates", type=float, nargs="*", default=RATES)
    parser.add_argument("--no-pg", action="store_true")
    parser.add_argument(
        "--together", action="store_true", help="run the trees' workers at the same time"
    )
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args(argv)
    trees = {"this tree": ROOT}
    if args.base:
        trees["baseline"] = args.base.resolve()
    common = [
        *("--games", str(args.games), "--answers", str(args.answers)),
        *("--warmup", str(args.warmup), "--pool", str(args.pool)),
    ]
    sqlite = interleaved(trees, args.pairs, common, together=args.together)
    stepped = [
        *common,
        *("--rates", *map(str, args.rates)),
        *("--seconds", str(args.seconds), "--limit-ms", str(args.stop_ms or args.limit_ms)),
    ]
    held = {label: runs[0] for label, runs in interleaved(
        trees, 1, stepped, together=args.together
    ).items()}  # fmt: skip
    pg = None
    if not args.no_pg:
        with throwaway_postgres() as server:
            pg = interleaved(trees, args.pairs, common, server, args.together)
    text = report(args, sqlite, pg, held)
    print(text)
    if not args.no_write:
        write_section("service", text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
