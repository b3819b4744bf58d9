"""One run of bench_pool_one: a tree's pool, one caller, over real local workers.

`python bench/_pool_one.py --code DIR --program node|php --formulas N` imports
`evaluator` from DIR (checked) and prints `{"rate": ..., "cpu_us": ...}`: formulas per
second with one caller awaiting one formula at a time over 2 warm bubblewrap workers,
and this process's CPU time per formula (the pool's Python, its syscalls and loop
turns; the workers are other processes).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

FORMULAS = {
    "node": ("34+89", "Math.pow(3,4)-8*9", "348/9"),
    "php": ("34+89", "pow(3,4)-8*9", "348/9"),
}


async def run(program_name: str, count: int) -> dict[str, float]:
    from evaluator.sandbox.local import LocalWorkerFactory
    from evaluator.sandbox.program import NODE, PHP
    from evaluator.service import make_pool
    from evaluator.settings import EvaluatorSettings

    program = NODE if program_name == "node" else PHP
    settings = EvaluatorSettings(evaluator="local", pool_size=2, timeout_s=2.0)
    pool = make_pool(LocalWorkerFactory(settings, program=program), settings, program=program)
    await pool.start()
    formulas = FORMULAS[program_name]
    try:
        for _ in range(300):  # warm both workers
            await pool.run("1+1")
        cpu, wall = time.process_time(), time.perf_counter()
        for k in range(count):
            await pool.run(formulas[k % len(formulas)])
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    finally:
        await pool.close()
    return {"rate": count / wall, "cpu_us": cpu / count * 1e6}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--code", type=Path, required=True)
    parser.add_argument("--program", choices=("node", "php"), default="node")
    parser.add_argument("--formulas", type=int, default=10_000)
    args = parser.parse_args()
    sys.path.insert(0, str(args.code.resolve()))
    result = asyncio.run(run(args.program, args.formulas))
    code = Path(sys.modules["evaluator"].__file__ or "").resolve()
    if not str(code).startswith(str(args.code.resolve())):
        raise SystemExit(f"imported {code}, not {args.code}")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
