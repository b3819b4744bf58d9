"""The JavaScript solver beside PHP's, in the same run: cold solves, queries, memory.

Run: `python -m bench.bench_solver_js [--digits 30] [--queries 10]`. Writes the
"solver-js" section of docs/BENCHMARKS.md.

Per Digits (seeded): a cold solve at one Score (501 or random), `--queries` more Scores
on what it left, `Solver.prepare`, `--queries` more Scores on the prepared Digits; the
same Digits and Scores for the JavaScript Set `js-darts` (twelve Math functions) and,
as the baseline, PHP's `darts`. Wall time and this process's CPU time (the machine is
shared: the load average is printed). Then through `SolverProcess` with its defaults
(256 MiB, cache of 8): cold best answers (IPC included) and the process's peak
resident set (VmHWM), the node helper (node_math.py) measured apart.

Targets (issue 23, as PHP's): cold p50 <= 250 ms, p99 <= 1 s, prepared query p99 <= 50
ms, peak <= 256 MiB.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from bench._report import latency_cells, percentile, write_section
from rules.sets import CLASSIC, GameSet, parse_sets
from solver import Solution, SolverProcess
from solver.node_math import NODE_MATH
from solver.solve import Solver
from tests.evaluator.js.test_js_check import JS_DARTS

JS_SET: GameSet = parse_sets(JS_DARTS)["js-darts"]
Timings = tuple[list[float], list[float]]  # wall seconds, CPU seconds


@dataclass
class Measured:
    cold: Timings = field(default_factory=lambda: ([], []))
    after_cold: Timings = field(default_factory=lambda: ([], []))
    prepare: Timings = field(default_factory=lambda: ([], []))
    prepared: Timings = field(default_factory=lambda: ([], []))
    tiny: Timings = field(default_factory=lambda: ([], []))


TINY = (1, 2, 3)
"""Scores where near-zero results crowd (`y % t`, `y >> 31`, Math.floor's [1, 2)): a
JavaScript query there took 4-21 s before the pruning of issue 23's solver work."""
BEFORE = (
    "Before that work (commit 3b40286): this script on 2026-12-02 at 01:54 UTC (load 5.4):"
    " JavaScript cold p50 643 ms, p99 3097 ms; query after a cold solve p99 1801 ms (max"
    " 12314); prepared query p99 310 ms (max 21459); 2 of 6 cold solves through"
    " `SolverProcess` failed for memory. Again at 08:42 UTC (load 1.9-2.7), minutes before"
    " the run above: cold p50 308 ms (2.1x PHP's), p99 932 ms; query after a cold solve p99"
    " 664 ms (max 7840); prepared query p99 89 ms (max 4835); the same 2 of 6 failed."
)


def _helper_cpu() -> float:
    """CPU seconds the node helper has used (it computes `**` and Math.cbrt)."""
    with open(f"/proc/{NODE_MATH.pid}/stat", encoding="ascii") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _timed(into: Timings, call: Callable[[], object]) -> None:
    """Wall time, and the CPU time of this process and of the node helper together."""
    wall, cpu, helper = time.perf_counter(), time.process_time(), _helper_cpu()
    call()
    into[0].append(time.perf_counter() - wall)
    into[1].append(time.process_time() - cpu + _helper_cpu() - helper)


def measure(game_set: GameSet, plan: list[tuple[str, int, list[int], list[int]]]) -> Measured:
    out = Measured()
    solver = Solver(cache_size=4)
    solver.solve("1234", 501, game_set)  # imports, first calls, the node helper started
    for digits, score, later, prepared in plan:
        _timed(out.cold, lambda: solver.solve(digits, score, game_set))  # noqa: B023
        for s in later:
            _timed(out.after_cold, lambda: solver.solve(digits, s, game_set))  # noqa: B023
        _timed(out.prepare, lambda: solver.prepare(digits, game_set))  # noqa: B023
        for s in prepared:
            _timed(out.prepared, lambda: solver.solve(digits, s, game_set))  # noqa: B023
        for s in TINY:
            _timed(out.tiny, lambda: solver.solve(digits, s, game_set))  # noqa: B023
        solver.clear()
    return out


def _vm_hwm(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return 0


async def through_process(digits: list[str]) -> tuple[list[float], int, list[str]]:
    """Cold best answers through `SolverProcess` (defaults), then prepare and a query on
    each; the process's peak resident set, and every call that failed (reported, not
    hidden: a failed call's process is replaced, so the peak is of the last process)."""
    latencies = []
    failures: list[str] = []
    async with SolverProcess(timeout_s=120) as process:
        await process.best("1234", 501, JS_SET)
        for d in digits:
            started = time.perf_counter()
            found = await process.best(d, 501, JS_SET)
            latencies.append(time.perf_counter() - started)
            if not isinstance(found, Solution):
                failures.append(f"best {d} at 501: {found.reason.value}")
            prepared = await process.prepare(d, JS_SET)
            if prepared is not None:
                failures.append(f"prepare {d}: {prepared.reason.value}")
            later = await process.best(d, 437, JS_SET)
            if not isinstance(later, Solution):
                failures.append(f"best {d} at 437: {later.reason.value}")
        status = await process.status()
        assert isinstance(status, tuple)
    return latencies, status[2], failures


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--digits", type=int, default=30)
    parser.add_argument("--queries", type=int, default=10)
    parser.add_argument("--through-process", type=int, default=8)
    args = parser.parse_args()
    rng = random.Random(2026)
    plan = [
        (
            str(rng.randint(1000, 9999)),
            rng.choice([501, rng.randint(1, 501)]),
            [rng.randint(1, 501) for _ in range(args.queries)],
            [rng.randint(1, 501) for _ in range(args.queries)],
        )
        for _ in range(args.digits)
    ]
    load_before = os.getloadavg()[0]
    js = measure(JS_SET, plan)
    php = measure(CLASSIC, plan)
    helper_peak = _vm_hwm(NODE_MATH.pid)
    process_latency, peak, failures = asyncio.run(
        through_process([str(rng.randint(1000, 9999)) for _ in range(args.through_process)])
    )
    load_after = os.getloadavg()[0]

    def met(ok: bool) -> str:
        return "met" if ok else "**not met**"

    rows = []
    for name, pick in (
        ("cold solve (new Digits, one Score)", lambda m: m.cold),
        ("query after a cold solve only", lambda m: m.after_cold),
        ("`prepare` after that cold solve", lambda m: m.prepare),
        ("query on prepared Digits", lambda m: m.prepared),
        ("query on prepared Digits at Score 1, 2, 3", lambda m: m.tiny),
    ):
        for label, m in (("JavaScript", js), ("PHP", php)):
            wall, cpu = pick(m)
            rows.append(f"| {name}, {label} | {latency_cells(wall)} | {latency_cells(cpu)} |")
    cold50, cold99 = percentile(js.cold[0], 50), percentile(js.cold[0], 99)
    warm99 = percentile(js.prepared[0], 99)
    tiny_max = max(js.tiny[0])
    cpu50, cpu99 = percentile(js.cold[1], 50), percentile(js.cold[1], 99)
    ratio = cold50 / percentile(php.cold[0], 50)
    mib = 2**20
    memory_ok = peak <= 256 * mib and not any("memory" in f for f in failures)
    lines = [
        "## Solver, JavaScript beside PHP (`bench/bench_solver_js.py`)",
        "",
        "Set `js-darts` (12 Math functions: 15 operations, 8 one-argument functions) and, as",
        f"the baseline in the same run, PHP's `darts`: the same {args.digits} random Digits (seed",
        f"2026) and Scores, a cold solve at one Score, {args.queries} more Scores on what it",
        f"left, `Solver.prepare`, {args.queries} more on the prepared Digits. In-process;",
        f"load average {load_before:.1f} at the start, {load_after:.1f} at the end (2 cores",
        "shared by other work): CPU time beside the wall time, the solving process's and its",
        "node helper's together (node's clock ticks are 10 ms: a PHP row has no helper).",
        "",
        "| | wall p50 | p90 | p99 | max | CPU p50 | p90 | p99 | max |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
        *rows,
        f"| cold through `SolverProcess` ({len(process_latency)} Digits, IPC), JavaScript"
        f" | {latency_cells(process_latency)} | | | | |",
        "",
        f"- JavaScript cold p50 {cold50 * 1000:.0f} ms wall, {cpu50 * 1000:.0f} ms CPU (target"
        f" <= 250 ms): {met(cold50 <= 0.25)}; {ratio:.1f}x PHP's p50 in this run",
        f"- JavaScript cold p99 {cold99 * 1000:.0f} ms wall, {cpu99 * 1000:.0f} ms CPU (target"
        f" <= 1 s): {met(cold99 <= 1.0)}",
        f"- JavaScript prepared query p99 {warm99 * 1000:.0f} ms (target <= 50 ms):"
        f" {met(warm99 <= 0.05)}",
        f"- solver process peak resident (VmHWM) {peak / mib:.0f} MiB over"
        f" {len(process_latency)} JavaScript Digits prepared (target <= 256 MiB):"
        f" {met(memory_ok)}; the node helper of `**` and Math.cbrt, its own process:"
        f" {helper_peak / mib:.0f} MiB peak",
        f"- JavaScript queries at Score 1-3 on prepared Digits: at most {tiny_max * 1000:.0f} ms",
        f"- calls through `SolverProcess` that failed: {', '.join(failures) or 'none'}",
        "",
        BEFORE,
    ]
    body = "\n".join(lines) + "\n"
    write_section("solver-js", body)
    print(body)


if __name__ == "__main__":
    main()
