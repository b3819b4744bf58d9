"""The top level: every formula of all the Digits, searched near the objective's best values.

The whole-Digits range is never materialised. Operations without a simple
inverse (`% & | ^ << >>`, pow, ...) are materialised per split, reduced to
distinct values; `+ - * /` (and, along a single digit, bit operations and
pow) are inverted row
by row over the smaller operand table, so a query reads only the few pairs
whose result can land in the objective's intervals. hexdec, octdec and
bindec around the whole formula read its text, which no interval inverts:
they are evaluated over every top-level value (`textforms.TextTable`), and only
when the cheaper forms leave room for them to matter (`_text_forms_needed`).
A prepared Digits (`prepared.Prepared`) has its top level listed (`hits.TopLevel`): `x_hits`
then reads it instead of inverting.
"""

from __future__ import annotations

import numpy as np

from rules.game_set import FormulaLanguage
from solver import inverse
from solver import values as V
from solver.grammar import NEG, Func, Function, Grammar, JsFunc, Level, Operation, Wrap
from solver.hits import Hits, padded_spans
from solver.lazy_block import LazyBlock, all_tied, listed_block
from solver.listing import Groupings, classed_listing, derive, extreme_block, reduce_block
from solver.objective import Intervals, widen
from solver.prepared import Block, Inverted, Listed, Prepared
from solver.semantics import SEMANTICS, Semantics, semantics
from solver.tables import (
    Index,
    Table,
    build_tables,
    distinct_indices,
    expand,
    group,
    literal_value,
)

__all__ = ["Block", "Hits", "Inverted", "Prepared", "derive", "padded_spans"]  # read from here too

PHP_NUMBERS = SEMANTICS[FormulaLanguage.PHP]
PLAIN: Wrap | None = None
Form = Wrap | None


def block_derivations(prep: Prepared, block: Listed) -> tuple[V.Values, Index, Index]:
    assert block.op is not None
    return derive(
        prep.left(block.split),
        prep.right(block.split),
        block.op,
        block.rows,
        block.rows_left,
        block.columns,
        semantics(prep.grammar),
    )


def _plan_blocks(
    sem: Semantics,
    op: Operation,
    split: int,
    a: Table,
    c: Table,
    blocks: list[Listed],
    inverted: list[Inverted],
    groupings: Groupings | None = None,
) -> None:
    """Add what searches op over this split: listed blocks and inverted rows (inverse.py)."""
    classes = sem.class_keys(op)
    if classes is not None:
        listed = classed_listing(sem, op, split, a, c, classes, groupings)
        blocks.append(listed_block(op, split, listed.derived, *listed.rows_columns, listed.finish))
        return
    how = sem.plan(op, a.values, c.values)
    if how is None and sem.picks_an_operand(op):
        blocks.append(extreme_block(sem, op, split, a, c))
        return
    if how is None:
        blocks.append(listed_block(op, split, derive(a, c, op, None, True, sem=sem), None))
        return
    rows_left = how.rows_left
    other = c if rows_left else a
    invert = how.rows(inverse.RowKind.INVERT)
    if len(invert):
        inverted.append(Inverted(op, split, rows_left, invert))
        odd = sem.odd_columns(op, other.values)
        if len(odd):
            derived = derive(a, c, op, odd, not rows_left, sem=sem)
            blocks.append(listed_block(op, split, derived, odd, not rows_left))
    listed_rows = how.rows(inverse.RowKind.LIST)
    if len(listed_rows):
        derived = derive(a, c, op, listed_rows, rows_left, sem=sem)
        blocks.append(listed_block(op, split, derived, listed_rows, rows_left))
    bucketed = how.rows(inverse.RowKind.BUCKET)
    if len(bucketed):
        ctx = op.contexts()[1 if rows_left else 0]
        keys = sem.bucket_keys(op, rows_left, other.values)
        order = np.lexsort((other.lens[:, ctx], keys))
        first = np.ones(len(order), np.bool_)
        first[1:] = keys[order][1:] != keys[order][:-1]
        representatives = order[first]
        derived = derive(a, c, op, bucketed, rows_left, representatives, sem)
        # a bucket hides its other members: texts re-derive these rows in full
        blocks.append(listed_block(op, split, derived, bucketed, rows_left, None, all_tied))


def prepare(digits: str, grammar: Grammar) -> Prepared:
    tables = build_tables(digits, grammar)
    n = len(digits)
    blocks: list[Listed] = []
    lit = literal_value(digits, grammar)
    if lit is not None:
        blocks.append(
            reduce_block(None, 0, lit, np.array([n], np.int64), np.zeros(1, np.int64), None)
        )
    inverted: list[Inverted] = []
    groupings: Groupings = {}
    for split in range(1, n):
        a, c = tables[(0, split)].w, tables[(split, n)].w
        for op in grammar.ops:
            _plan_blocks(semantics(grammar), op, split, a, c, blocks, inverted, groupings)
    return Prepared(digits, grammar, tables, blocks, inverted)


def list_wide(prep: Prepared) -> None:
    """List as blocks what is inverted along a side of more than `inverse.SMALL` values
    other than `+ - * /`: JavaScript's `**` and Math.hypot over the middle split. A cold
    solve reads a few of their pairs; a prepared Digits is asked many Scores, and each
    query would send its `**` pairs to node (a round trip each, slow on a loaded machine)."""
    sem = semantics(prep.grammar)
    kept: list[Inverted] = []
    for inv in prep.inverted:
        if inv.op in inverse.ARITHMETIC or len(inv.rows) <= inverse.SMALL:
            kept.append(inv)
            continue
        vals, length, pair = derive(
            prep.left(inv.split), prep.right(inv.split), inv.op, inv.rows, inv.rows_left, sem=sem
        )
        prep.blocks.append(
            reduce_block(inv.op, inv.split, vals, length, pair, inv.rows, inv.rows_left)
        )
    prep.inverted = kept


# --- forms around the whole formula ---------------------------------------------------------


def invertible_forms(grammar: Grammar) -> list[Form]:
    forms: list[Form] = [PLAIN, NEG]
    for func in grammar.funcs:
        if not func.reads_text:
            forms += [Wrap(func, shape) for shape in grammar.shapes(func)]
    return forms


def _func_preimage(func: Function, lo: V.Floats, hi: V.Floats, literal: float) -> Intervals:
    """Intervals of x holding every x with func(x) in [lo, hi] (maybe wider); for
    Math.sign, every x that can be the argument of a shortest formula (below)."""
    if func in (Func.SQRT, JsFunc.SQRT):
        ok = hi >= 0
        low = np.maximum(lo, 0.0)
        with np.errstate(over="ignore"):  # past the largest double: no x is that large
            return np.where(ok, low * low, np.inf), np.where(ok, hi * hi, -np.inf)
    if func is JsFunc.CBRT:
        with np.errstate(over="ignore"):
            return lo * lo * lo, hi * hi * hi
    if func is JsFunc.SIGN:
        return _sign_preimage(lo, hi, literal)
    if func in (Func.ABS, JsFunc.ABS):
        ok = hi >= 0
        low = np.maximum(lo, 0.0)
        return (
            np.concatenate([np.where(ok, low, np.inf), np.where(ok, -hi, np.inf)]),
            np.concatenate([np.where(ok, hi, -np.inf), np.where(ok, -low, -np.inf)]),
        )
    if func in ROUNDING:
        return _rounding_preimage(func, lo, hi)
    raise ValueError(f"{func.value} has no interval inverse")


ROUNDING = frozenset(
    {Func.FLOOR, Func.CEIL, Func.ROUND, JsFunc.FLOOR, JsFunc.CEIL, JsFunc.ROUND, JsFunc.TRUNC}
)
"""Functions whose every finite value is a whole number."""


def _rounding_preimage(func: Function, lo: V.Floats, hi: V.Floats) -> Intervals:
    """The x a rounding function takes to a whole number n in [lo, hi] (none when no whole
    number lies there: near a Score below 1, `Math.round` around x in [S - 1, S + 1] read
    a million values for nothing). floor: [n, n + 1), ceil: (n - 1, n], round: [n - 0.5,
    n + 0.5] (either way at the halves; PHP's pre-rounding is inside `widen`'s slack),
    trunc: (n - 1, n + 1) at 0, [n, n + 1) above, (n - 1, n] below."""
    n_lo, n_hi = np.ceil(lo), np.floor(hi)
    if func in (Func.FLOOR, JsFunc.FLOOR):
        x_lo, x_hi = n_lo, n_hi + 1
    elif func in (Func.CEIL, JsFunc.CEIL):
        x_lo, x_hi = n_lo - 1, n_hi
    elif func is JsFunc.TRUNC:
        x_lo, x_hi = np.where(n_lo <= 0, n_lo - 1, n_lo), np.where(n_hi >= 0, n_hi + 1, n_hi)
    else:
        x_lo, x_hi = n_lo - 0.5, n_hi + 0.5
    some = n_lo <= n_hi
    return np.where(some, x_lo, np.inf), np.where(some, x_hi, -np.inf)


def _sign_preimage(lo: V.Floats, hi: V.Floats, literal: float) -> Intervals:
    """Math.sign gives -1, ±0 or 1. Its 0 comes from the zeros. Its 1 from any x > 0, but
    the shortest of those is the literal of all the Digits (every other formula of them
    is longer, and it is positive: 1000-9999), and its -1 is best written `-Math.sign(L)`
    (as long as `Math.sign(x)` with the shortest x < 0, and `-` sorts before `M`): only
    the literal can be the argument of a shortest formula giving ±1. Under the readability
    order (grammar.formula_cost) `Math.sign(3-489)` reads better than `-Math.sign(3489)`
    (no unary minus) and is not searched here, around the whole formula (inside it every
    value's Math.sign is in the tables): a best answer that is a whole `-Math.sign(...)`
    (Result -1) may carry one unary minus more than the most readable; its Score is still
    the best."""
    zero = (lo <= 0) & (hi >= 0)
    one = (lo <= 1) & (hi >= 1)
    return (
        np.concatenate([np.where(zero, 0.0, np.inf), np.where(one, literal, np.inf)]),
        np.concatenate([np.where(zero, 0.0, -np.inf), np.where(one, literal, -np.inf)]),
    )


def form_preimage(
    form: Form, lo: V.Floats, hi: V.Floats, literal: float = float("nan")
) -> Intervals:
    if form is None:
        return lo, hi
    if form.func is None:
        return -hi, -lo
    if form.shape.outer:
        lo, hi = -hi, -lo
    lo, hi = _func_preimage(form.func, lo, hi, literal)
    if form.shape.inner:
        lo, hi = -hi, -lo
    keep = lo <= hi
    return widen(lo[keep], hi[keep])


def apply_form(form: Form, x: V.Values, sem: Semantics = PHP_NUMBERS) -> V.Values:
    return x if form is None else sem.apply_wrap(form, x)


def form_length(form: Form) -> int:
    return 0 if form is None else form.length


def form_context(form: Form) -> int:
    return 0 if form is None else form.inner_context


# --- hits -----------------------------------------------------------------------------------


def _block_hits(block: Listed, lo: V.Floats, hi: V.Floats, pad: int) -> Hits:
    if isinstance(block, LazyBlock) and not block.reduced and pad <= 1:
        return block.padded_hits(lo, hi) if pad else block.exact_hits(lo, hi)
    starts, stops = padded_spans(block.table, lo, hi, pad)
    index, _ = expand(starts, stops)
    index = distinct_indices(index, len(block.table))
    lens = block.table.lens
    return Hits(
        block.table.values.take(index),
        lens[index, 0].astype(np.int64),
        lens[index, int(Level.ATOM)].astype(np.int64),
    )


def inverted_pairs(
    prep: Prepared,
    inv: Inverted,
    lo: V.Floats,
    hi: V.Floats,
    pad: int = 0,
    max_length: int | None = None,
) -> Index:
    """Pair numbers (left * len(right) + right) whose result may lie in the intervals (and
    whose formula is at most `max_length` long)."""
    a, c = prep.left(inv.split), prep.right(inv.split)
    rows_table, other = (a, c) if inv.rows_left else (c, a)
    found_rows: list[Index] = []
    found_other: list[Index] = []
    sem = semantics(prep.grammar)
    bounds = sem.bounds(inv.op, inv.rows_left, rows_table.values.take(inv.rows), lo, hi)
    span = len(other) + 1  # a row's ranges of the other table, numbered apart from the next
    for raw_lo, raw_hi in bounds:
        blo, bhi = widen(raw_lo.ravel(), raw_hi.ravel())
        keep = np.flatnonzero(blo <= bhi)
        owner = np.repeat(keep // len(lo), 2)  # two spans an interval: ints, then floats
        starts, stops = padded_spans(other, blo[keep], bhi[keep], pad)
        index, _ = expand(*_merged(owner * span + starts, owner * span + stops))
        found_rows.append(inv.rows[index // span])
        found_other.append(index % span)
    rows_i = np.concatenate(found_rows)
    other_i = np.concatenate(found_other)
    left_i, right_i = (rows_i, other_i) if inv.rows_left else (other_i, rows_i)
    if max_length is not None:
        cl, cr = inv.op.contexts()
        length = inv.op.length + a.lens[left_i, cl].astype(np.int64) + c.lens[right_i, cr]
        short = length <= max_length
        left_i, right_i = left_i[short], right_i[short]
    return distinct_indices(left_i * len(c) + right_i, len(a) * len(c))


def _merged(starts: Index, stops: Index) -> tuple[Index, Index]:
    """The same index ranges, overlaps joined: a row's intervals often select the same
    values (`y % 9` reads every y for each interval near 0, 18 times over near Score 0.05)."""
    keep = stops > starts
    starts, stops = starts[keep], stops[keep]
    if len(starts) < 2:
        return starts, stops
    order = np.argsort(starts, kind="stable")
    starts, stops = starts[order], stops[order]
    reach = np.maximum.accumulate(stops)
    first = np.ones(len(starts), np.bool_)
    first[1:] = starts[1:] > reach[:-1]
    begin = np.flatnonzero(first)
    end = np.append(begin[1:], len(starts)) - 1
    return starts[begin], reach[end]


def pair_values(
    prep: Prepared, op: Operation, split: int, pair: Index
) -> tuple[V.Values, Index, Index]:
    """op over the given pairs: results, shortest length, and which pairs have a value."""
    a, c = prep.left(split), prep.right(split)
    left_i, right_i = pair // len(c), pair % len(c)
    x, ok = semantics(prep.grammar).binary(op)(a.values.take(left_i), c.values.take(right_i))
    keep = np.flatnonzero(ok)
    cl, cr = op.contexts()
    length = op.length + a.lens[left_i[keep], cl].astype(np.int64) + c.lens[right_i[keep], cr]
    return x.take(keep), length, keep


def _inverted_hits(
    prep: Prepared, inv: Inverted, lo: V.Floats, hi: V.Floats, pad: int, max_length: int | None
) -> Hits:
    pair = inverted_pairs(prep, inv, lo, hi, pad, max_length)
    x, length, _ = pair_values(prep, inv.op, inv.split, pair)
    return Hits(x, length, length + 2 * (inv.op.level < Level.ATOM))


def x_hits(
    prep: Prepared,
    lo: V.Floats,
    hi: V.Floats,
    pad: int = 0,
    *,
    listed: bool = True,
    inverted: bool = True,
    max_length: int | None = None,
) -> Hits:
    """Every top-level x in the intervals (with `pad` neighbours around each, per table):
    of the listed blocks, of the inverted operations, or both; `max_length` drops inverted
    pairs written longer (candidates.collect_pruned)."""
    if len(lo) == 0:
        return Hits.concat([])
    if prep.top_level is not None:  # prepared: the whole top level is listed
        return prep.top_level.hits(lo, hi, pad) if listed else Hits.concat([])
    parts = []
    if listed and prep.listed is not None:  # prepared, its blocks listed together
        parts.append(prep.listed.hits(lo, hi, pad))
    elif listed:
        parts += [
            _block_hits(block, lo, hi, pad)
            for block in prep.blocks
            if isinstance(block, LazyBlock) or len(block.table)
        ]
    if inverted:  # each part reduced as it comes: near 0 most pairs repeat (memory)
        parts += [
            _distinct(_inverted_hits(prep, inv, lo, hi, pad, max_length)) for inv in prep.inverted
        ]
    return _distinct(Hits.concat(parts))


def _distinct(hits: Hits) -> Hits:
    """Each value once, with its shortest lengths: every wrap form is then applied once per
    value. Near 0 most pairs repeat a few values (JavaScript's `y >> 31` is 0 or -1 for
    every y): before this a Score of 1 applied 23 forms to three million hits (19 s)."""
    if len(hits.x) < 2:
        return hits
    order, starts, _, _ = group(hits.x)
    return Hits(
        hits.x.take(order[starts]),
        np.minimum.reduceat(hits.length_any[order], starts),
        np.minimum.reduceat(hits.length_atom[order], starts),
    )
