"""A listed top-level block kept as its derivations until something needs it sorted.

A cold solve asks each block for the values in a few intervals (once or twice, at most
one neighbour a side) and then for the derivations of its answer's one value. For JavaScript the
big blocks (`%` at every split, `**` over the last: 150,000-300,000 derivations each)
cost more to sort and reduce to distinct values (`listing.reduce_block`) than all those
questions answered from the unsorted derivations: a pass over their keys per query.
So `search.prepare` keeps a JavaScript block as a `LazyBlock`; `exact_hits`, `padded_hits`
(one neighbour a side: `candidates.seed_bound`'s) and `entry` answer from its derivations,
and anything else (a query with more neighbours, a prepared Digits's listing, a test)
reads `table`, `witness` or `tied`, which reduce it once, as `reduce_block` always did.
Values of doubles only (`Values.doubles_only`): identity is the float key.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np

from solver import values as V
from solver.grammar import Level, Operation
from solver.hits import Hits
from solver.listing import reduce_block
from solver.prepared import Block, Listed
from solver.tables import Index, Table

Finish = Callable[[Block], Block]
"""What the reduced block still needs (more ties: a classed or bucketed listing's)."""


class LazyBlock:
    """A block's derivations (results, lengths, pair numbers), reduced on first need."""

    __slots__ = (
        "_block",
        "_finish",
        "_keys",
        "_length",
        "_pair",
        "columns",
        "op",
        "rows",
        "rows_left",
        "split",
    )

    def __init__(
        self,
        op: Operation,
        split: int,
        derived: tuple[V.Values, Index, Index],
        rows: Index | None,
        rows_left: bool = True,
        columns: Index | None = None,
        finish: Finish | None = None,
    ) -> None:
        self.op: Operation | None = op
        self.split = split
        self.rows = rows
        self.rows_left = rows_left
        self.columns = columns
        values, length, pair = derived
        # kept small until reduced: a cold solve holds every block's derivations at once
        # (~1.2 million at 4589): the float key is the value, lengths fit int16, pair
        # numbers int32 (two operand tables of at most ~60,000 and 9, or ~700 each)
        self._keys = V.float_keys(values.f)
        self._length = length.astype(np.int16)
        self._pair = pair.astype(np.int32) if len(pair) and pair.max() < 2**31 else pair
        self._finish = finish
        self._block: Block | None = None

    @property
    def block(self) -> Block:
        """The reduced block (`reduce_block`, then `finish`), built once."""
        if self._block is None:
            block = reduce_block(
                self.op,
                self.split,
                self._values(),
                self._length.astype(np.int64),
                self._pair.astype(np.int64),
                self.rows,
                self.rows_left,
                self.columns,
            )
            self._block = block if self._finish is None else self._finish(block)
            nothing = np.zeros(0, np.int64)  # the derivations are the table's now
            self._keys, self._length, self._pair = nothing, nothing.astype(np.int16), nothing
        return self._block

    @property
    def reduced(self) -> bool:
        return self._block is not None

    @property
    def table(self) -> Table:
        return self.block.table

    @property
    def witness(self) -> Index:
        return self.block.witness

    @property
    def tied(self) -> V.Bools:
        return self.block.tied

    def _values(self, index: Index | None = None) -> V.Values:
        keys = self._keys if index is None else self._keys[index]
        return V.doubles(V.floats_of_keys(keys))

    def exact_hits(self, lo: V.Floats, hi: V.Floats) -> Hits:
        """Every derivation with a value in some [lo, hi] (repeats included: the caller
        keeps each value once), as the reduced table's spans select them: by float key,
        -0 and 0 both in an interval with an end at 0."""
        if len(lo) == 0:
            inside = np.zeros(0, np.int64)
            return Hits(self._values(inside), inside, inside)
        return self._key_hits(*_interval_keys(lo, hi))

    def padded_hits(self, lo: V.Floats, hi: V.Floats) -> Hits:
        """`exact_hits` with the nearest value on each side of each interval, as
        `hits.padded_spans` with pad 1 reads the reduced table (the next value below lo, and
        above hi or, for an empty interval, from lo up), so `candidates.seed_bound`'s query
        costs two passes over the keys instead of sorting the block: a cold solve at a
        Score below 1 reduced all four of 4589's (50-110 ms) for it."""
        if len(lo) == 0:
            return self.exact_hits(lo, hi)
        k_lo, k_hi = _interval_keys(lo, hi)
        k_hi = np.maximum(k_hi, k_lo - 1)  # the reduced table's stop is at least its start
        return self._key_hits(_below(self._keys, k_lo), _above(self._keys, k_hi))

    def _key_hits(self, k_lo: V.Ints, k_hi: V.Ints) -> Hits:
        keys = self._keys
        order = np.argsort(k_lo, kind="stable")  # an empty interval (lo > hi) reaches no key
        k_lo, reach = k_lo[order], np.maximum.accumulate(k_hi[order])
        at = np.searchsorted(k_lo, keys, "right") - 1
        inside = np.flatnonzero((at >= 0) & (keys <= reach[np.maximum(at, 0)]))
        # each value once (near 0 a third of `&` and `>>`'s derivations are 0: repeats)
        order = np.argsort(keys[inside], kind="stable")
        inside = inside[order]
        first = np.ones(len(inside), np.bool_)
        first[1:] = keys[inside][1:] != keys[inside][:-1]
        starts = np.flatnonzero(first)
        assert self.op is not None
        length = np.minimum.reduceat(self._length[inside], starts).astype(np.int64)
        atom = length + 2 * (self.op.level < Level.ATOM)
        return Hits(self._values(inside[starts]), length, atom)

    def entry(self, x: V.Values) -> Block:
        """The block of x's derivations alone: x's lengths, witness and ties as the whole
        reduced block has them (the same derivations reduced; `finish` reads only those)."""
        if self._block is not None:
            return self._block
        same = np.flatnonzero(self._keys == V.float_keys(x.f)[0])
        length, pair = self._length[same].astype(np.int64), self._pair[same].astype(np.int64)
        derived = self._values(same), length, pair
        assert self.op is not None
        block = reduce_block(self.op, self.split, *derived, self.rows, self.rows_left, self.columns)
        return block if self._finish is None else self._finish(block)


def _interval_keys(lo: V.Floats, hi: V.Floats) -> tuple[V.Ints, V.Ints]:
    """The float keys of interval ends, as `tables.key_spans` reads them (0 holds -0)."""
    return V.float_keys(np.where(lo == 0, -0.0, lo)), V.float_keys(np.where(hi == 0, 0.0, hi))


_NONE_BELOW, _NONE_ABOVE = np.iinfo(np.int64).min, np.iinfo(np.int64).max
"""No float key is either (-Infinity's is above the least int64, NaN's below the most)."""


def _below(keys: V.Ints, bound: V.Ints) -> V.Ints:
    """Per bound, the greatest key below it (the bound itself when there is none)."""
    order = np.argsort(bound)
    at = np.searchsorted(bound[order], keys, "right")  # key < bound[order][j] for j >= at
    best = np.full(len(bound) + 1, _NONE_BELOW)
    np.maximum.at(best, at, keys)
    best = np.maximum.accumulate(best[:-1])
    out = np.empty_like(bound)
    out[order] = np.where(best == _NONE_BELOW, bound[order], best)
    return out


def _above(keys: V.Ints, bound: V.Ints) -> V.Ints:
    """Per bound, the least key above it (the bound itself when there is none)."""
    order = np.argsort(bound)
    at = np.searchsorted(bound[order], keys, "left")  # key > bound[order][j] for j < at
    best = np.full(len(bound) + 1, _NONE_ABOVE)
    np.minimum.at(best, at, keys)
    best = np.minimum.accumulate(best[::-1])[::-1][1:]
    out = np.empty_like(bound)
    out[order] = np.where(best == _NONE_ABOVE, bound[order], best)
    return out


_LAZY_SIZE = 65_536


def all_tied(block: Block) -> Block:
    return dataclasses.replace(block, tied=np.ones(len(block.tied), np.bool_))


def listed_block(
    op: Operation,
    split: int,
    derived: tuple[V.Values, Index, Index],
    rows: Index | None,
    rows_left: bool = True,
    columns: Index | None = None,
    finish: Finish | None = None,
) -> Listed:
    """A big block of JavaScript's doubles, a third of it distinct or more (a sample's),
    kept unreduced until read (lazy_block.py: a cold solve's few queries cost less than
    sorting it): `%` at every split and `**` over the last, 150,000-320,000 derivations
    each, 14 bytes a derivation against 41 a distinct value reduced. Any other is
    reduced now (`+` over a NaN column: 72,000 derivations, one value; every block kept
    unreduced, the 2.4 million derivations of 4589 outgrew the solver's memory)."""
    values = derived[0]
    if values.doubles_only and len(values) >= _LAZY_SIZE:
        sample = V.float_keys(values.f[:: len(values) // 1024])
        if len(np.unique(sample)) * 3 > len(sample):
            return LazyBlock(op, split, derived, rows, rows_left, columns, finish)
    block = reduce_block(op, split, *derived, rows, rows_left, columns)
    return block if finish is None else finish(block)
