"""The Python of the bot's path alone: checker + pool over an instant fake worker, against a
baseline commit, in the same run.

Run: `python -m bench.bench_pool_python [--rounds 5] [--formulas 60000] [--baseline C ...]`
(default: 767f095, issue 34's main; its target: checker + pool at most half of its Python
per formula).
`bench_pool` measures the real thing (php under bubblewrap), where a loaded 2-core
machine's scheduling moves each round by tens of percent; this one takes php and the
pipes out: `bench/_pool_python.py` drives the tree's own `Evaluator.evaluate` (and
`WorkerPool.run`) with 8 callers over a worker that answers every request at once, in
the protocol's own bytes and nonces, so the CPU time per formula is the checker's, the
service's, the pool's and the event loop's, nothing else. Trees alternate, each in its
own process; the minimum of the rounds counts (the least disturbed). Writes the
"pool-python" section of docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from bench._report import write_section
from bench._tree_driver import run_driver
from bench.bench_pool import unpack

ROOT = Path(__file__).resolve().parent.parent
DRIVER = ROOT / "bench" / "_pool_python.py"


def measure(tree: Path, path: str, formulas: int) -> float:
    cpu_us: float = run_driver(DRIVER, tree, "--path", path, "--formulas", str(formulas))["cpu_us"]
    return cpu_us


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--formulas", type=int, default=60_000)
    parser.add_argument("--baseline", action="append", help="repeatable")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args()
    baselines: list[str] = args.baseline or ["767f095"]
    with tempfile.TemporaryDirectory(prefix="fd-pool-python-") as tmp:
        trees = {"this tree": ROOT}
        for commit in baselines:
            (Path(tmp) / commit).mkdir()
            trees[commit] = unpack(commit, Path(tmp) / commit, ("evaluator", "rules", "bench"))
        samples: dict[tuple[str, str], list[float]] = {}
        for _ in range(args.rounds):
            for path in ("evaluate", "fresh", "pool"):
                for label, tree in trees.items():
                    samples.setdefault((label, path), []).append(measure(tree, path, args.formulas))
    best = {key: min(values) for key, values in samples.items()}
    rows = [
        "| code | checker + pool µs/formula | the same, no formula twice | pool alone µs/formula |",
        "|---|---:|---:|---:|",
    ]
    for label in trees:
        cells = [f"{best[label, path]:.2f}" for path in ("evaluate", "fresh", "pool")]
        rows.append(f"| {label} | {' | '.join(cells)} |")
    body = "\n\n".join(
        [
            "## The bot's path in Python alone (`bench/bench_pool_python.py`)\n\n"
            f"`Evaluator.evaluate` (checker + pool) and `WorkerPool.run`, 8 callers, "
            f"{args.formulas:,} formulas of bench_pool's workload over a fake worker that "
            "answers at once in the protocol's bytes (no php, no pipes): process CPU time "
            f"per formula, the minimum of {args.rounds} rounds, trees alternating. The "
            "workload cycles 4,000 formulas (players of a round send the same digits, and "
            "often the same formulas), so a tree that remembers what its checker passed "
            "(`evaluator.checked`) checks only the first 4,000; the next column sends each "
            "formula once (bench_pool's shapes over every 4 digits 1-9, shuffled).",
            "\n".join(rows),
            "\n".join(
                f"- against {commit}: checker + pool "
                f"{best[commit, 'evaluate'] / best['this tree', 'evaluate']:.2f}x less Python "
                f"per formula ({best[commit, 'fresh'] / best['this tree', 'fresh']:.2f}x with no "
                f"formula twice), the pool alone "
                f"{best[commit, 'pool'] / best['this tree', 'pool']:.2f}x"
                + (
                    " (issue 34's target, checker + pool >= 2x: "
                    + (
                        "met)"
                        if best[commit, "evaluate"] >= 2 * best["this tree", "evaluate"]
                        else "MISSED)"
                    )
                    if commit == "767f095"
                    else ""
                )
                for commit in baselines
            )
            + "\n- a rate is bench_pool's to say: with php and the machine's scheduling in "
            "it; this is the part the code controls.",
        ]
    )
    print(body)
    if not args.no_write:
        write_section("pool-python", body)


if __name__ == "__main__":
    main()
