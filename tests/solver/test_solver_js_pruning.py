"""The JavaScript solver's shortcuts never drop the true best: each against the full search.

- `listing.classed_block` (bit operations once per pair of ToInt32 groups) and
  `listing.extreme_block` (Math.max/min from sorted operands) list exactly the values,
  and the shortest length of each in every context, that every pair of the split gives;
  and every value they call untied has one shortest derivation, their witness.
- `js_values.useful_wrap` drops only wrap entries that another entry of the same value
  writes shorter in every context: the tables with and without it hold the same values
  with the same lengths.
- `x_hits` (all of these, `**` and Math.hypot inverted along a two-digit side, and a
  prepared Digits's blocks read as one list) finds every value of every pair of every
  split in random intervals, each with its shortest length.
- `candidates.collect_pruned` (function forms around the whole formula searched only
  where they can still win) gives the same answers, texts included, as searching every
  form, tiny Scores and `top` > 1 included.
"""

from __future__ import annotations

import functools
import random
import shutil

import numpy as np
import pytest

from rules.game_set import FormulaLanguage
from rules.sets import GameSet, parse_sets
from solver import candidates, listing
from solver import js_values as J
from solver import values as V
from solver.grammar import CONTEXTS, Grammar, JsOp, Level, Op, Operation
from solver.prepared import Prepared
from solver.search import list_wide, prepare, x_hits
from solver.semantics import semantics
from solver.solve import Solver
from solver.tables import RangeTables, Table, build_tables, contributions, group, reduce
from solver.toplevel import list_blocks
from tests.evaluator.js.test_js_check import JS_DARTS
from tests.solver.test_solver_search import _intervals

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")

JS_SET: GameSet = parse_sets(JS_DARTS)["js-darts"]
GRAMMAR = Grammar.for_functions(JS_SET.functions, FormulaLanguage.JAVASCRIPT)
DIGITS = ["2967", "9572", "1000", "3080", "7351"]


def _same(table: Table, other: Table) -> bool:
    """The same values with the same lengths in every context (both sorted by value)."""
    return np.array_equal(table.keys, other.keys) and np.array_equal(table.lens, other.lens)


@functools.cache
def _tables(digits: str) -> dict[tuple[int, int], RangeTables]:
    """The Digits's tables, built once for the module's tests (none of them changes one)."""
    return build_tables(digits, GRAMMAR)


def _full(vals: V.Values, length: np.ndarray, op: Operation) -> Table:
    return reduce(vals, contributions(int(op.level), length))


@pytest.mark.parametrize("digits", DIGITS)
def test_grouped_and_sorted_listings_are_the_full_listing(digits: str) -> None:
    sem = semantics(GRAMMAR)
    tables = _tables(digits)
    n = len(digits)
    checked = 0
    for split in range(1, n):
        a, c = tables[(0, split)].w, tables[(split, n)].w
        for op in GRAMMAR.ops:
            keys = sem.class_keys(op)
            if keys is not None:
                block = listing.classed_block(sem, op, split, a, c, keys)
            elif sem.picks_an_operand(op):
                block = listing.extreme_block(sem, op, split, a, c)
            else:
                continue
            vals, length, pair = listing.derive(a, c, op, None, True, sem=sem)
            assert _same(block.table, _full(vals, length, op)), (digits, split, op)
            # every untied value's witness is its only shortest derivation: sorted by value
            # then length, the value's first pair is the witness and its second is longer
            order = np.lexsort((length, vals.keys()))
            by_value, lens, pairs = vals.keys()[order], length[order], pair[order]
            untied = np.flatnonzero(~block.tied)
            first = np.searchsorted(by_value, block.table.keys[untied])
            assert np.array_equal(by_value[first], block.table.keys[untied]), (op, split)
            assert np.array_equal(pairs[first], block.witness[untied]), (op, split)
            assert np.array_equal(lens[first], block.table.lens[untied, 0]), (op, split)
            second = np.minimum(first + 1, len(by_value) - 1)
            tie = (first + 1 < len(by_value)) & (by_value[second] == by_value[first])
            assert not np.any(tie & (lens[second] == lens[first])), (op, split)
            checked += 1
    assert checked >= 8  # & | ^ << >> >>> % at every split, max and min at the middle one


def test_tied_values_of_a_grouped_listing_are_rederived_in_full() -> None:
    """A tied value's text reads rows by columns (its groups' shortest members): every
    shortest derivation of the value is among them."""
    sem = semantics(GRAMMAR)
    tables = _tables("9572")
    a, c = tables[(0, 2)].w, tables[(2, 4)].w
    for op in (JsOp.USHR, JsOp.MAX, Op.MOD):
        keys = sem.class_keys(op)
        block = (
            listing.classed_block(sem, op, 2, a, c, keys)
            if keys is not None
            else listing.extreme_block(sem, op, 2, a, c)
        )
        full_vals, full_len, full_pair = listing.derive(a, c, op, None, True, sem=sem)
        some_vals, some_len, some_pair = listing.derive(
            a, c, op, block.rows, block.rows_left, block.columns, sem
        )
        full_keys, some_keys = full_vals.keys(), some_vals.keys()
        for entry in np.flatnonzero(block.tied)[:50]:
            key, shortest = int(block.table.keys[entry]), int(block.table.lens[entry, 0])
            want = set(full_pair[(full_keys == key) & (full_len == shortest)].tolist())
            got = set(some_pair[(some_keys == key) & (some_len == shortest)].tolist())
            assert want == got, (op, entry)


@pytest.mark.parametrize("digits", DIGITS[:3])
def test_dropped_wrap_entries_change_no_table(digits: str, monkeypatch: pytest.MonkeyPatch) -> None:
    pruned = _tables(digits)
    monkeypatch.setattr(J, "useful_wrap", lambda func, argument: None)
    full = build_tables(digits, GRAMMAR)
    for span, rng in full.items():
        assert _same(pruned[span].w, rng.w), span
        assert len(rng.w.lens[0]) == CONTEXTS


CASES = [("2967", 1), ("2967", 3), ("4188", 1), ("4188", 2), ("9572", 6), ("9572", 50.5)]
CASES += [("9572", 501), ("1000", 1), ("3080", 2)]


@pytest.fixture(scope="module")
def shared_solver() -> Solver:
    """One solver for both runs of each case and both `top`s: the prepared Digits do not
    depend on how candidates are collected, and each is built once instead of four times."""
    return Solver(cache_size=len({digits for digits, _ in CASES}))


@pytest.mark.parametrize("top", [1, pytest.param(3, marks=pytest.mark.slow)])
def test_pruned_forms_give_the_answers_of_every_form(
    top: int, monkeypatch: pytest.MonkeyPatch, shared_solver: Solver
) -> None:
    solver = shared_solver

    def answers() -> list[tuple[object, ...]]:
        out: list[tuple[object, ...]] = []
        for digits, score in CASES:
            solution = solver.solve(digits, score, JS_SET, top=top)
            out += [(digits, score, c.formula, c.value, c.score) for c in solution.candidates]
            aimed = solver.solve(digits, score, JS_SET, aim=20)
            out += [(digits, score, c.formula, c.value, c.score) for c in aimed.candidates]
        return out

    pruned = answers()

    def every_form(prep, objective, bound, forms, top):  # type: ignore[no-untyped-def]
        return candidates.collect(prep, objective, bound, forms)

    monkeypatch.setattr("solver.solve.collect_pruned", every_form)
    assert pruned == answers()


def test_the_prepared_digits_answer_as_the_cold_ones() -> None:
    solver = Solver(cache_size=1)
    cold = [solver.solve("2967", s, JS_SET).best for s in (1, 3, 7, 250, 501)]
    prep = prepare("2967", GRAMMAR)
    assert prep.blocks  # listed blocks exist for the bit operations
    solver.prepare("2967", JS_SET)
    assert cold == [solver.solve("2967", s, JS_SET).best for s in (1, 3, 7, 250, 501)]


def _inside(x: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Whether each x lies in some [lo[k], hi[k]] (the intervals may overlap)."""
    order = np.argsort(lo)
    reach = np.maximum.accumulate(hi[order])
    last = np.searchsorted(lo[order], x, "right") - 1
    inside: np.ndarray = (last >= 0) & (reach[np.maximum(last, 0)] >= x)
    return inside


def _every_value_inside(
    prep: Prepared, rounds: list[tuple[np.ndarray, np.ndarray]]
) -> tuple[V.Values, np.ndarray, np.ndarray]:
    """Every top-level value (every pair of every split, no shortcut) inside any of the
    intervals, with its shortest length anywhere and as an atom."""
    sem = semantics(GRAMMAR)
    lo = np.concatenate([r[0] for r in rounds])
    hi = np.concatenate([r[1] for r in rounds])
    parts, anywhere, atom = [], [], []
    lit = sem.literal(prep.digits)
    assert lit is not None
    parts.append(lit)
    anywhere.append(np.array([4]))
    atom.append(np.array([4]))
    for split in range(1, 4):
        a, c = prep.left(split), prep.right(split)
        for op in GRAMMAR.ops:
            vals, length, _ = listing.derive(a, c, op, None, True, sem=sem)
            keep = np.flatnonzero(_inside(vals.f, lo, hi))
            parts.append(vals.take(keep))
            anywhere.append(length[keep])
            atom.append(length[keep] + 2 * (op.level < Level.ATOM))
    vals = V.concat(parts)
    order, starts, _, _ = group(vals)
    return (
        vals.take(order[starts]),
        np.minimum.reduceat(np.concatenate(anywhere)[order], starts),
        np.minimum.reduceat(np.concatenate(atom)[order], starts),
    )


@pytest.mark.parametrize("digits", ["9572", pytest.param("2967", marks=pytest.mark.slow)])
def test_the_search_finds_every_javascript_value_with_its_shortest_length(digits: str) -> None:
    """As test_solver_search does for PHP: `x_hits` (bit operations grouped, Math.max/min
    sorted, `**` and Math.hypot inverted along a two-digit side, then the prepared
    Digits's blocks listed together) against every pair of every split, in random
    intervals and around the tiny Scores."""
    prep = prepare(digits, GRAMMAR)
    rng = random.Random(digits)
    rounds = [_intervals(rng) for _ in range(4)]
    rounds.append(
        (np.array([0.999, 1.999, 2.999, -3.001]), np.array([1.001, 2.001, 3.001, -2.999]))
    )
    truth, anywhere, atom = _every_value_inside(prep, rounds)
    for round_, (lo, hi) in enumerate(rounds):
        if round_ == 2:  # the same through a prepared Digits (search.list_wide, list_blocks)
            list_wide(prep)
            list_blocks(prep)
        hits = x_hits(prep, lo, hi)
        wanted = np.flatnonzero(V.is_finite(truth) & _inside(truth.f, lo, hi))
        codes = V.identity_codes(V.concat([truth.take(wanted), hits.x]))
        truth_codes, hit_codes = codes[: len(wanted)], codes[len(wanted) :]
        size = int(codes.max(initial=0)) + 1
        best_any = np.full(size, 1 << 30)
        best_atom = np.full(size, 1 << 30)
        np.minimum.at(best_any, hit_codes, hits.length_any)
        np.minimum.at(best_atom, hit_codes, hits.length_atom)
        missing = wanted[best_any[truth_codes] != anywhere[wanted]]
        assert not len(missing), (digits, round_, truth.take(missing[:5]).scalars())
        assert np.array_equal(best_atom[truth_codes], atom[wanted])
        assert len(wanted) > 0
