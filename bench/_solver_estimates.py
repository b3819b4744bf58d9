"""What bench_solver compares the solver with: every formula through PHP, a table on disk.

The obvious approach evaluates every formula of the grammar in the warm PHP pool; it
cannot be run whole (the grammar has ~10^9 formulas per Digits), so the pool's rate is
measured on a slice (`pool_rate`) and the full count computed exactly from the grammar
(`formula_count`). The other, a precomputed table of every Result of all 9,000 Digits,
is sized from the solver's own tables of a sample (`table_bytes`, `result_table`).
"""

from __future__ import annotations

import time

import numpy as np

from evaluator import EvaluatorSettings, open_evaluator
from rules.sets import CLASSIC
from solver.grammar import Grammar
from solver.search import prepare
from solver.tables import RangeTables
from solver.textforms import build_text_table
from tests.solver.test_solver_optimality import slice_formulas


def formula_count(digits: str, grammar: Grammar) -> int:
    """How many formulas (not values) the grammar has for these Digits, exactly."""
    n = len(digits)
    wraps = 1 + len(grammar.wraps)
    count: dict[tuple[int, int], int] = {}
    for size in range(1, n + 1):
        for i in range(n - size + 1):
            j = i + size
            text = digits[i:j]
            literal = (
                0 if (len(text) > 1 and text[0] == "0" and any(c in "89" for c in text)) else 1
            )
            binary = sum(count[(i, k)] * count[(k, j)] for k in range(i + 1, j)) * len(grammar.ops)
            count[(i, j)] = (literal + binary) * wraps
    return count[(0, n)]


async def pool_rate(digits: str) -> tuple[float, int]:
    formulas = sorted(slice_formulas(digits, ()))
    async with await open_evaluator(EvaluatorSettings(evaluator="local", pool_size=2)) as ev:
        await ev.evaluate_many((f, digits, CLASSIC) for f in formulas[:200])
        started = time.perf_counter()
        await ev.evaluate_many((f, digits, CLASSIC) for f in formulas)
        elapsed = time.perf_counter() - started
    return len(formulas) / elapsed, len(formulas)


def table_bytes(tables: dict[tuple[int, int], RangeTables]) -> int:
    return sum(t.w.values.f.nbytes + t.w.values.i.nbytes + t.w.lens.nbytes for t in tables.values())


def result_table(digits: str, grammar: Grammar) -> tuple[int, float]:
    """Distinct top-level values (before the outer wrap) and their mean shortest length."""
    prep = prepare(digits, grammar)
    every = next(iter(build_text_table(prep, None).readings.values()))
    return len(every.x), float(np.mean(every.length))
