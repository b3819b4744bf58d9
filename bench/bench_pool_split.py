"""Where the bot's real PHP path spends a formula: Python, the kernel, php, or waiting.

Run: `python -m bench.bench_pool_split [--rounds 3] [--formulas 20000] [--baseline C ...]
[--strace] [--perf]`. Each tree (this one, then each baseline unpacked by `git archive`) runs
`bench/_pool_split.py` in its own process, alternating, `--rounds` times: 8 callers,
no formula twice, through `Evaluator.evaluate` over 2 real bubblewrap php workers. Per
formula it prints the wall time, the bot's user and kernel CPU, the workers' CPU and
the formulas a batch carried; the minimum of the rounds counts (the least disturbed).
With `--strace`, one more run per tree under `strace -c` (the bot's thread only, warm-up
included; strace slows it, so only its counts mean anything) gives the writes, reads
and `epoll_wait`s per batch. With `--perf`, one more run per tree under `perf stat` counts
the same syscalls at the kernel's tracepoints without slowing anything (the bot and its
php workers together; php reads its stdin blocking, so the `epoll_wait`s are the bot's).
Prints only: the numbers go into a section by hand.

Issue 34 holds the bot's path within 1.5x of `worker.php` alone. On a quiet machine the
bot's process is the bottleneck whenever its CPU per formula is about its wall time per
formula: then the ratio is the bot's Python and syscalls against php's own work.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from bench._tree_driver import run_driver
from bench.bench_pool import unpack

ROOT = Path(__file__).resolve().parent.parent
DRIVER = ROOT / "bench" / "_pool_split.py"
_STRACE_ROW = re.compile(r"^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(\w+)$", re.M)


def traced(tree: Path, formulas: int) -> dict[str, int]:
    """Syscall counts of the bot's thread for one run (`strace -c`, no `-f`)."""
    with tempfile.NamedTemporaryFile(prefix="fd-split-", suffix=".txt") as out:
        subprocess.run(
            ["strace", "-c", "-o", out.name, sys.executable, str(DRIVER), "--code", str(tree),
             "--formulas", str(formulas)],
            check=True, capture_output=True,
        )  # fmt: skip
        text = Path(out.name).read_text()
    return {name: int(calls) for calls, name in _STRACE_ROW.findall(text)}


_SYSCALLS = ("write", "read", "epoll_wait")


def counted(tree: Path, formulas: int) -> tuple[dict[str, int], int]:
    """Syscalls of the bot and its workers for one run (`perf stat` at the tracepoints),
    and the batches of that run (its JSON, warm-up excluded)."""
    events = ",".join(f"syscalls:sys_enter_{name}" for name in _SYSCALLS)
    out = subprocess.run(
        ["perf", "stat", "-x", ",", "-e", events, sys.executable, str(DRIVER), "--code",
         str(tree), "--formulas", str(formulas)],
        check=True, capture_output=True, text=True,
    )  # fmt: skip
    counts = {}
    for row in out.stderr.splitlines():
        fields = row.split(",")
        if len(fields) > 2 and fields[2].startswith("syscalls:sys_enter_"):
            counts[fields[2].removeprefix("syscalls:sys_enter_")] = int(fields[0])
    return counts, int(json.loads(out.stdout)["batches"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--formulas", type=int, default=20_000)
    parser.add_argument("--baseline", action="append", help="repeatable")
    parser.add_argument("--strace", action="store_true")
    parser.add_argument("--perf", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="fd-pool-split-") as tmp:
        trees = {"this tree": ROOT}
        for commit in args.baseline or ["767f095"]:
            (Path(tmp) / commit).mkdir()
            trees[commit] = unpack(commit, Path(tmp) / commit, ("evaluator", "rules", "bench"))
        runs: dict[str, list[dict[str, Any]]] = {label: [] for label in trees}
        for _ in range(args.rounds):
            for label, tree in trees.items():
                runs[label].append(run_driver(DRIVER, tree, "--formulas", str(args.formulas)))
        print("| code | load | wall µs | bot user µs | bot kernel µs | php workers µs | a batch |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        for label, done in runs.items():
            for one in sorted(done, key=lambda r: r["wall_us"]):
                print(
                    f"| {label} | {one['load']:.1f} | {one['wall_us']:.1f} | {one['user_us']:.1f} "
                    f"| {one['sys_us']:.1f} | {one['workers_us']:.1f} | {one['per_batch']:.2f} |"
                )
        if args.strace:
            for label, tree in trees.items():
                counts = traced(tree, args.formulas)
                total = args.formulas + 500  # the warm-up is in strace's counts
                print(
                    f"- {label}, strace -c of {total:,} formulas: "
                    + ", ".join(
                        f"{name} {counts.get(name, 0) / total:.2f}"
                        for name in ("write", "read", "epoll_wait")
                    )
                    + " a formula"
                )
        if args.perf:
            for label, tree in trees.items():
                counts, batches = counted(tree, args.formulas)
                total = args.formulas + 500  # the warm-up (one formula a batch) is counted too
                print(
                    f"- {label}, perf stat of {total:,} formulas ({batches:,} batches after the "
                    "warm-up): "
                    + ", ".join(f"{name} {counts.get(name, 0):,}" for name in _SYSCALLS)
                )


if __name__ == "__main__":
    main()
