"""JavaScript's unreduced blocks (`lazy_block.LazyBlock`) answer as the reduced ones do.

- `exact_hits` finds, in any intervals (ends at ±0, empty, infinite ones included), the
  values the reduced table's spans find, each with the same shortest lengths.
- `padded_hits` finds what the reduced table's spans padded by one value a side find (the
  seed bound's query: a cold solve below Score 1 reduced every block for it), and a cold
  solve at such a Score leaves its blocks unreduced.
- `entry(x)` gives x the lengths in every context, the ties and (untied) the witness
  the whole reduced block gives it.
- Cold solves with every block unreduced give the answers, texts included, of solves with
  every block reduced when it is listed (as before), `top` > 1 and tiny Scores included.
"""

from __future__ import annotations

import random
import shutil

import numpy as np
import pytest

from rules.game_set import FormulaLanguage
from rules.sets import GameSet, parse_sets
from solver import search
from solver import values as V
from solver.grammar import Grammar, Level, Operation
from solver.hits import Hits, padded_spans
from solver.lazy_block import Finish, LazyBlock
from solver.listing import reduce_block
from solver.prepared import Block, Listed
from solver.search import prepare
from solver.solve import Solver
from solver.tables import Index, expand, group
from tests.evaluator.js.test_js_check import JS_DARTS

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")

JS_SET: GameSet = parse_sets(JS_DARTS)["js-darts"]
GRAMMAR = Grammar.for_functions(JS_SET.functions, FormulaLanguage.JAVASCRIPT)


def _intervals(rng: random.Random) -> tuple[np.ndarray, np.ndarray]:
    centers = [rng.choice([0.0, -0.0, 1, -1, 2.5, 100, 197.5, 1e-20, -3]) for _ in range(5)]
    centers += [rng.uniform(-300, 300) for _ in range(4)]
    widths = [rng.choice([0.0, 1e-9, 0.5, 3.0, 40.0]) for _ in centers]
    lo = [c - w for c, w in zip(centers, widths, strict=True)] + [5.0, -np.inf, 1e300]
    hi = [c + w for c, w in zip(centers, widths, strict=True)] + [4.0, -1e300, np.inf]
    return np.array(lo), np.array(hi)


def _lazy_blocks(digits: str) -> list[LazyBlock]:
    blocks = [b for b in prepare(digits, GRAMMAR).blocks if isinstance(b, LazyBlock)]
    assert blocks  # `%` and `**` big enough to keep unreduced
    return blocks


def _distinct(hits: Hits) -> dict[int, tuple[int, int]]:
    """Each value's float key with its shortest lengths anywhere and as an atom."""
    if len(hits.x) == 0:
        return {}
    order, starts, keys, _ = group(hits.x)
    return dict(
        zip(
            keys.tolist(),
            zip(
                np.minimum.reduceat(hits.length_any[order], starts).tolist(),
                np.minimum.reduceat(hits.length_atom[order], starts).tolist(),
                strict=True,
            ),
            strict=True,
        )
    )


def _reduced_hits(block: Block, lo: np.ndarray, hi: np.ndarray, pad: int = 0) -> Hits:
    index = np.unique(expand(*padded_spans(block.table, lo, hi, pad))[0])
    lens = block.table.lens
    return Hits(
        block.table.values.take(index),
        lens[index, 0].astype(np.int64),
        lens[index, int(Level.ATOM)].astype(np.int64),
    )


@pytest.mark.parametrize("digits", ["3489", "4589", "2967"])
def test_exact_hits_are_the_reduced_tables(digits: str) -> None:
    rng = random.Random(digits)
    reduced = [lazy.block for lazy in _lazy_blocks(digits)]
    for lazy, whole in zip(_lazy_blocks(digits), reduced, strict=True):
        for _ in range(3):
            lo, hi = _intervals(rng)
            found = _distinct(lazy.exact_hits(lo, hi))
            assert found == _distinct(_reduced_hits(whole, lo, hi)), lazy.op
        assert not lazy.reduced


@pytest.mark.parametrize("digits", ["3489", "4589", "2967"])
def test_padded_hits_are_the_reduced_tables(digits: str) -> None:
    rng = random.Random(digits + "pad")
    reduced = [lazy.block for lazy in _lazy_blocks(digits)]
    for lazy, whole in zip(_lazy_blocks(digits), reduced, strict=True):
        keys = whole.table.keys
        for _ in range(3):
            lo, hi = _intervals(rng)
            # ends on the table's own values, and intervals past either end of it
            at = V.floats_of_keys(keys[[0, 1, len(keys) // 2, -2, -1]])
            lo = np.concatenate([lo, at, [-np.inf, at[-1], at[2], at[2]]])
            hi = np.concatenate([hi, at, [at[0], np.inf, at[1], at[2] - 1]])
            found = _distinct(lazy.padded_hits(lo, hi))
            assert found == _distinct(_reduced_hits(whole, lo, hi, 1)), lazy.op
            one = slice(len(lo) - 1, None)  # one interval alone: its own neighbours
            found = _distinct(lazy.padded_hits(lo[one], hi[one]))
            assert found == _distinct(_reduced_hits(whole, lo[one], hi[one], 1))
        assert not lazy.reduced


@pytest.mark.parametrize(("digits", "score"), [("4589", 0.001), ("3489", 1e-14)])
def test_a_cold_solve_below_1_reduces_no_block(digits: str, score: float) -> None:
    solver = Solver()
    solver.solve(digits, score, JS_SET)
    (entry,) = solver._cache.values()
    lazy = [b for b in entry.prep.blocks if isinstance(b, LazyBlock)]
    assert lazy
    assert not any(b.reduced for b in lazy)


@pytest.mark.parametrize("digits", ["3489", "2967"])
def test_an_entry_is_the_reduced_blocks(digits: str) -> None:
    rng = np.random.default_rng(int(digits))
    reduced = [lazy.block for lazy in _lazy_blocks(digits)]
    for lazy, whole in zip(_lazy_blocks(digits), reduced, strict=True):
        size = len(whole.table)
        sample = np.unique(
            np.concatenate([rng.integers(0, size, min(size, 40)), np.flatnonzero(whole.tied)[:20]])
        )
        for k in sample.tolist():
            x = whole.table.values.take(np.array([k]))
            one = lazy.entry(x)
            assert len(one.table) == 1
            assert np.array_equal(one.table.lens[0], whole.table.lens[k])
            assert bool(one.tied[0]) == bool(whole.tied[k]), (lazy.op, lazy.split, k)
            if not whole.tied[k]:
                assert int(one.witness[0]) == int(whole.witness[k])
        assert not lazy.reduced


SCORES = [0.3611, 0.0123, 1e-6, 1e-20, 5e-324, 1, 1.5, 2.5, 3, 45.5, 501]


@pytest.mark.parametrize("digits", ["3489", "4589", "2967", "3080"])
def test_cold_solves_answer_as_with_reduced_blocks(
    digits: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    lazy = [Solver().solve(digits, s, JS_SET, top=2).candidates for s in SCORES]
    with monkeypatch.context() as patch:
        patch.setattr(search, "listed_block", _reduced_now)
        reduced = [Solver().solve(digits, s, JS_SET, top=2).candidates for s in SCORES]
    assert lazy == reduced


def _reduced_now(
    op: Operation,
    split: int,
    derived: tuple[V.Values, Index, Index],
    rows: Index | None,
    rows_left: bool = True,
    columns: Index | None = None,
    finish: Finish | None = None,
) -> Listed:
    """lazy_block.listed_block as it was: every block reduced when it is listed."""
    block = reduce_block(op, split, *derived, rows, rows_left, columns)
    return block if finish is None else finish(block)
