"""Distinct values per digit range, with the shortest formula length per context.

PHP evaluates a formula compositionally, so the values one digit range can
produce are exactly its table, however they were written: keeping each value
once (with its shortest length in every context) loses nothing. A table holds
ints sorted by value, then floats sorted by `float_keys`, so a numeric
interval is two binary searches.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import NDArray

from solver import values as V
from solver.grammar import CONTEXTS, NEG, Grammar, Level, Operation, Shape, Wrap
from solver.semantics import Semantics, semantics
from solver.steps import Steps, collapse_runs, per_group

Lens = NDArray[np.int16]
Index = NDArray[np.int64]
Span = tuple[int, int]

_CTX = np.arange(CONTEXTS)
_I_LO, _I_HI = -9.2e18, 9.2e18


@dataclass(frozen=True, slots=True)
class Table:
    """Distinct values (ints first), each with its shortest length per context."""

    values: V.Values
    keys: V.Ints
    n_int: int
    lens: Lens  # (n, CONTEXTS); lens[k, c]: shortest text of value k where level >= c is needed

    def __len__(self) -> int:
        return len(self.keys)

    def find(self, lo: V.Floats, hi: V.Floats) -> tuple[Index, Index]:
        """Flat indices of values numerically in [lo[k], hi[k]], and which k each came from."""
        starts, stops = self.spans(lo, hi)
        return expand(starts, stops)

    def spans(self, lo: V.Floats, hi: V.Floats) -> tuple[Index, Index]:
        """Index spans [start, stop) per bound pair: ints then floats, 2 spans per pair."""
        return key_spans(self.keys, self.n_int, lo, hi)

    def index_of(self, value: V.Values) -> Index:
        """Flat index of each given value in this table, or -1."""
        out = np.full(len(value), -1, np.int64)
        keys = value.keys()
        for is_int, lo, hi in ((True, 0, self.n_int), (False, self.n_int, len(self.keys))):
            sel = np.flatnonzero(value.isint == is_int)
            part = self.keys[lo:hi]
            if len(part) == 0:
                continue
            pos = np.searchsorted(part, keys[sel])
            found = (pos < len(part)) & (part[np.minimum(pos, len(part) - 1)] == keys[sel])
            out[sel[found]] = pos[found] + lo
        return out


def key_spans(keys: V.Ints, n_int: int, lo: V.Floats, hi: V.Floats) -> tuple[Index, Index]:
    """In sorted keys (ints, then float keys): index spans [start, stop) of the values
    numerically in [lo[k], hi[k]], two per bound pair (the ints', the floats')."""
    ints, fkeys = keys[:n_int], keys[n_int:]
    ilo = np.clip(np.ceil(lo), _I_LO, _I_HI).astype(np.int64)
    ihi = np.clip(np.floor(hi), _I_LO, _I_HI).astype(np.int64)
    i_start = np.searchsorted(ints, ilo, "left")
    i_stop = np.searchsorted(ints, ihi, "right")
    flo = V.float_keys(np.where(lo == 0, -0.0, lo))
    fhi = V.float_keys(np.where(hi == 0, 0.0, hi))
    f_start = np.searchsorted(fkeys, flo, "left") + n_int
    f_stop = np.searchsorted(fkeys, fhi, "right") + n_int
    starts = np.stack([i_start, f_start], axis=1).ravel()
    stops = np.maximum(np.stack([i_stop, f_stop], axis=1).ravel(), starts)
    return starts.astype(np.int64), stops.astype(np.int64)


def expand(starts: Index, stops: Index) -> tuple[Index, Index]:
    """Concatenate the ranges [starts[k], stops[k]); also return k for every index."""
    lengths = stops - starts
    total = int(lengths.sum())
    owner = np.repeat(np.arange(len(starts)), lengths)
    offsets = np.cumsum(lengths) - lengths
    index = np.arange(total) - np.repeat(offsets, lengths) + np.repeat(starts, lengths)
    return index.astype(np.int64), owner


def distinct_indices(index: Index, size: int) -> Index:
    """np.unique of indices into [0, size): marked in a mask of `size` when that is at most a
    few times the indices (numpy's hashing unique took 28 s of a wide query's 41 on tens of
    millions of pair numbers below 600,000), else sorted."""
    if size > 4 * len(index) + 4096:
        out: Index = np.unique(index)
        return out
    seen = np.zeros(size, np.bool_)
    seen[index] = True
    return np.flatnonzero(seen)


def group(values: V.Values, runs: bool = False) -> tuple[Index, Index, V.Ints, int]:
    """Sort values by identity: (order, group starts in that order, group keys, ints count).

    `runs`: the values are a few long sorted runs (a sorted table and its wraps, most of
    them monotone): timsort merges them (a third of quicksort's time on a W table)."""
    kind: Literal["stable", "quicksort"] = "stable" if runs else "quicksort"
    if not values.isint.any():  # JavaScript's doubles: one sort, no int part to set apart
        keys = V.float_keys(values.f)
        order = np.argsort(keys, kind=kind)
        sorted_keys = keys[order]
        boundary = np.ones(len(order), np.bool_)
        boundary[1:] = sorted_keys[1:] != sorted_keys[:-1]
        starts = np.flatnonzero(boundary)
        return order, starts, sorted_keys[starts], 0
    keys = values.keys()
    int_sel = np.flatnonzero(values.isint)
    float_sel = np.flatnonzero(~values.isint)
    int_order = int_sel[np.argsort(keys[int_sel], kind=kind)]
    float_order = float_sel[np.argsort(keys[float_sel], kind=kind)]
    order = np.concatenate([int_order, float_order])
    sorted_keys = keys[order]
    boundary = np.ones(len(order), np.bool_)
    boundary[1:] = sorted_keys[1:] != sorted_keys[:-1]
    if len(int_order) < len(order):
        boundary[len(int_order)] = True
    starts = np.flatnonzero(boundary)
    n_int = int(np.searchsorted(starts, len(int_order)))
    return order, starts, sorted_keys[starts], n_int


def reduce(values: V.Values, contrib: Lens, runs: bool = False) -> Table:
    """One entry per distinct value with the shortest length per context (the reference
    of `reduce_steps`, which the tables use: a gather of every row's 8 contexts was most
    of a JavaScript W table's time)."""
    if len(values) == 0:
        return Table(values, np.zeros(0, np.int64), 0, np.zeros((0, CONTEXTS), np.int16))
    order, starts, keys, n_int = group(values, runs)
    lens = np.minimum.reduceat(contrib[order], starts, axis=0).astype(np.int16)
    return Table(values.take(order[starts]), keys, n_int, lens)


def contributions(level: int, length: NDArray[np.int64]) -> Lens:
    """Per context: the length itself if the level suffices, else two more for parentheses."""
    return (length[:, None] + 2 * (level < _CTX[None, :])).astype(np.int16)


def reduce_steps(values: V.Values, steps: Steps, runs: bool = False) -> Table:
    """`reduce` of the same derivations with their lengths as `Steps`: three 1-D minima and
    maxima per value instead of a minimum over an (n, 8) gather; JavaScript's runs of
    equal neighbours collapsed first (`collapse_runs`: a W table's monotone forms, a B
    table's `%`, bitwise and shift pairs over one left operand; 40-60 % of the rows)."""
    if len(values) == 0:
        return Table(values, np.zeros(0, np.int64), 0, np.zeros((0, CONTEXTS), np.int16))
    values, steps = collapse_runs(values, steps)
    order, starts, keys, n_int = group(values, runs)
    lens = per_group(steps.take(order), starts).lens()
    return Table(values.take(order[starts]), keys, n_int, lens)


@dataclass(frozen=True, slots=True)
class Pairs:
    """Every binary derivation over one split: operand indices, results, lengths."""

    op: Operation
    split: int
    left: Index
    right: Index
    values: V.Values
    length: NDArray[np.int64]


def binary_pairs(
    sem: Semantics,
    op: Operation,
    split: int,
    a: Table,
    c: Table,
    evaluated: tuple[V.Values, V.Bools] | None = None,
) -> Pairs:
    """op(a, c) for every pair (the language's errors dropped); `evaluated`: op over the
    grid already (`level_pairs`)."""
    left = np.repeat(np.arange(len(a)), len(c))
    right = np.tile(np.arange(len(c)), len(a))
    if evaluated is None:
        evaluated = sem.binary(op)(a.values.repeat_each(len(c)), c.values.tile(len(a)))
    out, ok = evaluated
    cl, cr = op.contexts()
    length = np.repeat(op.length + a.lens[:, cl].astype(np.int64), len(c))
    length += np.tile(c.lens[:, cr], len(a))
    if bool(ok.all()):  # JavaScript has no errors: nothing to drop
        return Pairs(op, split, left, right, out, length)
    keep = np.flatnonzero(ok)
    return Pairs(op, split, left[keep], right[keep], out.take(keep), length[keep])


@dataclass(frozen=True, slots=True)
class Wrapped:
    """A wrap form applied to every entry of a B table."""

    wrap: Wrap
    source: Index
    values: V.Values
    length: NDArray[np.int64]


def wrapped(sem: Semantics, wrap: Wrap, b: Table) -> Wrapped:
    source = np.arange(len(b))
    if wrap.func is not None and wrap.func.reads_text and wrap.shape.inner:
        source = np.flatnonzero(b.values.isint & (b.values.i == np.int64(-(2**63))))
    out = sem.apply_wrap(wrap, b.values.take(source))
    length = wrap.length + b.lens[source, wrap.inner_context].astype(np.int64)
    return Wrapped(wrap, source, out, length)


@dataclass(frozen=True, slots=True)
class RangeTables:
    """A digit range [i, j): its B table (literal and binary operations) and W table (wrapped)."""

    span: Span
    text: str
    b: Table
    w: Table
    pairs: list[Pairs]
    wraps: list[Wrapped]


def literal_value(text: str, grammar: Grammar | None = None) -> V.Values | None:
    """The literal of these digits in the grammar's language (None: it does not parse);
    PHP's without a grammar."""
    return semantics(grammar or _PHP).literal(text)


_PHP = Grammar((), ())


Job = tuple[int, Table, Table]
"""A split of a range and its two operand tables."""


def level_pairs(sem: Semantics, ops: tuple[Operation, ...], jobs: list[Job]) -> list[list[Pairs]]:
    """`binary_pairs` of every job and op, each op evaluated once over all the jobs' grids:
    JavaScript's `**` goes to node, one round trip per size of range instead of one per
    range and split (7 a cold solve, each a wait for the scheduler on a loaded machine)."""
    sizes = np.array([len(a) * len(c) for _, a, c in jobs], np.int64)
    ends = np.cumsum(sizes)
    x = V.concat([a.values.repeat_each(len(c)) for _, a, c in jobs])
    y = V.concat([c.values.tile(len(a)) for _, a, c in jobs])
    per_job: list[list[Pairs]] = [[] for _ in jobs]
    for op in ops:
        out, ok = sem.binary(op)(x, y)
        for n, (split, a, c) in enumerate(jobs):
            start, stop = int(ends[n] - sizes[n]), int(ends[n])
            part = out.take(np.arange(start, stop)), ok[start:stop]
            per_job[n].append(binary_pairs(sem, op, split, a, c, part))
    return per_job


def build_b(
    span: Span,
    digits: str,
    grammar: Grammar,
    tables: dict[Span, RangeTables],
    pairs: list[Pairs] | None = None,
) -> tuple[list[Pairs], Table]:
    """The range's B table; `pairs`: its binary pairs already built (`level_pairs`)."""
    i, j = span
    parts: list[V.Values] = []
    steps: list[Steps] = []
    lit = literal_value(digits[i:j], grammar)
    if lit is not None:
        parts.append(lit)
        steps.append(Steps.at_level(int(Level.ATOM), np.array([j - i], np.int64)))
    if pairs is None:
        pairs = [
            binary_pairs(semantics(grammar), op, k, tables[(i, k)].w, tables[(k, j)].w)
            for k in range(i + 1, j)
            for op in grammar.ops
        ]
    for p in pairs:
        parts.append(p.values)
        steps.append(Steps.at_level(int(p.op.level), p.length))
    return pairs, reduce_steps(V.concat(parts), Steps.concat(steps))


def wrap_all(b: Table, grammar: Grammar) -> list[Wrapped]:
    """Every wrap form of every B entry, each function evaluated once per sign of x."""
    sem = semantics(grammar)
    x = b.values
    minus = sem.neg(x)
    plain = sem.apply_funcs(grammar.funcs, x)
    inner = [f for f in grammar.funcs if Shape.F_NEG in grammar.shapes(f)]
    negated = sem.apply_funcs(inner, minus)
    int_min = np.flatnonzero(x.isint & (x.i == np.int64(-(2**63))))
    everything = np.arange(len(b))
    forms = [_form(NEG, everything, minus, b)]
    for func in grammar.funcs:
        for shape in grammar.shapes(func):
            source = int_min if func.reads_text and shape.inner else everything
            useful = sem.useful_wrap(func, minus if shape.inner else x)
            if useful is not None:
                source = np.flatnonzero(useful)
            y = (negated if shape.inner else plain)[func].take(source)
            forms.append(_form(Wrap(func, shape), source, sem.neg(y) if shape.outer else y, b))
    return forms


def _form(wrap: Wrap, source: Index, out: V.Values, b: Table) -> Wrapped:
    if len(out) != len(source):
        out = out.take(source)
    length = wrap.length + b.lens[source, wrap.inner_context].astype(np.int64)
    return Wrapped(wrap, source, out, length)


def build_w(b: Table, grammar: Grammar) -> tuple[list[Wrapped], Table]:
    forms = wrap_all(b, grammar)
    parts = [b.values, *(f.values for f in forms)]
    steps = [Steps.of_lens(b.lens)]
    steps += [Steps.at_level(int(grammar.wrap_level(f.wrap)), f.length) for f in forms]
    return forms, reduce_steps(V.concat(parts), Steps.concat(steps), runs=True)


def build_tables(digits: str, grammar: Grammar, longest: int = 3) -> dict[Span, RangeTables]:
    """Tables of every range of at most `longest` digits, shortest ranges first."""
    tables: dict[Span, RangeTables] = {}
    n = len(digits)
    for size in range(1, min(longest, n) + 1):
        spans = [(i, i + size) for i in range(n - size + 1)]
        jobs = [(k, tables[(i, k)].w, tables[(k, j)].w) for i, j in spans for k in range(i + 1, j)]
        batched = iter(level_pairs(semantics(grammar), grammar.ops, jobs))
        for span in spans:
            own = [p for _ in range(size - 1) for p in next(batched)]
            pairs, b = build_b(span, digits, grammar, tables, own)
            wraps, w = build_w(b, grammar)
            tables[span] = RangeTables(span, digits[span[0] : span[1]], b, w, pairs, wraps)
    return tables
