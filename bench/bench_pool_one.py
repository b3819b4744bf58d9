"""One caller over real workers, trees alternating: the round trip the pool's Python sets.

Run: `python -m bench.bench_pool_one --base DIR [--base DIR ...] [--rounds 3]
[--formulas 10000]` (DIR: a checkout, e.g. `git archive a6e54aa | tar -x -C DIR`).
With one caller nothing overlaps: each formula is a write, node's or PHP's few µs, a
read and the bot's loop turns, so the bot's Python per round trip is what sets the
rate. `bench/_pool_one.py` runs each tree's own pool in a process of its own (checked),
node then PHP, the trees alternating for `--rounds`; every round is printed (at load a
round moves by 2x: compare within a round). Prints only (issue 34's ratios against
767f095 are bench_node_pool's and bench_pool's to write).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from bench._tree_driver import run_driver

ROOT = Path(__file__).resolve().parent.parent
DRIVER = ROOT / "bench" / "_pool_one.py"


def measure(tree: Path, program: str, formulas: int) -> dict[str, float]:
    return run_driver(DRIVER, tree, "--program", program, "--formulas", str(formulas))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", type=Path, action="append", required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--formulas", type=int, default=10_000)
    args = parser.parse_args()
    trees = [*args.base, ROOT]
    print("| round | load | program | tree | formulas/s | Python CPU µs/formula |")
    print("|---:|---:|---|---|---:|---:|")
    for round_ in range(1, args.rounds + 1):
        load = os.getloadavg()[0]
        for program in ("node", "php"):
            for tree in trees:
                got = measure(tree, program, args.formulas)
                name = "this tree" if tree == ROOT else str(tree)
                print(
                    f"| {round_} | {load:.1f} | {program} | {name} | {got['rate']:,.0f} "
                    f"| {got['cpu_us']:.1f} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
