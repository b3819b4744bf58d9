"""A cached board page, this tree against a baseline checkout, in the same run.

Each tree serves one server's board on a loopback port (aiohttp's test server, SQLite);
a client in the same process asks it once (the uncached page), then `--pages` times the
same address, all from the board cache. Counted per cached page: the SQL statements
the store ran (the target is none: whether the server's pages are on is remembered,
`PageKeys`) and the process's CPU time (server and client alike, the same client in
both trees). Trees alternate, each in its own process running only its own code
(`bench_service.isolated`, checked); the minimum CPU of the rounds counts.

    git archive 4382c41 | tar -x -C /tmp/base
    python -m bench.bench_cached_board --base /tmp/base --base-label 4382c41
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
from pathlib import Path

from bench._report import write_section
from bench.bench_service import ROOT, foreign_modules, isolated

WORKER = Path(__file__).resolve().parent / "_cached_board_worker.py"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--base", type=Path, required=True, help="a checkout of the baseline")
    parser.add_argument("--base-label", default="4382c41")
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    trees = {"this tree": ROOT, args.base_label: args.base.resolve()}
    load = [os.getloadavg()[0]]
    samples: dict[str, list[dict[str, float]]] = {label: [] for label in trees}
    for _ in range(args.rounds):
        for label, tree in trees.items():
            samples[label].append(_run(tree, args.pages))
    load.append(os.getloadavg()[0])
    rows = ["| code | CPU µs per cached page | SQL statements per cached page |", "|---|---:|---:|"]
    best = {label: min(s["cpu_us"] for s in runs) for label, runs in samples.items()}
    for label, runs in samples.items():
        rows.append(f"| {label} | {best[label]:.0f} | {runs[-1]['statements']:g} |")
    ratio = best[args.base_label] / best["this tree"]
    body = "\n\n".join(
        [
            "## A cached board page (`bench/bench_cached_board.py`)",
            f"{args.pages:,} requests of one cached board over a loopback port, client in "
            f"the same process; minimum CPU of {args.rounds} rounds, trees alternating, "
            f"against `{args.base_label}`. Load average {load[0]:.1f} at the start, "
            f"{load[1]:.1f} at the end (2 shared cores).",
            "\n".join(rows),
            f"- CPU per cached page: {ratio:.2f}x less than {args.base_label} "
            "(server and client together)",
        ]
    )
    print(body)
    if not args.no_write:
        write_section("cached-board", body)


def _run(tree: Path, pages: int) -> dict[str, float]:
    """One tree's measurement in its own process, with only its own code (checked)."""
    command, env = isolated(tree)
    done = subprocess.run(
        [*command, str(WORKER), "--pages", str(pages)],
        env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"worker failed ({tree}):\n{done.stderr[-3000:]}")
    result = json.loads(done.stdout)
    if foreign := foreign_modules(tree, result.pop("modules")):
        raise RuntimeError(f"worker ran code from outside {tree}: {foreign[:5]}")
    return {"cpu_us": float(result["cpu_us"]), "statements": float(result["statements"])}


if __name__ == "__main__":
    main()
