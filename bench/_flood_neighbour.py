"""Is a core left to a SCHED_IDLE process free for the solver? The web flood bench's
question in isolation (`python -m bench._flood_neighbour`).

The pages' child runs at SCHED_IDLE (`bot.pages_child.step_aside`): the kernel gives it a
core only when no other task wants one, and the solver's wake-up preempts it. That bounds
the child's *scheduling* share, not what it does to the core the solver runs on beside
it: the two cores share the last-level cache, memory bandwidth and (in a virtual machine)
possibly one physical core. This measures the solver's own work (the same Digits and
Scores each time, nothing cached between solves) alone, then with a SCHED_IDLE process
keeping each core busy when it is free (a page-rendering stand-in: Python and numpy over
a few MiB), alternating, and prints the solves' wall and CPU seconds. CPU seconds for the
same work rise only if the work itself ran slower (a scheduler cannot take CPU time from
a task, only wall time). `--bursty` adds, in both ways, a nice-0 pair of processes that
block and wake all the time (as the bot's loop and its PHP workers do): whether SCHED_IDLE
work delays normal tasks that keep leaving a core and coming back.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import time

import rules
from bench._solver_inputs import round_score
from solver.solve import Solver

HOG = """
import os
os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
os.nice(10)
import numpy as np
a = np.random.default_rng(0).random(1_000_000)
pages = {}
n = 0
while True:
    a.sort(); a = a[::-1].copy()
    pages[n % 512] = "<tr>" * 2000 + str(n)
    n += 1
"""

PING = """
import os, sys, time
r, w = int(sys.argv[1]), int(sys.argv[2])
while os.read(r, 1):  # ends when the other side is gone
    end = time.perf_counter() + 0.0003
    while time.perf_counter() < end:
        pass
    try:
        os.write(w, b"x")
    except BrokenPipeError:
        break
"""
"""One side of a nice-0 pair trading a byte with 0.3 ms of work each (`--bursty`): normal
tasks that block and wake all the time, like the bot's loop and a PHP worker."""


def _pair() -> list[subprocess.Popen[bytes]]:
    """A bursty nice-0 ping-pong pair, already playing."""
    a_read, a_write = os.pipe()
    b_read, b_write = os.pipe()
    sides = [
        subprocess.Popen(
            [sys.executable, "-c", PING, str(mine), str(theirs)], pass_fds=(mine, theirs)
        )
        for mine, theirs in ((a_read, b_write), (b_read, a_write))
    ]
    os.write(a_write, b"x")
    for fd in (a_read, a_write, b_read, b_write):
        os.close(fd)
    return sides


def _solves(count: int) -> tuple[float, float]:
    """`count` solves of fixed Digits and Scores on a fresh solver: wall s, CPU s."""
    rng = random.Random(29)
    asks = [(rules.random_digits(rng), round_score(rng)) for _ in range(count)]
    solver = Solver(cache_size=1)
    wall, cpu = time.perf_counter(), time.process_time()
    for digits, score in asks:
        solver.solve(digits, score, rules.CLASSIC, top=3)
    return time.perf_counter() - wall, time.process_time() - cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--solves", type=int, default=4)
    parser.add_argument("--hogs", type=int, default=2, help="SCHED_IDLE neighbours")
    parser.add_argument(
        "--bursty", action="store_true",
        help="a nice-0 ping-pong pair runs beside the solves in both ways (normal tasks that "
        "block and wake, as the bot's loop and PHP do): does SCHED_IDLE work then delay them?",
    )  # fmt: skip
    args = parser.parse_args(argv)
    _solves(1)  # imports and numpy warm
    seen: dict[str, list[tuple[float, float]]] = {"alone": [], "SCHED_IDLE neighbours": []}
    for _ in range(args.rounds):
        for name, runs in seen.items():
            hogs = _pair() if args.bursty else []
            if name != "alone":
                hogs += [
                    subprocess.Popen([sys.executable, "-c", HOG]) for _ in range(args.hogs)
                ]  # fmt: skip
                time.sleep(1.0)
            try:
                runs.append(_solves(args.solves))
            finally:
                for hog in hogs:
                    hog.kill()
                    hog.wait()
    print(f"{args.solves} solves a run, {args.rounds} runs each, alternating")
    for name, runs in seen.items():
        walls = sorted(w for w, _ in runs)
        cpus = sorted(c for _, c in runs)
        print(
            f"{name}: wall s median {statistics.median(walls):.2f} "
            f"({', '.join(f'{w:.2f}' for w in walls)}); CPU s median "
            f"{statistics.median(cpus):.2f} ({', '.join(f'{c:.2f}' for c in cpus)})"
        )
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
