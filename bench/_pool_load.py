"""One pool-load measurement, run as its own process against a given code tree.

`python bench/_pool_load.py --code DIR` imports `evaluator` from DIR (this
tree, or the baseline commit unpacked by bench_pool.py), so today's and the
baseline's pool are measured the same way in the same run. It uses only what
both have: `open_evaluator`, `Evaluator.evaluate`, `WorkerPool.run`. Prints
one JSON object: rows per caller count, the verdicts of a fixed workload, and
the code it measured.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import struct
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

FUNCTIONS = ("pow", "sqrt", "hexdec", "octdec", "bindec")
SHAPES = (
    "{a}{b}+{c}{d}",
    "{a}*{b}+{c}{d}",
    "pow({a},{b})-{c}*{d}",
    "{a}{b}{c}/{d}",
    "{a}{b}^{c}{d}",
)
ERRORS = ("1/0", "08", "sqrt(-1)", "pow(10,400)", "3 4", "1<<-1", "7%0")


def workload(count: int, seed: int = 11) -> list[tuple[str, str]]:
    """(digits, formula) pairs as players write them; all pass the checker."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        a, b, c, d = (str(rng.randint(1, 9)) for _ in range(4))
        out.append((a + b + c + d, rng.choice(SHAPES).format(a=a, b=b, c=c, d=d)))
    return out


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


async def measure(
    call: Callable[[int], Awaitable[Any]], callers: int, seconds: float
) -> dict[str, float]:
    latencies: list[float] = []
    deadline = time.perf_counter() + seconds

    async def caller(offset: int) -> None:
        i = offset
        while time.perf_counter() < deadline:
            started = time.perf_counter()
            verdict = await call(i)
            latencies.append(time.perf_counter() - started)
            if type(verdict).__name__ != "Evaluation":
                raise AssertionError(f"benchmark formula failed: {verdict}")
            i += callers

    cpu, started = time.process_time(), time.perf_counter()
    await asyncio.gather(*(caller(k) for k in range(callers)))
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    return {
        "callers": callers,
        "n": len(latencies),
        "p50": percentile(latencies, 50) * 1e3,
        "p99": percentile(latencies, 99) * 1e3,
        "rate": len(latencies) / wall,
        "cpu_us": cpu / len(latencies) * 1e6,  # this (Python) process's CPU per formula
    }


def shown(verdict: Any) -> list[Any]:
    if type(verdict).__name__ == "Evaluation":
        bits = struct.pack("<d", float(verdict.value)).hex()
        return [type(verdict.value).__name__, str(verdict.value), bits]
    # `error_class` is PHP's class name under the language seam; older trees (the
    # baseline 8829cc8) call it `php_class`
    cls = getattr(verdict, "error_class", None) or getattr(verdict, "php_class", None)
    return [verdict.code.value, verdict.message, cls]


async def run(args: argparse.Namespace) -> dict[str, Any]:
    from evaluator import EvaluatorSettings, open_evaluator

    work = workload(4000)
    settings = EvaluatorSettings(evaluator="local", pool_size=args.pool_size)
    async with await open_evaluator(settings) as evaluator:
        pool = evaluator.pool
        for _, formula in work[:500]:  # warm-up
            await pool.run(formula)
        checked = [f for _, f in work[:1000]] + list(ERRORS)
        lanes = iter(range(len(checked)))
        verdicts: list[Any] = [None] * len(checked)

        async def lane() -> None:
            for k in lanes:
                verdicts[k] = shown(await pool.run(checked[k]))

        await asyncio.gather(*(lane() for _ in range(8)))

        def bare(i: int) -> Awaitable[Any]:
            return pool.run(work[i % len(work)][1])

        def full(i: int) -> Awaitable[Any]:
            digits, formula = work[i % len(work)]
            return evaluator.evaluate(formula, digits, FUNCTIONS)

        calls = {"pool": bare, "evaluate": full}
        rows = {
            name: [await measure(calls[name], c, args.seconds) for c in args.callers]
            for name in args.paths
        }
        return {"code": str(Path(sys.modules["evaluator"].__file__ or "").parent.parent),
                "size": pool.size, "rows": rows, "verdicts": verdicts}  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--code", type=Path, required=True, help="the tree to import from")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument(
        "--callers", type=lambda s: [int(c) for c in s.split(",")], default=[1, 2, 8]
    )
    parser.add_argument("--paths", type=lambda s: s.split(","), default=["pool"])
    parser.add_argument("--pool-size", type=int, default=2)
    args = parser.parse_args()
    sys.path.insert(0, str(args.code.resolve()))
    result = asyncio.run(run(args))
    if not result["code"].startswith(str(args.code.resolve())):
        raise SystemExit(f"imported {result['code']}, not {args.code}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
