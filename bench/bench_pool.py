"""Local warm-pool latency and throughput against a cold `php -r` per formula.

Run: `python -m bench.bench_pool [--seconds 3] [--cold-runs 300]`. Measures 1, 2
and 8 concurrent callers on the local bubblewrap pool (default size: one
worker per core), both the bare pool (`WorkerPool.run`) and the bot's path
(`Evaluator.evaluate` = checker + pool); then the same formulas each in a
fresh `php -r` (what a spawn-per-formula design would cost). Writes the
"pool" section of docs/BENCHMARKS.md.

Targets on 2 cores: p50 <= 0.3 ms for one caller, >= 5,000 formulas/s with 8
callers, >= 30x the cold baseline.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import subprocess
import time
from collections.abc import Awaitable, Callable

from bench._report import percentile, write_section
from evaluator import Evaluation, EvaluatorSettings, Verdict, open_evaluator

CALLERS = (1, 2, 8)
FUNCTIONS = ("pow", "sqrt", "hexdec", "octdec", "bindec")
SHAPES = (
    "{a}{b}+{c}{d}",
    "{a}*{b}+{c}{d}",
    "pow({a},{b})-{c}*{d}",
    "{a}{b}{c}/{d}",
    "{a}{b}^{c}{d}",
)


def workload(count: int, seed: int = 11) -> list[tuple[str, str]]:
    """(digits, formula) pairs as players write them; all pass the checker."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        a, b, c, d = (str(rng.randint(1, 9)) for _ in range(4))
        out.append((a + b + c + d, rng.choice(SHAPES).format(a=a, b=b, c=c, d=d)))
    return out


async def measure(
    call: Callable[[int], Awaitable[Verdict]], callers: int, seconds: float
) -> dict[str, float]:
    latencies: list[float] = []
    deadline = time.perf_counter() + seconds

    async def caller(offset: int) -> None:
        i = offset
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            verdict = await call(i)
            latencies.append(time.perf_counter() - started)
            if not isinstance(verdict, Evaluation):
                raise AssertionError(f"benchmark formula failed: {verdict}")
            i += callers

    started = time.perf_counter()
    await asyncio.gather(*(caller(k) for k in range(callers)))
    wall = time.perf_counter() - started
    return {
        "callers": callers,
        "n": len(latencies),
        "p50": percentile(latencies, 50) * 1e3,
        "p99": percentile(latencies, 99) * 1e3,
        "rate": len(latencies) / wall,
    }


async def warm(seconds: float) -> tuple[list[dict[str, float]], list[dict[str, float]], int]:
    work = workload(4000)
    settings = EvaluatorSettings(evaluator="local")
    async with await open_evaluator(settings) as evaluator:
        pool = evaluator.pool
        for digits, formula in work[:500]:  # warm-up
            await evaluator.evaluate(formula, digits, FUNCTIONS)

        def bare(i: int) -> Awaitable[Verdict]:
            return pool.run(work[i % len(work)][1])

        def full(i: int) -> Awaitable[Verdict]:
            digits, formula = work[i % len(work)]
            return evaluator.evaluate(formula, digits, FUNCTIONS)

        pool_rows = [await measure(bare, callers, seconds) for callers in CALLERS]
        eval_rows = [await measure(full, callers, seconds) for callers in CALLERS]
        return pool_rows, eval_rows, pool.size


def cold(runs: int) -> dict[str, float]:
    """One fresh `php -r` per formula, sequentially (the 1-caller baseline)."""
    latencies = []
    for _, formula in workload(runs, seed=12):
        started = time.perf_counter()
        subprocess.run(["php", "-r", f"echo ({formula});"], capture_output=True, check=True)
        latencies.append(time.perf_counter() - started)
    total = sum(latencies)
    return {
        "callers": 1,
        "n": runs,
        "p50": percentile(latencies, 50) * 1e3,
        "p99": percentile(latencies, 99) * 1e3,
        "rate": runs / total,
    }


def table(title: str, rows: list[dict[str, float]]) -> str:
    lines = [
        f"**{title}**",
        "",
        "| callers | formulas | p50 ms | p99 ms | formulas/s |",
        "|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        cells = (f"{r['callers']:.0f}", f"{r['n']:.0f}", f"{r['p50']:.3f}", f"{r['p99']:.3f}")
        lines.append(f"| {' | '.join(cells)} | {r['rate']:,.0f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    parser.add_argument("--cold-runs", type=int, default=300)
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args()

    pool_rows, eval_rows, size = asyncio.run(warm(args.seconds))
    baseline = cold(args.cold_runs)
    one, eight = pool_rows[0], pool_rows[-1]
    verdicts = [
        f"p50 with 1 caller: {one['p50']:.3f} ms (target <= 0.3 ms): "
        + ("met" if one["p50"] <= 0.3 else "MISSED"),
        f"throughput with 8 callers: {eight['rate']:,.0f}/s (target >= 5,000/s): "
        + ("met" if eight["rate"] >= 5000 else "MISSED"),
        f"vs cold `php -r`: {one['rate'] / baseline['rate']:.0f}x the throughput with 1 caller, "
        f"{eight['rate'] / baseline['rate']:.0f}x with 8; "
        f"p50 {baseline['p50'] / one['p50']:.0f}x lower (target >= 30x): "
        + ("met" if one["rate"] / baseline["rate"] >= 30 else "MISSED"),
    ]
    body = "\n\n".join(
        [
            "## Local pool (bubblewrap php-cli workers)\n\n"
            f"`python -m bench.bench_pool`: {size} warm workers (one per core), "
            f"{args.seconds:g} s per row, formulas like `34+89`, `pow(3,4)-8*9`, `348/9`.",
            table("Pool (`WorkerPool.run`)", pool_rows),
            table("Bot path (`Evaluator.evaluate`: checker + pool)", eval_rows),
            table("Baseline: a cold `php -r` per formula", [baseline]),
            "\n".join(f"- {v}" for v in verdicts),
        ]
    )
    print(body)
    if not args.no_write:
        write_section("pool", body)


if __name__ == "__main__":
    main()
