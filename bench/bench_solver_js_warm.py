"""The JavaScript solver warm, beside PHP's: a game's reveals ask one Digits every round.

Run: `python -m bench.bench_solver_js_warm`. Writes the "solver-js-warm" section of
docs/BENCHMARKS.md.

One process per language and Digits, limited as the bot's solver process is (RLIMIT_DATA
256 MiB): `Solver.prepare` once (timed apart), then every Score of
bench_solver_js_small in turn on the prepared Digits, each solve's wall and CPU time.
The cold table (bench_solver_js_small) is the target; this is what a game's later
rounds cost.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from bench._report import write_section
from bench.bench_solver_js_small import BELOW_1, DIGITS, MEMORY_MB, ONE_TO_3

HERE = Path(__file__).resolve().parent.parent

_CHILD = r"""
import json, resource, sys, time
digits, name, memory_mb = sys.argv[1], sys.argv[2], int(sys.argv[3])
scores = [float(s) for s in sys.argv[4:]]
from rules.sets import CLASSIC, parse_sets
from solver.solve import Solver
from solver.node_math import NODE_MATH
import numpy as np
from tests.evaluator.js.test_js_check import JS_DARTS
game_set = parse_sets(JS_DARTS)["js-darts"] if name == "js" else CLASSIC
NODE_MATH.cbrt(np.array([8.0]))
limit = memory_mb << 20
resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
solver = Solver()
cpu = time.process_time()
solver.prepare(digits, game_set)
out = {"prepare": time.process_time() - cpu, "solves": []}
for score in scores:
    wall, cpu = time.perf_counter(), time.process_time()
    best = solver.solve(digits, score, game_set).best
    out["solves"].append([time.perf_counter() - wall, time.process_time() - cpu, best.formula])
print(json.dumps(out))
"""


def run(digits: str, language: str) -> dict[str, object]:
    scores = [repr(s) for s in (*BELOW_1, *ONE_TO_3)]
    args = [sys.executable, "-c", _CHILD, digits, language, str(MEMORY_MB), *scores]
    env = {**os.environ, "PYTHONPATH": str(HERE)}
    proc = subprocess.run(
        args, check=True, cwd=HERE, env=env, capture_output=True, text=True, timeout=600
    )
    result: dict[str, object] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    load_start = os.getloadavg()[0]
    rows, ratios = [], []
    for digits in DIGITS:
        php, js = run(digits, "php"), run(digits, "js")
        php_solves, js_solves = php["solves"], js["solves"]
        assert isinstance(php_solves, list) and isinstance(js_solves, list)
        for score, p, j in zip((*BELOW_1, *ONE_TO_3), php_solves, js_solves, strict=True):
            ratios.append(j[1] / p[1])
            rows.append(
                f"| {digits} | {score!r} | {p[0]:.3f} s, {p[1]:.3f} s CPU"
                f" | {j[0]:.3f} s, {j[1]:.3f} s CPU | {j[1] / p[1]:.1f} |"
            )
        rows.append(
            f"| {digits} | prepare | {float(str(php['prepare'])):.2f} s CPU"
            f" | {float(str(js['prepare'])):.2f} s CPU | |"
        )
        print("\n".join(rows[-16:]), flush=True)
    body = "\n".join(
        [
            "## Solver, JavaScript warm, one prepared Digits (`bench/bench_solver_js_warm.py`)",
            "",
            "One process per language and Digits with the bot's solver budget (RLIMIT_DATA",
            f"{MEMORY_MB} MiB): `Solver.prepare` once, then each Score in turn (a game's",
            "reveals: one Digits every round). Wall and CPU time of each solve; JS/PHP is the",
            f"CPU ratio. Load average {load_start:.1f} at the start, {os.getloadavg()[0]:.1f}"
            " at the end (2 shared cores).",
            "",
            "| Digits | Score | PHP | JavaScript | JS/PHP CPU |",
            "|---|---:|---|---|---:|",
            *rows,
            "",
            f"- JavaScript/PHP CPU per warm solve: median {statistics.median(ratios):.1f},"
            f" max {max(ratios):.1f}",
        ]
    )
    write_section("solver-js-warm", body + "\n")
    print(body)


if __name__ == "__main__":
    main()
