"""Practice levels: how often each checks out within the Set's minimum rounds.

Run: `python -m bench.bench_practice [--games 200]`. Writes the "practice" section
of docs/BENCHMARKS.md.

Each game is the bot alone on the classic Set from its start Score, with seeded
Digits (game i has the same Digits at every level, so levels are compared on the
same rounds) and a seeded RNG for the level's choices (`solver.practice`). Rounds
are played up to min_rounds (a checkout within them is Perfect). The solver runs in
this process, without PHP (the bot confirms with PHP; the numbers are the solver's).

Baseline in the same run: PERFECT as it played before, the best answer (smallest new
Score) every round. The other levels' code did not change: one measurement each.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from bench._report import write_section
from rules.scoring import Number, is_zero
from rules.sets import CLASSIC
from solver.finish import finishing
from solver.practice import Level, practice_move
from solver.result import Candidate
from solver.solve import Solver

SEED = 2026

Move = Callable[[Solver, str, Number, int], Candidate]  # solver, Digits, Score, round


def _digits(game: int) -> list[str]:
    rng = random.Random(f"{SEED}:digits:{game}")
    return [str(rng.randint(1000, 9999)) for _ in range(CLASSIC.max_rounds)]


def _play(solver: Solver, game: int, level: Level, old_perfect: bool) -> int | None:
    """The round of the checkout, or None: PERFECT plays up to max_rounds, the other
    levels up to min_rounds (what the table counts; their later rounds would only cost)."""
    rng = random.Random(f"{SEED}:moves:{game}:{level.value}")
    score: Number = CLASSIC.start_score
    rounds = CLASSIC.max_rounds if level is Level.PERFECT else CLASSIC.min_rounds
    for number, digits in enumerate(_digits(game)[:rounds], 1):
        move = practice_move(level, score, CLASSIC, rng)
        if move.finish and not old_perfect:
            last = number >= CLASSIC.max_rounds
            found = finishing(solver, digits, score, CLASSIC, last=last)
        else:
            found = solver.solve(digits, score, CLASSIC, aim=move.aim).best
        score = found.score
        if is_zero(score):
            return number
    return None


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    solver = Solver(cache_size=CLASSIC.min_rounds + 1)
    runs: list[tuple[str, Level, bool]] = [
        *((level.value, level, False) for level in Level if level is not Level.PERFECT),
        ("perfect, before (best answer each round)", Level.PERFECT, True),
        ("perfect, after (plays to finish)", Level.PERFECT, False),
    ]
    found: dict[str, list[int | None]] = {name: [] for name, _, _ in runs}
    spent = dict.fromkeys(found, 0.0)
    started = time.perf_counter()
    for game in range(args.games):
        for name, level, old in runs:  # game-major: its Digits stay cached across levels
            t = time.perf_counter()
            found[name].append(_play(solver, game, level, old))
            spent[name] += time.perf_counter() - t
    elapsed = time.perf_counter() - started

    def row(name: str) -> str:
        every = [r for r in found[name] if r is not None]
        rounds = [r for r in every if r <= CLASSIC.min_rounds]
        share = len(rounds) / args.games
        by_round = ", ".join(str(every.count(k)) for k in range(1, CLASSIC.max_rounds + 1))
        slowest = max(every, default=0)
        per = spent[name] / args.games * 1000
        return (
            f"| {name} | {len(rounds)} ({share:.1%}) | {by_round} | {slowest or '-'} | {per:.0f} |"
        )

    lines = [
        "## Practice levels (`bench/bench_practice.py`)",
        "",
        f"{args.games} seeded games per level (seed {SEED}) on Set `{CLASSIC.name}`"
        f" ({CLASSIC.start_score}, min_rounds {CLASSIC.min_rounds}): the bot alone, the",
        "same Digits for game i at every level, rounds up to min_rounds (PERFECT: up to",
        f"max_rounds, {CLASSIC.max_rounds}, to show how long it chases); the solver in",
        "process, without PHP. PERFECT before: the best answer (smallest new Score) every",
        "round, which chases float remainders (0.54, then 0.00035, then 9e-7...). After: the",
        "formula whose new Score the next round is likeliest to check out (the share of 12",
        "sample Digits that can take each whole Score, from the solver's tables); the",
        "revealed best answer is unchanged. The other levels' code is unchanged.",
        "",
        f"| level | checkouts within {CLASSIC.min_rounds} rounds | checkouts in round 1 ..."
        f" {CLASSIC.max_rounds} | slowest checkout | ms per game |",
        "|---|---:|---:|---:|---:|",
        *(row(name) for name, _, _ in runs),
        "",
        f"Whole run {elapsed:.0f} s (cold solves of {args.games * CLASSIC.min_rounds} Digits"
        " shared by the levels).",
    ]
    body = "\n".join(lines) + "\n"
    write_section("practice", body)
    print(body)


if __name__ == "__main__":
    main()
