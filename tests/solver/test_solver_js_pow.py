"""`**` with its exact cases in numpy (solver/js_pow.py) is node's, bit for bit: every
rule of `decided` against real node over random bits, the tables' kind of values and every
special value raised to every other."""

from __future__ import annotations

import shutil

import numpy as np
import pytest

from rules.game_set import FormulaLanguage
from rules.sets import parse_sets
from solver.grammar import Grammar
from solver.js_pow import decided, js_pow
from solver.node_math import NODE_MATH
from solver.tables import build_tables
from tests.evaluator.js.test_js_check import JS_DARTS

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")

SPECIAL = np.concatenate(
    [
        [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.0, -3.0, 1.5],
        [5e-324, -5e-324, 1.7976931348623157e308, -1.7976931348623157e308, 2.0**53],
        [2.0**53 + 2, -(2.0**53) - 2, 1 - 2.0**-53, 1 + 2.0**-52, -1 + 2.0**-53, 1e-300],
        [1e300, 0.3611],
    ]
)


def _bits(x: np.ndarray) -> np.ndarray:
    return np.where(np.isnan(x), np.nan, x).view(np.uint64)


def _agree(x: np.ndarray, y: np.ndarray) -> int:
    """Asserts numpy's decided pairs are node's; returns how many numpy decided."""
    done, mine = decided(x, y)
    nodes = NODE_MATH.pow(x, y)
    differ = np.flatnonzero(done & (_bits(mine) != _bits(nodes)))
    assert len(differ) == 0, list(zip(x[differ][:5], y[differ][:5], mine[differ][:5], strict=True))
    assert np.array_equal(_bits(js_pow(x, y)), _bits(nodes))
    return int(done.sum())


def test_every_special_value_raised_to_every_other() -> None:
    rng = np.random.default_rng(29)
    ordinary = np.concatenate([rng.standard_normal(400) * 1e3, np.arange(-60, 61) / 2])
    values = np.concatenate([SPECIAL, ordinary])
    x, y = np.repeat(values, len(values)), np.tile(values, len(values))
    assert _agree(x, y) > len(x) // 10


def test_the_exact_cases_over_random_doubles() -> None:
    rng = np.random.default_rng(2026)
    n = 400_000
    anything = rng.integers(0, 2**64, n, dtype=np.uint64).view(np.float64)
    scaled = rng.standard_normal(n) * 10.0 ** rng.integers(-30, 30, n)
    whole = rng.integers(-(2**20), 2**20, n).astype(np.float64)
    for base in (anything, scaled, whole):
        # each rule's exponents (and bases) against every kind of other operand
        exponents = rng.choice(SPECIAL, n)
        assert _agree(base, exponents) > 0
        assert _agree(rng.choice(SPECIAL, n), base) > 0
        assert _agree(base, rng.permutation(base)) >= 0


def test_the_tables_pairs() -> None:
    """Every pair of a two-digit table with a one-digit table, both ways: what the solver
    raises (its ±1 and NaN from Math.sign among them)."""
    game_set = parse_sets(JS_DARTS)["js-darts"]
    grammar = Grammar.for_functions(game_set.functions, FormulaLanguage.JAVASCRIPT)
    tables = build_tables("3489", grammar, longest=2)
    one, two = tables[(0, 1)].w.values.f, tables[(1, 3)].w.values.f
    x, y = np.repeat(one, len(two)), np.tile(two, len(one))
    assert _agree(x, y) > len(x) // 10
    assert _agree(y, x) > len(x) // 10
