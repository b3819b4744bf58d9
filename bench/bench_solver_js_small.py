"""The JavaScript solver at Scores in (0, 1) and 1-3 beside PHP's, before and after a change.

Run: `python -m bench.bench_solver_js_small [--before /tmp/base] [--repeats 3]`. Writes
the "solver-js-small" section of docs/BENCHMARKS.md.

Each solve is a cold one in a fresh process limited as the bot's solver process is
(RLIMIT_DATA 256 MiB, solver.worker.limit_memory), so a search that needs more fails
"memory" as a reveal did (issue 29: 3489 at 0.3611 in js-darts), instead of swapping.
The solve alone is timed (imports and the node helper's start are not); the peak is the
process's VmHWM (the interpreter and numpy included, ~60 MiB). `--before` names a
checkout of the code before the change (e.g. `git worktree add /tmp/base 767f095`): the
same cases run there in the same run, on the same loaded machine. `--repeats`: each row is
sampled that many times, the trees and languages alternating within each round; a cell is
the median sample (wall, its peak) and a ratio the median of the rounds' ratios, so one
noisy sample on the shared machine does not decide a row.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

from bench._report import write_section

HERE = Path(__file__).resolve().parent.parent
DIGITS = ("3489", "4589")
BELOW_1 = (0.3611, 0.05, 0.0123, 0.001, 1e-6, 1e-9, 1e-14, 1e-20, 1e-300, 5e-324)
ONE_TO_3 = (1, 1.5, 2, 2.5, 3)
MEMORY_MB = 256
TIMEOUT_S = 120

_CHILD = r"""
import json, resource, sys, time
digits, score, name, memory_mb = sys.argv[1], float(sys.argv[2]), sys.argv[3], int(sys.argv[4])
from rules.sets import CLASSIC, parse_sets
from solver.solve import Solver
from solver.node_math import NODE_MATH
import numpy as np
from tests.evaluator.js.test_js_check import JS_DARTS
game_set = parse_sets(JS_DARTS)["js-darts"] if name == "js" else CLASSIC
NODE_MATH.cbrt(np.array([8.0]))  # the node helper started before the clock
limit = memory_mb << 20
resource.setrlimit(resource.RLIMIT_DATA, (limit, limit))
wall, cpu = time.perf_counter(), time.process_time()
try:
    best = Solver().solve(digits, score, game_set).best
    out = {"ok": True, "formula": best.formula, "score": best.score}
except MemoryError:
    out = {"ok": False, "error": "memory"}
out["wall"], out["cpu"] = time.perf_counter() - wall, time.process_time() - cpu
with open("/proc/self/status") as status:
    out["peak"] = next(int(l.split()[1]) << 10 for l in status if l.startswith("VmHWM:"))
print(json.dumps(out))
"""


def solve(tree: Path, digits: str, score: float, language: str) -> dict[str, object]:
    """One cold solve in a fresh process of the code at `tree`."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    args = [sys.executable, "-c", _CHILD, digits, repr(score), language, str(MEMORY_MB)]
    try:
        proc = subprocess.run(
            args, check=False, cwd=tree, env=env, capture_output=True, text=True, timeout=TIMEOUT_S
        )
    except subprocess.TimeoutExpired:
        return {"ok": False, "error": f"over {TIMEOUT_S} s"}
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        last = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return {"ok": False, "error": "memory" if "MemoryError" in last else last[:60]}
    result: dict[str, object] = json.loads(lines[-1])
    return result


def _cell(results: list[dict[str, object]]) -> str:
    failed = [r for r in results if not r["ok"]]
    if failed:
        return f"**{failed[0]['error']}**"
    middle = sorted(results, key=lambda r: float(str(r["wall"])))[(len(results) - 1) // 2]
    return f"{float(str(middle['wall'])):.2f} s, {int(str(middle['peak'])) >> 20} MiB"


def _ratios(js: list[dict[str, object]], php: list[dict[str, object]], what: str) -> list[float]:
    """JS/PHP of each round (the two samples minutes apart at most), none if one failed."""
    if not all(r["ok"] for r in (*js, *php)):
        return []
    return [float(str(j[what])) / float(str(p[what])) for j, p in zip(js, php, strict=True)]


def _median(ratios: list[float]) -> str:
    return f"{statistics.median(ratios):.1f}" if ratios else ""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", type=Path, help="a checkout of the code before the change")
    parser.add_argument("--repeats", type=int, default=3, help="samples of each row")
    args = parser.parse_args()
    trees = {"after": HERE, **({"before": args.before} if args.before else {})}
    load_start = os.getloadavg()[0]
    rows, ratios, cpu_ratios, before_ratios, failed = [], [], [], [], 0
    for digits in DIGITS:
        for score in (*BELOW_1, *ONE_TO_3):
            got: dict[tuple[str, str], list[dict[str, object]]] = {
                (when, lang): [] for when in trees for lang in ("php", "js")
            }
            for _ in range(args.repeats):
                for when, tree in trees.items():
                    for lang in ("php", "js"):
                        got[(when, lang)].append(solve(tree, digits, score, lang))
            js, php = got[("after", "js")], got[("after", "php")]
            wall, cpu = _ratios(js, php, "wall"), _ratios(js, php, "cpu")
            if wall:
                ratios.append(statistics.median(wall))
                cpu_ratios.append(statistics.median(cpu))
            failed += not all(r["ok"] for r in js)
            earlier = _ratios(got.get(("before", "js"), []), got.get(("before", "php"), []), "wall")
            before_ratios += [statistics.median(earlier)] if earlier else []
            before = (
                f" | {_cell(got[('before', 'php')])} | {_cell(got[('before', 'js')])}"
                f" | {_median(earlier)}"
                if "before" in trees
                else ""
            )
            rows.append(
                f"| {digits} | {score!r} | {_cell(php)} | {_cell(js)} | {_median(wall)}"
                f" | {_median(cpu)}{before} |"
            )
            print(rows[-1], flush=True)
    load_end = os.getloadavg()[0]
    before_head = " | PHP before | JavaScript before | JS/PHP before" if "before" in trees else ""
    before_rule = "---|---|---:|" if "before" in trees else ""
    body = "\n".join(
        [
            "## Solver, JavaScript at Scores below 1 and 1-3 (`bench/bench_solver_js_small.py`)",
            "",
            "Cold solves, each in a fresh process with the bot's solver budget (RLIMIT_DATA",
            f"{MEMORY_MB} MiB; a search past it fails **memory**, as a reveal did), PHP's `darts`",
            "beside JavaScript's `js-darts` at the same Digits and Score; wall time of the",
            "solve and the process's peak resident set (interpreter and numpy included);",
            "JS/PHP CPU is the ratio of the solving processes' CPU times (the node helper's",
            "few milliseconds apart), which the other engineers' load moves less than wall.",
            f"Load average {load_start:.1f} at the start, {load_end:.1f} at the end (2 cores",
            "shared with seven other engineers' work: times are loaded times; the ratio",
            "JavaScript/PHP is of the same minute).",
            f"Each row: {args.repeats} rounds, the trees and languages alternating within each;"
            " a cell is the median round's wall time and peak, a ratio the median of the"
            " rounds' ratios."
            + (
                f' "before" is the code before the change ({args.before}), run in the same'
                " minute of each row."
                if args.before
                else ""
            ),
            "",
            f"| Digits | Score | PHP | JavaScript | JS/PHP | JS/PHP CPU{before_head} |",
            f"|---|---:|---|---|---:|---:|{before_rule}",
            *rows,
            "",
            f"- JavaScript answers that failed: {failed} of {len(rows)}",
            f"- JavaScript/PHP wall time: median {statistics.median(ratios):.1f}, max"
            f" {max(ratios):.1f} (target <= 2)"
            if ratios
            else "- no ratio: nothing answered",
            f"- JavaScript/PHP CPU time of the solving process: median"
            f" {statistics.median(cpu_ratios):.1f}, max {max(cpu_ratios):.1f}"
            if cpu_ratios
            else "",
            f"- before: JavaScript/PHP wall time median {statistics.median(before_ratios):.1f},"
            f" max {max(before_ratios):.1f}"
            if before_ratios
            else "",
        ]
    )
    write_section("solver-js-small", body + "\n")
    print(body)


if __name__ == "__main__":
    main()
