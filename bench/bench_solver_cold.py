"""A cold best answer through `SolverProcess`, this tree against baseline trees, each
running its own code (issue 34's recheck: 331 ms p50 here against 236 at 8829cc8 on 6
Digits, at load).

For each Digits (seeded), each tree in turn starts a `SolverProcess` in a fresh Python of
its own (`-S`, the tree first on the path: see `bench_service.isolated`; a run that loaded
a project module from outside its tree is refused), warms it on 1234 and times a cold
`best` for a new Digits at 501, IPC included: what a reveal of a new game's first round
waits for. The trees alternate per Digits, so the load that comes and goes falls on all.

    python -m bench.bench_solver_cold --base 767f095 --base 8829cc8 [--digits 12]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from bench._report import percentile, write_section
from bench.bench_service import foreign_modules, isolated

ROOT = Path(__file__).resolve().parent.parent

_CHILD = """
import asyncio, json, sys, time
from rules.sets import CLASSIC
from solver import Solution, SolverProcess

async def main(digits):
    async with SolverProcess(timeout_s=60) as process:
        await process.best("1234", 501, CLASSIC)
        out = []
        for d in digits:
            started = time.perf_counter()
            got = await process.best(d, 501, CLASSIC)
            out.append(time.perf_counter() - started)
            assert isinstance(got, Solution), got
    return out

times = asyncio.run(main(sys.argv[1:]))
modules = {}
for name, module in list(sys.modules.items()):
    if name.split(".")[0] in ("rules", "solver", "evaluator", "bot"):
        places = getattr(module, "__path__", None) or [getattr(module, "__file__", None)]
        modules[name] = [str(p) for p in places if p]
print(json.dumps({"times": times, "modules": modules}))
"""


def cold(tree: Path, digits: list[str]) -> list[float]:
    """Cold `best` latencies (s) of `digits` in one `SolverProcess` of `tree`'s code."""
    command, env = isolated(tree)
    done = subprocess.run(
        [*command, "-c", _CHILD, *digits],
        check=False,
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{tree}: {done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if foreign := foreign_modules(tree, result["modules"]):
        raise RuntimeError(f"{tree} ran code from outside it: {foreign[:5]}")
    return [float(t) for t in result["times"]]


def checkout(commit: str, into: Path) -> Path:
    """`commit`'s files unpacked by `git archive` (no install: the child imports them)."""
    tree = into / commit
    tree.mkdir()
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", commit], capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    return tree


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", action="append", default=[], help="a baseline commit")
    parser.add_argument("--digits", type=int, default=12)
    parser.add_argument("--per-process", type=int, default=3, help="cold Digits per process")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    rng = random.Random(2026)
    digits = [f"{rng.randint(1000, 9999)}" for _ in range(args.digits)]
    load = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory() as scratch:
        trees = {"this tree": ROOT, **{c: checkout(c, Path(scratch)) for c in args.base}}
        times: dict[str, list[float]] = {label: [] for label in trees}
        step = args.per_process
        for i in range(0, len(digits), step):
            for label, tree in trees.items():
                times[label] += cold(tree, digits[i : i + step])
        load.append(os.getloadavg()[0])
    rows = [
        "## A cold best answer through `SolverProcess` (`bench/bench_solver_cold.py`)",
        "",
        f"{len(digits)} random Digits (seed 2026), Score 501, a cold `best` each (IPC "
        f"included) in a `SolverProcess` warmed on 1234, {step} Digits per process; each "
        "tree runs its own code in its own Python (checked), the trees alternating. "
        f"Load average {load[0]:.1f} at the start, {load[1]:.1f} at the end.",
        "",
        "| code | p50 ms | p90 ms | max ms | p50 / this tree's |",
        "|---|---:|---:|---:|---:|",
    ]
    mine = percentile(times["this tree"], 50)
    for label, samples in times.items():
        p50 = percentile(samples, 50)
        rows.append(
            f"| {label} | {p50 * 1e3:.0f} | {percentile(samples, 90) * 1e3:.0f} "
            f"| {max(samples) * 1e3:.0f} | {p50 / mine:.2f} |"
        )
    text = "\n".join(rows)
    print(text)
    if not args.no_write:
        write_section("solver-cold", text)


if __name__ == "__main__":
    main()
