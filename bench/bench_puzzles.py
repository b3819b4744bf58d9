"""Puzzles headless (issue 32): serving a puzzle and grading an answer, the bot's own work
per answer, and a Storm of many players at once.

No simulator: the real `PuzzleRuns` on a real store (SQLite) with the real local PHP pool
and a pool the real solver filled first (not timed). Measured per answer: the whole
`submit` (PHP's judgement of the formula, the grade against the stored best answer, the
answer's save, the next puzzle served), PHP's part, and *own* = the whole less PHP; *CPU*
is the event loop thread's CPU time through the same call (`time.thread_time`: the bot's
own work without the time the shared machine kept it waiting). The baseline measured in
the same run is PHP's own time for the same formulas: what any answer costs anyway.
No solver is called while answering (counted: the solver is closed before the answers).

    python -m bench.bench_puzzles                 # writes docs/BENCHMARKS.md
    python -m bench.bench_puzzles --answers 200 --storm-seconds 20 --no-write
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import random
import tempfile
import time
from collections.abc import Iterable
from typing import Any

import rules
from bench._report import percentile, write_section
from bot.common import SetsDirectory
from bot.puzzles import Graded, PoolFiller, PuzzleRuns, Shown
from bot.solving import ConfirmedSolver
from bot.storage import PuzzleKind, Store, open_store
from evaluator import EvaluatorSettings, open_evaluator
from rules.grade import grade
from solver.process import Lane, SolverProcess

DARTS = rules.CLASSIC


class TimedJudge:
    """The evaluator, with the time each formula spent in it kept."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.spent = 0.0

    @property
    def timeout_s(self) -> float:
        return float(self.inner.timeout_s)

    async def evaluate(self, *args: Any, **kwargs: Any) -> Any:
        began = time.perf_counter()
        try:
            return await self.inner.evaluate(*args, **kwargs)
        finally:
            self.spent += time.perf_counter() - began


async def fill(store: Store, evaluator: Any, size: int) -> float:
    began = time.perf_counter()
    async with SolverProcess() as solver:
        filler = PoolFiller(store, ConfirmedSolver(solver, evaluator, lane=Lane.AHEAD),
                            rng=random.Random(1))  # fmt: skip
        await store.puzzles.want(DARTS, 0.0)
        while await store.puzzles.count(DARTS) < size:
            await filler.add_one(DARTS)
    return time.perf_counter() - began


def formula_for(digits: str, rng: random.Random) -> str:
    """A formula a player might write: the Digits in order with + - * between them (a
    digit each, so no literal is octal)."""
    ops = [rng.choice("+-*") for _ in range(3)]
    return "".join(d + o for d, o in zip(digits, [*ops, ""], strict=True))


async def answer_once(runs: PuzzleRuns, judge: TimedJudge, run_id: str, user: int, shown: Any,
                      rng: random.Random) -> tuple[float, float, float, Any]:  # fmt: skip
    formula = formula_for(shown.puzzle.digits, rng)
    php_before = judge.spent
    cpu = time.thread_time()
    began = time.perf_counter()
    graded = await runs.submit(run_id, user, shown.seq, formula)
    whole = time.perf_counter() - began
    cpu = time.thread_time() - cpu
    php = judge.spent - php_before
    return whole, php, cpu, graded


def row(name: str, samples: Iterable[float]) -> str:
    values = list(samples)
    return (f"| {name} | {len(values)} | {percentile(values, 50) * 1000:.2f} | "
            f"{percentile(values, 99) * 1000:.2f} |")  # fmt: skip


async def sequential(runs: PuzzleRuns, judge: TimedJudge, answers: int) -> dict[str, list[float]]:
    rng = random.Random(2)
    out: dict[str, list[float]] = {"serve": [], "own": [], "cpu": [], "php": [], "whole": []}
    user = 1
    shown = None
    while len(out["own"]) < answers:
        if shown is None:
            began = time.perf_counter()
            shown = await runs.start(1, user, PuzzleKind.STORM, None, "en")
            out["serve"].append(time.perf_counter() - began)
            user += 1
        whole, php, cpu, graded = await answer_once(runs, judge, shown.run.id, shown.run.user_id,
                                                    shown, rng)  # fmt: skip
        out["whole"].append(whole)
        out["php"].append(php)
        out["own"].append(whole - php)
        out["cpu"].append(cpu)
        shown = graded.next if isinstance(graded, Graded) else shown
        if shown is not None and shown.seq > 40:
            shown = None
    return out


async def storm_of(runs: PuzzleRuns, judge: TimedJudge, players: int, every_s: float,
                   seconds: float) -> dict[str, list[float]]:  # fmt: skip
    """`players` Storms at once, each answering every `every_s` seconds (staggered)."""
    out: dict[str, list[float]] = {"own": [], "cpu": [], "php": [], "whole": []}
    end = time.monotonic() + seconds

    async def player(n: int) -> None:
        rng = random.Random(100 + n)
        await asyncio.sleep(every_s * n / players)
        shown: Shown | None = await runs.start(2, 1000 + n, PuzzleKind.STORM, None, "en")
        while shown is not None and time.monotonic() < end:
            whole, php, cpu, graded = await answer_once(runs, judge, shown.run.id, 1000 + n,
                                                        shown, rng)  # fmt: skip
            out["whole"].append(whole)
            out["php"].append(php)
            out["own"].append(whole - php)
            out["cpu"].append(cpu)
            shown = graded.next if isinstance(graded, Graded) else shown
            await asyncio.sleep(every_s)

    await asyncio.gather(*(player(n) for n in range(players)))
    return out


async def main(args: argparse.Namespace) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        store = await open_store(f"sqlite+aiosqlite:///{tmp}/bench.sqlite3")
        evaluator = await open_evaluator(EvaluatorSettings(evaluator="local", pool_size=2))
        try:
            filled_s = await fill(store, evaluator, args.pool)
            judge = TimedJudge(evaluator)
            long_storm = dataclasses.replace(DARTS, storm_seconds=3600)
            sets = SetsDirectory(store, {"darts": long_storm})
            runs = PuzzleRuns(store, judge, sets, time.time)
            await sequential(runs, judge, 50)  # warm-up
            one = await sequential(runs, judge, args.answers)
            many = await storm_of(runs, judge, args.players, args.every, args.storm_seconds)
        finally:
            await evaluator.close()
            await store.close()
    grade_s = []
    for _ in range(10000):
        began = time.perf_counter()
        _points, got = rules.apply_points(501, 123, 100, 50, numbers=DARTS.language_rules)
        grade(501, 0, got)
        grade_s.append(time.perf_counter() - began)
    load = os.getloadavg()[0]
    ratio_p50 = percentile(one["own"], 50) / percentile(one["php"], 50)
    ratio_p99 = percentile(one["own"], 99) / percentile(one["php"], 99)
    lines = [
        "## Puzzles, headless (`bench/bench_puzzles.py`)",
        "",
        f"The real `PuzzleRuns` on SQLite with the real local PHP pool (2 workers); a pool of "
        f"{args.pool} darts puzzles filled first by the real solver and confirmed by PHP "
        f"({filled_s:.0f} s, not timed below); no solver call while answering. *Own* is the "
        "whole `submit` (PHP's judgement, the grade against the stored best answer, the "
        "answer's save, the next puzzle served) less PHP's part; *CPU* the event loop "
        "thread's CPU time through it. Times in ms. Load average at the end: "
        f"{load:.1f} (the machine is shared).",
        "",
        "| what | n | p50 ms | p99 ms |",
        "|---|---|---|---|",
        row("serve a first puzzle (`start`: pick + store the run)", one["serve"]),
        row("answer, one at a time: own", one["own"]),
        row("answer, one at a time: CPU", one["cpu"]),
        row("answer, one at a time: PHP (the baseline)", one["php"]),
        row("answer, one at a time: whole", one["whole"]),
        row("the grade alone (`apply_points` + `rules.grade`)", grade_s),
        row(
            f"Storm of {args.players} at once, 1 answer / {args.every:.0f} s each: own", many["own"]
        ),
        row(f"Storm of {args.players} at once: CPU", many["cpu"]),
        row(f"Storm of {args.players} at once: PHP", many["php"]),
        "",
        f"Own work over PHP's for the same answers, same run: p50 {ratio_p50:.2f}x, "
        f"p99 {ratio_p99:.2f}x. Target: own p99 under 5 ms per answer, "
        f"{'met' if percentile(one['own'], 99) < 0.005 else 'NOT met'} one at a time, "
        f"{'met' if percentile(many['own'], 99) < 0.005 else 'NOT met'} in the Storm of "
        f"{args.players}.",
    ]
    return "\n".join(lines)


def cli() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--answers", type=int, default=1000)
    parser.add_argument("--pool", type=int, default=60)
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--every", type=float, default=5.0)
    parser.add_argument("--storm-seconds", type=float, default=60.0)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    body = asyncio.run(main(args))
    print(body)
    if not args.no_write:
        write_section("puzzles", body)


if __name__ == "__main__":
    cli()
