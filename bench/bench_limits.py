"""More seeds of issue 28's whole-bot run than the suite's one
(tests/bot/test_limits_seeded_run.py: a channel's threads under a 5-minute shared
429, a channel's followups under 429s, a 60 s ban in the middle, real games in
three channels of two servers on simcord, in virtual time).

    python -m bench.bench_limits --seeds 5       # seeds 1..5
    python -m bench.bench_limits --seed 7        # replay one seed

Each seed runs in its own pytest process (the suite's fixtures: a real PHP pool, a
fresh store); it prints each seed's verdict, its wall time and the load average,
and exits 1 when any seed broke an invariant. Wall times depend on the machine's
load (stated beside them), and are not a measure of the bot: the game's time is
virtual."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

TEST = "tests/bot/test_limits_seeded_run.py"


def run_seed(seed: int) -> tuple[bool, float, str]:
    """Whether `seed`'s run kept every invariant, its wall seconds, its last line."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", TEST],
        env={**os.environ, "FD_LIMITS_SEED": str(seed)},
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    lines = done.stdout.strip().splitlines()
    return done.returncode == 0, time.perf_counter() - started, lines[-1] if lines else ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=3, help="run seeds 1..N")
    parser.add_argument("--seed", type=int, help="run this one seed")
    args = parser.parse_args()
    seeds = [args.seed] if args.seed is not None else list(range(1, args.seeds + 1))
    broken = []
    for seed in seeds:
        load = os.getloadavg()[0]
        ok, wall_s, last = run_seed(seed)
        print(
            f"seed {seed}: {'kept' if ok else 'BROKEN'} in {wall_s:.0f} s (load {load:.1f}): {last}"
        )
        if not ok:
            broken.append(seed)
    if broken:
        print(f"broken seeds: {broken} (replay: python -m bench.bench_limits --seed N)")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
