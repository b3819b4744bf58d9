"""The tables' cheaper reductions give exactly what the plain ones give.

- `tables.reduce_steps` (lengths as three 1-D columns, `Steps`) keeps the same values with
  the same shortest length in every context as `tables.reduce` over the 8 columns of
  `contributions`: on random derivations (many ties, every level) and on the real
  JavaScript and PHP tables of a few Digits, rebuilt the plain way.
- `Steps.of_lens` reads a table's lengths back exactly (each row is a staircase).
- `steps.collapse_runs` (runs of equal neighbours as one row, before a table's sort)
  changes no table: random runs with every kind of double (both zeros, NaNs of other
  bits, infinities) and the real W tables, against the same reduction without it.
- `doubles` share one read-only False and 0 per length (a bounded cache).
- `level_pairs` (each operation evaluated once over every range of a size: one node round
  trip for JavaScript's `**`) gives every range the pairs, in the same order, that
  `binary_pairs` gives it range by range.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from rules.game_set import FormulaLanguage
from rules.sets import CLASSIC, parse_sets
from solver import column
from solver import tables as T
from solver import values as V
from solver.grammar import CONTEXTS, Grammar
from solver.semantics import semantics
from solver.steps import Steps, collapse_runs
from tests.evaluator.js.test_js_check import JS_DARTS

JS = Grammar.for_functions(parse_sets(JS_DARTS)["js-darts"].functions, FormulaLanguage.JAVASCRIPT)
PHP = Grammar.for_functions(CLASSIC.functions, FormulaLanguage.PHP)


def _lens(steps: Steps) -> T.Lens:
    """Each row's length in every context, spelled out."""
    ctx = np.arange(CONTEXTS)[None, :]
    rows = steps.least[:, None] + (ctx > steps.exact[:, None]) + (ctx > steps.near[:, None])
    return rows.astype(np.int16)


def _same(table: T.Table, other: T.Table) -> None:
    assert np.array_equal(table.keys, other.keys)
    assert table.n_int == other.n_int
    assert np.array_equal(table.lens, other.lens)


@pytest.mark.parametrize("seed", range(20))
def test_steps_reduce_as_the_contexts_do(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 3000))
    distinct = int(rng.integers(1, 60))
    values = V.of_floats(rng.integers(-distinct, distinct, n) / 4)
    parts = []
    for start, stop in zip([0, n // 3, 2 * n // 3], [n // 3, 2 * n // 3, n], strict=True):
        length = rng.integers(1, 9, stop - start).astype(np.int64)
        parts.append(Steps.at_level(int(rng.integers(0, CONTEXTS)), length))
    steps = Steps.concat(parts)
    if seed % 2:  # a part given as a table's lengths (a B table inside its W table)
        inner = T.reduce(values, T.contributions(3, steps.least))
        steps = Steps.concat([steps, Steps.of_lens(inner.lens)])
        values = V.concat([values, inner.values])
    _same(T.reduce_steps(values, steps), T.reduce(values, _lens(steps)))
    _same(T.reduce_steps(values, steps, runs=True), T.reduce(values, _lens(steps)))


def _plain_tables(
    digits: str, grammar: Grammar, monkeypatch: pytest.MonkeyPatch
) -> dict[T.Span, T.RangeTables]:
    """The tables reduced over the 8 contexts of every derivation (the plain way)."""
    with monkeypatch.context() as patch:
        patch.setattr(T, "reduce_steps", lambda v, s, runs=False: T.reduce(v, _lens(s), runs))
        return T.build_tables(digits, grammar)


@pytest.mark.parametrize(
    ("digits", "grammar"),
    [("3489", JS), ("4589", JS), ("1000", JS), ("3080", PHP), ("9572", PHP)],
)
def test_real_tables_are_the_plain_ones(
    digits: str, grammar: Grammar, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = T.build_tables(digits, grammar)
    plain = _plain_tables(digits, grammar, monkeypatch)
    for span, tables in built.items():
        _same(tables.b, plain[span].b)
        _same(tables.w, plain[span].w)
        for table in (tables.b, tables.w):
            assert np.array_equal(_lens(Steps.of_lens(table.lens)), table.lens)


_ODD = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1.5, -1.5, 2.0**-1074])
_OTHER_NAN = np.array([0x7FF8000000000001], np.int64).view(np.float64)


@pytest.mark.parametrize("seed", range(20))
def test_collapsed_runs_reduce_to_the_same_table(seed: int) -> None:
    rng = np.random.default_rng(seed)
    pool = np.concatenate([_ODD, _OTHER_NAN, rng.integers(-5, 5, 8) / 2])
    n = int(rng.integers(2, 4000))
    values = V.doubles(pool[np.repeat(rng.integers(0, len(pool), n), rng.integers(1, 9, n))])
    least = rng.integers(1, 12, len(values.f)).astype(np.int64)
    # levels in blocks (a form's), whose edges may fall inside a run of one value
    block = rng.integers(0, CONTEXTS, (len(least) // 7 + 1, 2))
    exact = np.repeat(block.min(axis=1), 7)[: len(least)]
    near = np.repeat(block.max(axis=1), 7)[: len(least)]
    steps = Steps(least, exact.astype(np.int8), near.astype(np.int8))
    shorter, _ = collapse_runs(values, steps)
    assert len(shorter) < len(values)
    for runs in (False, True):  # reduce_steps collapses them first; reduce does not
        table, plain = T.reduce_steps(values, steps, runs), T.reduce(values, _lens(steps), runs)
        _same(table, plain)
    # the stable sort (a W table's) keeps even the same NaN: each key's first row heads a run
    kept = T.reduce_steps(values, steps, True).values.f.view(np.int64)
    assert np.array_equal(kept, T.reduce(values, _lens(steps), True).values.f.view(np.int64))


def test_collapse_leaves_php_values_and_distinct_doubles_alone() -> None:
    steps = Steps.at_level(3, np.arange(1, 5, dtype=np.int64))
    ints = V.of_ints(np.array([1, 1, 2, 2], np.int64))
    assert collapse_runs(ints, steps) == (ints, steps)
    distinct = V.doubles(np.array([1.0, -0.0, 0.0, np.nan]))
    assert collapse_runs(distinct, steps) == (distinct, steps)


def test_a_table_of_one_level_keeps_its_lengths() -> None:
    rng = random.Random(5)
    length = np.array([rng.randint(1, 30) for _ in range(200)], np.int64)
    values = V.of_floats(np.arange(200, dtype=np.float64))
    for level in range(CONTEXTS):
        table = T.reduce_steps(values, Steps.at_level(level, length))
        assert np.array_equal(table.lens, T.contributions(level, length))


@pytest.mark.parametrize(("digits", "grammar"), [("3489", JS), ("2967", JS), ("9572", PHP)])
def test_pairs_of_a_level_at_once_are_each_ranges(digits: str, grammar: Grammar) -> None:
    built = T.build_tables(digits, grammar)
    sem = semantics(grammar)
    for (i, j), tables in built.items():
        one_by_one = [
            T.binary_pairs(sem, op, k, built[(i, k)].w, built[(k, j)].w)
            for k in range(i + 1, j)
            for op in grammar.ops
        ]
        assert len(one_by_one) == len(tables.pairs)
        for mine, theirs in zip(tables.pairs, one_by_one, strict=True):
            assert (mine.op, mine.split) == (theirs.op, theirs.split)
            assert np.array_equal(mine.left, theirs.left)
            assert np.array_equal(mine.right, theirs.right)
            assert np.array_equal(mine.length, theirs.length)
            assert np.array_equal(mine.values.keys(), theirs.values.keys())
            assert np.array_equal(mine.values.isint, theirs.values.isint)


def test_doubles_share_one_read_only_false_and_zero_per_length() -> None:
    a, b = V.doubles(np.arange(7.0)), V.doubles(np.ones(7))
    assert a.isint is b.isint and a.i is b.i
    assert a.doubles_only and b.take(np.array([0, 3])).doubles_only
    assert not a.isint.any() and not a.i.any()
    with pytest.raises(ValueError, match="read-only"):
        a.isint[0] = True
    for n in range(column._SHARED_MOST + 5):  # bounded: cleared when full
        V.doubles(np.zeros(n))
    assert len(column._SHARED) <= column._SHARED_MOST
    assert len(V.doubles(np.zeros(3)).isint) == 3
