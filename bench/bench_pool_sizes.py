"""POOL_SIZE against the machine's cores: does a pool larger than the core count help?

Run: `python -m bench.bench_pool_sizes [--sizes 1,2,4,8] [--seconds 3] [--rounds 3]`.
Each size is measured by `bench/_pool_load.py` (the same load as bench_pool: warm
workers, formulas like `34+89`, straight to the pool) in its own process, with 8 and
16 callers always waiting, so the pool is never idle; the sizes alternate `--rounds`
times and the median round counts. Writes the "pool-sizes" section of
docs/BENCHMARKS.md (docs/scaling.md quotes it).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from bench._report import write_section

ROOT = Path(__file__).resolve().parent.parent
LOAD = ROOT / "bench" / "_pool_load.py"
CALLERS = (8, 16)


def load(size: int, seconds: float) -> list[dict[str, float]]:
    out = subprocess.run(
        [sys.executable, str(LOAD), "--code", str(ROOT), "--seconds", str(seconds),
         "--callers", ",".join(map(str, CALLERS)), "--paths", "pool", "--pool-size", str(size)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if out.returncode != 0:
        raise SystemExit(f"pool of {size} failed:\n{out.stderr[-3000:]}")
    rows: list[dict[str, float]] = json.loads(out.stdout)["rows"]["pool"]
    return rows


def median(runs: list[list[dict[str, float]]], k: int) -> dict[str, float]:
    by_rate = sorted((run[k] for run in runs), key=lambda r: r["rate"])
    return by_rate[len(by_rate) // 2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=lambda s: [int(x) for x in s.split(",")], default=None)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    sizes = args.sizes or sorted({1, cores, 2 * cores, 4 * cores})
    runs: dict[int, list[list[dict[str, float]]]] = {size: [] for size in sizes}
    for _ in range(args.rounds):
        for size in sizes:
            runs[size].append(load(size, args.seconds))
    lines = [
        "## POOL_SIZE against the core count\n",
        f"`python -m bench.bench_pool_sizes`: {cores} cores; the local pool with each size, "
        f"{args.seconds:g} s per row, callers always waiting; the median of {args.rounds} "
        "alternating rounds.\n",
        "| POOL_SIZE | callers | formulas/s | p50 ms | p99 ms | Python CPU µs/formula |",
        "|---:|---:|---:|---:|---:|---:|",
    ]
    table: dict[tuple[int, int], dict[str, Any]] = {}
    for size in sizes:
        for k, callers in enumerate(CALLERS):
            row = table[size, callers] = median(runs[size], k)
            lines.append(
                f"| {size} | {callers} | {row['rate']:,.0f} | {row['p50']:.3f} | "
                f"{row['p99']:.3f} | {row['cpu_us']:.1f} |"
            )
    at_cores = table[cores, CALLERS[0]]["rate"] if cores in sizes else None
    if at_cores:
        beyond = [s for s in sizes if s > cores]
        ratios = ", ".join(f"{s}: {table[s, CALLERS[0]]['rate'] / at_cores:.2f}x" for s in beyond)
        lines.append(
            f"\nThroughput with {CALLERS[0]} callers relative to POOL_SIZE = cores ({cores}): "
            f"{ratios}."
        )
    body = "\n".join(lines)
    print(body)
    if not args.no_write:
        write_section("pool-sizes", body)


if __name__ == "__main__":
    main()
