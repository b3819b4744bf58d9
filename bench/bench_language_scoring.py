"""Scoring through the Set's language (issue 30): what asking `LanguageRules` for each
step costs against calling PHP's steps directly, as `apply_points` did before.

Pure Python, no I/O. The baseline, measured in the same run, is the old chain of
`php_sub`/`php_abs`/`php_equal`/`php_add` called by name; the others are the real
`apply_points(..., numbers=...)` for a PHP and a JavaScript Set, and `fmt` (the bot's
number text) through the registration against `php_text` directly. Each is the median
of `--repeats` runs of `--calls` calls, in ns per call.

    python -m bench.bench_language_scoring            # writes docs/BENCHMARKS.md
    python -m bench.bench_language_scoring --no-write
"""

from __future__ import annotations

import argparse
import os
import statistics
import timeit
from collections.abc import Callable

from bench._report import write_section
from bot.common import fmt
from rules.game_set import FormulaLanguage
from rules.languages import language_rules
from rules.scoring import Number, apply_points, php_abs, php_add, php_equal, php_sub, php_text

PHP = language_rules(FormulaLanguage.PHP)
JS = language_rules(FormulaLanguage.JAVASCRIPT)


def old_apply_points(score: Number, result: Number, goal: int, bonus: int) -> tuple[Number, Number]:
    """`apply_points` as it was before it asked the language (the baseline)."""
    points = php_abs(php_sub(goal, php_abs(php_sub(result, goal))))
    if php_equal(points, goal):
        points = php_add(points, bonus)
    return points, php_abs(php_sub(score, points))


def _ns(call: Callable[[], object], calls: int, repeats: int) -> float:
    runs = timeit.repeat(call, number=calls, repeat=repeats)
    return statistics.median(runs) / calls * 1e9


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200_000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    n, r = args.calls, args.repeats
    load_before = os.getloadavg()[0]
    cases: list[tuple[str, Callable[[], object]]] = [
        (
            "baseline: the old PHP chain, called by name",
            lambda: old_apply_points(501, 123, 100, 50),
        ),
        ("`apply_points`, a PHP Set (ints)", lambda: apply_points(501, 123, 100, 50, numbers=PHP)),
        ("`apply_points`, a JavaScript Set", lambda: apply_points(501, 123.0, 100, 50, numbers=JS)),
        (
            "baseline: `php_text(x, zero_fraction=False)`",
            lambda: php_text(1e25, zero_fraction=False),
        ),
        (
            "`fmt(x, FormulaLanguage.PHP)` through the bundle",
            lambda: fmt(1e25, FormulaLanguage.PHP),
        ),
    ]
    rows = [(name, _ns(call, n, r)) for name, call in cases]
    score_base, text_base = rows[0][1], rows[3][1]
    lines = [
        "## Scoring through the Set's language (`bench/bench_language_scoring.py`)",
        "",
        f"Pure Python, median of {r} runs of {n:,} calls, ns per call; each ratio is to the "
        f"baseline of its kind measured in the same run. Load average at the start "
        f"{load_before:.1f} (the machine is shared; at the end: below).",
        "",
        "| what | ns / call | ratio |",
        "|---|---|---|",
    ]
    for i, (name, ns) in enumerate(rows):
        base = score_base if i < 3 else text_base
        lines.append(f"| {name} | {ns:.0f} | {ns / base:.2f}x |")
    body = "\n".join(lines)
    print(body)
    if not args.no_write:
        write_section("language-scoring", body)


if __name__ == "__main__":
    main()
