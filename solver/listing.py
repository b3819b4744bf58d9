"""Listing one operation over one split: every pair, or fewer where the language lets a
few pairs stand for all (each value's shortest derivation always among them).

`derive` evaluates pairs, `reduce_block` keeps each value once with its shortest length
and a witness pair. `classed_block` lists JavaScript's bit operations once per pair of
ToInt32 groups; `extreme_block` lists Math.max and Math.min from sorted operands.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from rules.game_set import FormulaLanguage
from solver import values as V
from solver.grammar import JsOp, Level, Operation
from solver.prepared import Block
from solver.semantics import SEMANTICS, KeyOf, Semantics
from solver.tables import Index, Lens, Table, contributions, group

PHP_NUMBERS = SEMANTICS[FormulaLanguage.PHP]


def reduce_block(
    op: Operation | None,
    split: int,
    vals: V.Values,
    length: Index,
    pair: Index,
    rows: Index | None,
    rows_left: bool = True,
    columns: Index | None = None,
) -> Block:
    level = int(op.level) if op is not None else int(Level.ATOM)
    order, starts, keys, n_int = group(vals)
    sorted_len = length[order]
    best = np.minimum.reduceat(sorted_len, starts)
    is_best = sorted_len == np.repeat(best, np.diff(np.append(starts, len(order))))
    position = np.where(is_best, np.arange(len(order)), len(order))
    first = np.minimum.reduceat(position, starts)
    count = np.add.reduceat(is_best.astype(np.int64), starts)
    table = Table(vals.take(order[starts]), keys, n_int, contributions(level, best))
    return Block(op, split, table, pair[order[first]], count > 1, rows, rows_left, columns)


def derive(
    a: Table,
    c: Table,
    op: Operation,
    rows: Index | None,
    rows_left: bool,
    columns: Index | None = None,
    sem: Semantics = PHP_NUMBERS,
) -> tuple[V.Values, Index, Index]:
    """op over every pair, or over `rows` of one side (and `columns` of the other): results,
    lengths, pair numbers (left * len(c) + right); the language's errors dropped."""
    side = np.arange(len(a) if rows_left else len(c)) if rows is None else rows
    other = np.arange(len(c) if rows_left else len(a)) if columns is None else columns
    first = np.repeat(side, len(other))
    second = np.tile(other, len(side))
    left, right = (first, second) if rows_left else (second, first)
    # the grid's operands and lengths repeated and tiled from the few taken ones: a
    # gather of every pair (three columns of 500,000) cost more than the operation
    x, y = (a, c) if rows_left else (c, a)
    cx, cy = op.contexts() if rows_left else op.contexts()[::-1]
    x_vals = x.values.take(side).repeat_each(len(other))
    y_vals = y.values.take(other).tile(len(side))
    x_lens = np.repeat(x.lens[side, cx].astype(np.int64), len(other))
    length = op.length + x_lens + np.tile(y.lens[other, cy], len(side))
    out, ok = sem.binary(op)(*((x_vals, y_vals) if rows_left else (y_vals, x_vals)))
    pair = left * len(c) + right
    if bool(ok.all()):  # JavaScript has no errors: nothing to drop
        return out, length, pair
    keep = np.flatnonzero(ok)
    return out.take(keep), length[keep], pair[keep]


Sorted = tuple[Index, Index, Index]  # order by key, group starts in it, group of each
Groupings = dict[tuple[int, KeyOf], Sorted]
"""Per table and key: its entries sorted by key, kept through one `prepare` (the three
shifts and `& | ^` at a split group the same tables by the same keys)."""


def _sorted_by(table: Table, key_of: KeyOf, cache: Groupings) -> Sorted:
    memo = (id(table), key_of)
    if memo not in cache:
        key = key_of(table.values.f)
        order = np.argsort(key, kind="stable")
        first = np.ones(len(order), np.bool_)
        first[1:] = key[order][1:] != key[order][:-1]
        cache[memo] = (order, np.flatnonzero(first), np.cumsum(first) - 1)
    return cache[memo]


def _classes(
    table: Table, key_of: KeyOf, ctx: int, cache: Groupings
) -> tuple[Index, Index, V.Bools]:
    """Entries grouped by a key that fixes the operation's result: the shortest entry of
    each group in the context (its representative: the first such), every entry as short
    as its group's shortest, and per entry whether its group has more than one of those
    (texts then tie)."""
    order, starts, group = _sorted_by(table, key_of, cache)
    if len(order) == 0:
        return order, order, np.zeros(0, np.bool_)
    lens = table.lens[order, ctx]
    at_min = lens == np.minimum.reduceat(lens, starts)[group]
    position = np.where(at_min, np.arange(len(order)), len(order))
    count = np.add.reduceat(at_min.astype(np.int64), starts)
    several = np.zeros(len(order), np.bool_)
    several[order] = count[group] > 1
    return order[np.minimum.reduceat(position, starts)], np.sort(order[at_min]), several


def classed_block(
    sem: Semantics,
    op: Operation,
    split: int,
    a: Table,
    c: Table,
    keys: tuple[KeyOf, KeyOf],
    cache: Groupings | None = None,
) -> Block:
    """op over every pair, evaluated once per pair of key groups (`Semantics.class_keys`):
    JavaScript's `& | ^` read only ToInt32 of each operand and a shift count only its low 5
    bits, so a 90,000-value table is some 4,000 groups and `y >> s` 32. Each value's
    shortest derivation pairs two representatives (a longer member of a group gives the
    same value, longer); where a group has two shortest members, or two pairs of groups
    give the value as short, the value is tied and its text reads every pair of shortest
    members."""
    listed = classed_listing(sem, op, split, a, c, keys, cache)
    return listed.finish(reduce_block(op, split, *listed.derived, *listed.rows_columns))


@dataclasses.dataclass(frozen=True, slots=True)
class Classed:
    """`classed_block` before its reduction: the representatives' derivations, the members
    the block's rows and columns are, and the ties the reduced block adds (`finish`)."""

    derived: tuple[V.Values, Index, Index]
    rows_columns: tuple[Index, bool, Index]
    row_ties: V.Bools
    col_ties: V.Bools
    right_count: int

    def finish(self, block: Block) -> Block:
        left, right = block.witness // self.right_count, block.witness % self.right_count
        tied = block.tied | self.row_ties[left] | self.col_ties[right]
        return dataclasses.replace(block, tied=tied)


def classed_listing(
    sem: Semantics,
    op: Operation,
    split: int,
    a: Table,
    c: Table,
    keys: tuple[KeyOf, KeyOf],
    cache: Groupings | None = None,
) -> Classed:
    """What `classed_block` reduces (search.prepare keeps JavaScript's unreduced)."""
    cache = {} if cache is None else cache
    cl, cr = op.contexts()
    rows, row_members, row_ties = _classes(a, keys[0], cl, cache)
    cols, col_members, col_ties = _classes(c, keys[1], cr, cache)
    derived = derive(a, c, op, rows, True, cols, sem)
    return Classed(derived, (row_members, True, col_members), row_ties, col_ties, len(c))


def pairs(
    a: Table, c: Table, op: Operation, left: Index, right: Index, sem: Semantics
) -> tuple[V.Values, Index, Index]:
    """op over the given (left, right) pairs, as `derive` gives its results."""
    out, ok = sem.binary(op)(a.values.take(left), c.values.take(right))
    keep = np.flatnonzero(ok)
    cl, cr = op.contexts()
    length = op.length + a.lens[left[keep], cl].astype(np.int64) + c.lens[right[keep], cr]
    return out.take(keep), length, left[keep] * len(c) + right[keep]


def _partners(mine: V.Floats, theirs: V.Floats, lens: Lens, greater: bool) -> Index:
    """For each of `mine`: the shortest of `theirs` at most it (greater) or at least it
    (else), or -1. Both are ordinary numbers here (no NaN, no zero)."""
    if not greater:  # at least x: the same search on the negated values
        return _partners(-mine, -theirs, lens, True)
    if len(theirs) == 0:
        return np.full(len(mine), -1, np.int64)
    order = np.argsort(theirs, kind="stable")
    value, length = theirs[order], lens[order].astype(np.int64)
    best = np.minimum.accumulate(length)
    # where the running minimum was reached first: the shortest (first in sort order)
    at = np.flatnonzero(np.append(True, best[1:] < best[:-1]))
    first = at[np.searchsorted(at, np.arange(len(best)), "right") - 1]
    upto = np.searchsorted(value, mine, "right")
    return np.where(upto > 0, order[first[np.maximum(upto - 1, 0)]], -1)


def extreme_block(sem: Semantics, op: Operation, split: int, a: Table, c: Table) -> Block:
    """Math.max or Math.min over every pair from about len(a) + len(c) pairs: for two
    ordinary numbers (not NaN, not ±0) the result is one of them, `max(x, y)` is x for
    every y <= x, so x's shortest derivation pairs it with the shortest such y (and y's with
    the shortest x <= y). Pairs with a NaN or a zero (-0 and +0 are told apart) are all
    evaluated. Every value is marked tied: its text re-derives the whole split."""
    greater = op is JsOp.MAX
    x, y = a.values.f, c.values.f
    cl, cr = op.contexts()
    odd_x, odd_y = np.isnan(x) | (x == 0), np.isnan(y) | (y == 0)
    plain_x, plain_y = np.flatnonzero(~odd_x), np.flatnonzero(~odd_y)
    for_x = _partners(x[plain_x], y[plain_y], c.lens[plain_y, cr], greater)
    for_y = _partners(y[plain_y], x[plain_x], a.lens[plain_x, cl], greater)
    has_x, has_y = for_x >= 0, for_y >= 0
    everything_x, everything_y = np.arange(len(a)), np.arange(len(c))
    odd_rows, odd_cols = np.flatnonzero(odd_x), np.flatnonzero(odd_y)
    left = np.concatenate(
        [
            plain_x[has_x],
            plain_x[for_y[has_y]],
            np.repeat(odd_rows, len(c)),
            np.tile(everything_x, len(odd_cols)),
        ]
    )
    right = np.concatenate(
        [
            plain_y[for_x[has_x]],
            plain_y[has_y],
            np.tile(everything_y, len(odd_rows)),
            np.repeat(odd_cols, len(a)),
        ]
    )
    vals, length, pair = pairs(a, c, op, left, right, sem)
    block = reduce_block(op, split, vals, length, pair, None)
    return dataclasses.replace(block, tied=np.ones(len(block.tied), np.bool_))
