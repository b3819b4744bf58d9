"""One run of bench_pool_split: where a formula's time goes on a tree's real PHP path.

`python bench/_pool_split.py --code DIR [--formulas N] [--callers 8]` imports `evaluator`
from DIR, opens its local pool (2 bubblewrap php workers), and sends N formulas that
pass the checker, no formula twice (bench_pool_python's `fresh` set), through
`Evaluator.evaluate` with `--callers` callers. It prints one JSON object per run, all
per formula: wall time, this (the bot's) process's CPU split into user and kernel
time (`getrusage`: the kernel's share is the pipes' syscalls, epoll and wake-ups),
the php workers' CPU (from `/proc`, every process under this one), and how many
formulas a batch carried (the pool's own batch counter).

Run under `strace -c` (no `-f`: the bot's thread only) it also counts the writes,
reads and `epoll_wait`s per batch; bench_pool_split does that when asked.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench._pool_load import FUNCTIONS  # this tree's bench, imported before DIR goes first
from bench._pool_python import distinct


def _children() -> list[int]:
    """Every process under this one (bwrap, php): their CPU is the workers'."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parents.setdefault(int(stat.rsplit(")", 1)[1].split()[1]), []).append(int(entry))
    found, stack = [], [os.getpid()]
    while stack:
        for child in parents.get(stack.pop(), []):
            found.append(child)
            stack.append(child)
    return found


def _cpu_s(pids: list[int]) -> float:
    """User + system CPU seconds of `pids` so far (those still alive)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


async def run(formulas: int, callers: int) -> dict[str, Any]:
    from evaluator import EvaluatorSettings, open_evaluator

    work = distinct(formulas + 500)
    warm, work = work[:500], work[500:]
    async with await open_evaluator(EvaluatorSettings(evaluator="local", pool_size=2)) as ev:
        for digits, formula in warm:
            await ev.evaluate(formula, digits, FUNCTIONS)
        counters = ev.pool._counters  # both trees count batches there
        workers, batches = _children(), counters.batches
        cursor = iter(work)

        async def caller() -> None:
            for digits, formula in cursor:
                verdict = await ev.evaluate(formula, digits, FUNCTIONS)
                if type(verdict).__name__ != "Evaluation":
                    raise AssertionError(f"benchmark formula failed: {verdict}")

        before, workers_s = resource.getrusage(resource.RUSAGE_SELF), _cpu_s(workers)
        started = time.perf_counter()
        await asyncio.gather(*(caller() for _ in range(callers)))
        wall = time.perf_counter() - started
        after, workers_s = resource.getrusage(resource.RUSAGE_SELF), _cpu_s(workers) - workers_s
        batches = counters.batches - batches
    per = 1e6 / len(work)
    return {
        "formulas": len(work),
        "wall_us": wall * per,
        "user_us": (after.ru_utime - before.ru_utime) * per,
        "sys_us": (after.ru_stime - before.ru_stime) * per,
        "workers_us": workers_s * per,
        "batches": batches,
        "per_batch": len(work) / batches,
        "load": os.getloadavg()[0],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--code", type=Path, required=True)
    parser.add_argument("--formulas", type=int, default=20_000)
    parser.add_argument("--callers", type=int, default=8)
    args = parser.parse_args()
    sys.path.insert(0, str(args.code.resolve()))
    result = asyncio.run(run(args.formulas, args.callers))
    code = Path(sys.modules["evaluator"].__file__ or "").resolve()
    if not str(code).startswith(str(args.code.resolve())):
        raise SystemExit(f"imported {code}, not {args.code}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
