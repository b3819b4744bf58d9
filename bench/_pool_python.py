"""One run of bench_pool_python: a tree's checker + pool over an instant fake worker.

`python bench/_pool_python.py --code DIR --path evaluate|fresh|pool` imports `evaluator`
from DIR and prints `{"cpu_us": ...}`: this process's CPU time per formula with 8 callers
(`fresh`: the bot's path with no formula twice, `evaluate` cycles 4,000 of them).
The fake worker answers each request line of a batch with the protocol's plain-number
answer carrying that request's nonce, so the pool decodes and checks every answer as it
does php's. It writes as the tree's own worker.php does: each answer after its own turn
of the event loop (as a pipe read would), or, where the tree's PHP program says its
worker writes a batch's answers together (`answers_together`), the whole batch after one.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import random
import re
import sys
import time
from pathlib import Path
from typing import Any

_NONCE = re.compile(rb'"i":"([0-9a-f]{16})"')


class InstantWorker:
    """Answers every request at once; only what `WorkerPool` asks of a worker."""

    def __init__(self, together: bool) -> None:
        self._lines: list[bytes] = []
        self._together = together
        self._ready: list[bytes] = []

    @property
    def alive(self) -> bool:
        return True

    async def send(self, data: bytes) -> None:
        for nonce in _NONCE.findall(data):
            self._lines.append(b'{"ok":true,"t":"int","v":2,"i":"%s"}' % nonce)

    async def receive(self, deadline: float) -> bytes:
        del deadline
        await asyncio.sleep(0)
        line = self._lines.pop(0)
        if self._together:  # the rest of the batch came in the same read
            self._ready.extend(self._lines)
            self._lines.clear()
        return line

    def ready_line(self) -> bytes | None:
        return self._ready.pop(0) if self._ready else None

    def settle(self) -> None:
        pass

    async def kill(self) -> None:
        pass


class InstantFactory:
    name = "instant"

    def __init__(self, together: bool) -> None:
        self.together = together

    async def spawn(self) -> InstantWorker:
        return InstantWorker(self.together)

    async def cleanup(self) -> None:
        pass


def distinct(count: int) -> list[tuple[str, str]]:
    """(digits, formula) pairs of bench_pool's shapes, no two alike (32,805 of them, then
    again): a tree that remembers what its checker passed gains nothing from them."""
    from bench._pool_load import SHAPES

    combos = [
        (shape, *digits) for shape in SHAPES for digits in itertools.product("123456789", repeat=4)
    ]
    random.Random(7).shuffle(combos)
    return [
        ("".join(digits), shape.format(a=digits[0], b=digits[1], c=digits[2], d=digits[3]))
        for shape, *digits in combos[:count]
    ]


async def run(path: str, formulas: int) -> float:
    from bench._pool_load import FUNCTIONS, workload
    from evaluator.sandbox import program
    from evaluator.sandbox.pool import WorkerPool
    from evaluator.service import Evaluator

    together = bool(getattr(program.PHP, "answers_together", False))  # this tree's worker.php
    pool = WorkerPool(InstantFactory(together), size=2, timeout_s=2.0, queue_limit=256)  # type: ignore[arg-type]
    evaluator = Evaluator(pool, "instant")
    work = distinct(formulas) if path == "fresh" else workload(4000)
    done = 0

    async def caller(offset: int) -> None:
        nonlocal done
        index = offset
        while done < formulas:
            digits, formula = work[index % len(work)]
            verdict: Any = (
                await pool.run(formula)
                if path == "pool"
                else await evaluator.evaluate(formula, digits, FUNCTIONS)
            )
            if type(verdict).__name__ != "Evaluation":
                raise AssertionError(f"benchmark formula failed: {verdict}")
            done += 1
            index += 8

    cpu = time.process_time()
    await asyncio.gather(*(caller(k) for k in range(8)))
    used = time.process_time() - cpu
    await pool.close()
    return used / done * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--code", type=Path, required=True)
    parser.add_argument("--path", choices=("evaluate", "fresh", "pool"), default="evaluate")
    parser.add_argument("--formulas", type=int, default=60_000)
    args = parser.parse_args()
    sys.path.insert(0, str(args.code.resolve()))
    cpu_us = asyncio.run(run(args.path, args.formulas))
    code = Path(sys.modules["evaluator"].__file__ or "").resolve()
    if not str(code).startswith(str(args.code.resolve())):
        raise SystemExit(f"imported {code}, not {args.code}")
    print(json.dumps({"cpu_us": cpu_us}))


if __name__ == "__main__":
    main()
