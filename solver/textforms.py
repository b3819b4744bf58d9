"""hexdec, octdec and bindec around the whole formula: they read its text, so no interval
of Results inverts them.

Either every top-level value is read (`text_found`: the Digits' `TextTable`,
built by `Solver.prepare` or by the first query where an int that could beat
the answer is missing), or, on a Digits not prepared, only values short enough
for a text form to still shorten the answer (`short_text_found`), band by band.
"""

from __future__ import annotations

import math

import numpy as np

from solver import php
from solver import values as V
from solver.candidates import Found, inside, union
from solver.grammar import Func, Shape, Wrap
from solver.objective import Objective
from solver.prepared import Prepared, Readings, TextBand, TextTable
from solver.semantics import semantics
from solver.tables import Index, Table, expand, group, literal_value
from solver.toplevel import top_level

READ_LIMIT = 1 << 14
"""The fewest readings a text table keeps. A NewScore's intervals lie within 2G + Score +
aim + bound of 0, the closest-to-Goal's within G + bound: for the usual Sets far below this.
A Set with a larger Goal grows its Digits' table once, to a power of two past what it asked."""
KEPT_REACH = 1 << 23
"""The most a kept table grows to: past every Set's reach (Goal <= 1,000,000, Score <=
100,000). A query reaching further (an API caller's huge aim) reads every reading and keeps
none of it: a table of readings up to 2^57 held half a million rows (+79 MiB)."""

TEXT_READ_MAX = 2.0**77
"""Above every |hexdec/octdec/bindec(x)|: `(string)$x` at precision 14 has at most 19
characters that are hex digits (PHP_INT_MIN's 19 digits; a float's 14 digits, the `E` and
its exponent's 3), so a reading is below 16^19 = 2^76 (a float sum may round up, hence 77).
Far from 0 (a huge Score's intervals) the text forms cannot score: nothing is read."""


def text_reaches(objective: Objective, bound: float) -> bool:
    """Whether a text form could score at most `bound`: some interval of the objective's
    sublevel meets [-TEXT_READ_MAX, TEXT_READ_MAX]."""
    lo, hi = objective.sublevel(bound)
    return bool(np.any((lo <= TEXT_READ_MAX) & (hi >= -TEXT_READ_MAX)))


def text_table(prep: Prepared, reach: float = 0.0) -> TextTable:
    """The Digits' text table with every reading up to `reach` at least: built once (by
    `Solver.prepare` or the first query that needs it), rebuilt larger for a query that
    reaches further."""
    table = prep.text_table
    if table is None or (table.limit is not None and table.limit < reach):
        limit = max(READ_LIMIT, 1 << math.ceil(math.log2(max(reach, 1.0))))
        prep.text_table = table = build_text_table(prep, limit)
    return table


_READ_SLICE = 1 << 16  # values read at once: the text of a float takes ~200 bytes to work out


def build_text_table(prep: Prepared, limit: int | None) -> TextTable:
    """Read every distinct top-level x (its shortest length as an argument) in each base,
    a slice at a time, keeping what `limit` allows."""
    top = top_level(prep)
    funcs = [f for f in prep.grammar.funcs if isinstance(f, Func) and f.reads_text]
    parts: dict[Func, list[Readings]] = {f: [] for f in funcs}
    for start in range(0, len(top), _READ_SLICE):
        rows = np.arange(start, min(start + _READ_SLICE, len(top)))
        x, length = top.values(rows), top.length_any[rows].astype(np.int64)
        for func, read in V.apply_funcs(funcs, x).items():
            parts[func].append(_shortest(read, x, length, limit))
    readings = {f: _shortest_of(parts[f], limit) for f in funcs}
    has_min = int(top.n_int > 0 and top.keys[0] == php.INT_MIN)  # ints sort first
    return TextTable(
        limit,
        readings,
        V.of_ints(np.full(has_min, php.INT_MIN, np.int64)),
        top.length_atom[:has_min].astype(np.int64),
    )


def _shortest(read: V.Values, x: V.Values, length: Index, limit: int | None) -> Readings:
    """The readings a query can want (|f(x)| <= limit), each with its shortest x only;
    every reading when there is no limit."""
    if limit is None:
        return Readings(read, x, length)
    rows = np.flatnonzero(read.isint & (np.abs(read.f) <= limit))
    by_read = rows[np.lexsort((length[rows], read.i[rows]))]
    value, best = read.i[by_read], length[by_read]
    first = np.ones(len(by_read), np.bool_)
    first[1:] = value[1:] != value[:-1]
    shortest = np.maximum.accumulate(np.where(first, np.arange(len(by_read)), 0))
    keep = by_read[best == best[shortest]]
    return Readings(read.take(keep), x.take(keep), length[keep])


def _shortest_of(parts: list[Readings], limit: int | None) -> Readings:
    return _shortest(
        V.concat([p.read for p in parts]),
        V.concat([p.x for p in parts]),
        np.concatenate([p.length for p in parts]) if parts else np.zeros(0, np.int64),
        limit,
    )


def text_found(prep: Prepared, objective: Objective, bound: float) -> Found:
    """hexdec/octdec/bindec (and their minus forms) of every top-level x scoring <= bound."""
    wanted = union(*objective.sublevel(bound))
    reach = float(np.max(np.abs(np.concatenate(wanted)), initial=0.0))
    table = text_table(prep, reach) if reach <= KEPT_REACH else build_text_table(prep, None)
    parts = []
    for func, readings in table.readings.items():
        for shape in Shape:
            form = Wrap(func, shape)
            if shape.inner:  # f(-x) reads x's text unless -x is PHP_INT_MIN's float
                x, length = table.int_min, table.int_min_length
                r = V.apply_wrap(form, x)
            else:
                x, length = readings.x, readings.length
                r = V.neg(readings.read) if shape.outer else readings.read
            near = np.flatnonzero(inside(r.f, wanted))  # score only what can score <= bound
            score = objective.score(r.take(near))
            keep = near[score <= bound]
            parts.append(
                Found(
                    r.take(keep),
                    score[score <= bound],
                    length[keep] + form.length,
                    [form] * len(keep),
                    x.take(keep),
                )
            )
    return Found.concat(parts)


def min_text_form_length(prep: Prepared) -> int:
    funcs = [f for f in prep.grammar.funcs if isinstance(f, Func) and f.reads_text]
    if not funcs:
        return 1 << 30
    # the literal of all four digits is the cheapest formula (a binary operation adds a sign)
    return text_form_cost(prep) + len(prep.digits)


def text_form_cost(prep: Prepared) -> int:
    """What the cheapest text form (`hexdec(x)`) adds to its x's cost (a call's weight)."""
    funcs = [f for f in prep.grammar.funcs if isinstance(f, Func) and f.reads_text]
    return min(Wrap(f).length for f in funcs) if funcs else 1 << 30


def top_level_costs(prep: Prepared) -> V.Ints:
    """Every cost a top-level x's formula can have, sorted (the literal's, and op + left's
    + right's over the sides' distinct costs): costs are sparse (a call weighs 2,880
    characters), so the text forms' bands step from one present cost to the next."""
    if prep.x_costs is None:
        n = len(prep.digits)
        sums = [np.array([n], np.int64)]
        for split in range(1, n):
            a, c = prep.left(split), prep.right(split)
            for op in prep.grammar.ops:
                cl, cr = op.contexts()
                a_len = np.unique(a.lens[:, cl].astype(np.int64))
                c_len = np.unique(c.lens[:, cr].astype(np.int64))
                sums.append((op.length + a_len[:, None] + c_len[None, :]).ravel())
        prep.x_costs = np.unique(np.concatenate(sums))
    return prep.x_costs


def _by_length(prep: Prepared, table: Table, ctx: int) -> tuple[Index, V.Ints]:
    """Entries of a table sorted by their length in a context (cached per Digits)."""
    memo = (id(table), ctx)
    if memo not in prep.by_length:
        order = np.argsort(table.lens[:, ctx], kind="stable")
        prep.by_length[memo] = order, table.lens[order, ctx].astype(np.int64)
    return prep.by_length[memo]


def short_x(prep: Prepared, longest: int, shortest: int = 0) -> tuple[V.Values, Index]:
    """Every top-level x with a formula of shortest..longest characters, and that length."""
    n = len(prep.digits)
    parts: list[V.Values] = []
    lengths: list[Index] = []
    lit = literal_value(prep.digits, prep.grammar)
    if lit is not None and shortest <= n <= longest:
        parts.append(lit)
        lengths.append(np.array([n], np.int64))
    for split in range(1, n):
        a, c = prep.left(split), prep.right(split)
        for op in prep.grammar.ops:
            cl, cr = op.contexts()
            budget = longest - op.length
            a_order, a_len = _by_length(prep, a, cl)
            c_order, c_len = _by_length(prep, c, cr)
            usable = np.flatnonzero(a_len + (c_len[0] if len(c_len) else budget + 1) <= budget)
            if len(usable) == 0:
                continue
            stops = np.searchsorted(c_len, budget - a_len[usable], "right")
            starts = np.searchsorted(c_len, shortest - op.length - a_len[usable], "left")
            index, owner = expand(
                starts.astype(np.int64), np.maximum(stops, starts).astype(np.int64)
            )
            left = a_order[usable[owner]]
            right = c_order[index]
            x, ok = semantics(prep.grammar).binary(op)(a.values.take(left), c.values.take(right))
            keep = np.flatnonzero(ok)
            parts.append(x.take(keep))
            lengths.append(
                op.length + a.lens[left[keep], cl].astype(np.int64) + c.lens[right[keep], cr]
            )
    if not parts:
        return V.of_ints(np.zeros(0, np.int64)), np.zeros(0, np.int64)
    return V.concat(parts), np.concatenate(lengths)


def text_band(prep: Prepared, shortest: int, longest: int) -> TextBand:
    memo = (shortest, longest)
    if memo not in prep.text_bands:
        funcs = [f for f in prep.grammar.funcs if isinstance(f, Func) and f.reads_text]
        x, length = short_x(prep, longest, shortest)
        if len(x):
            order, starts, _, _ = group(x)
            length = np.minimum.reduceat(length[order], starts)
            x = x.take(order[starts])
        prep.text_bands[memo] = TextBand(x, length, V.apply_funcs(funcs, x) if len(x) else {})
    return prep.text_bands[memo]


def short_text_found(
    prep: Prepared, objective: Objective, bound: float, shortest: int, longest: int
) -> Found:
    """Text forms (f(x), -f(x)) of every x whose formula has shortest..longest characters.

    An x may have a shorter derivation outside the band (then it was seen in an
    earlier band): its length here is only the band's best, which the ranking
    corrects by taking the shortest over all."""
    band = text_band(prep, shortest, longest)
    parts = []
    for func, read in band.reads.items():
        for shape in (Shape.F, Shape.NEG_F):
            form = Wrap(func, shape)
            r = V.neg(read) if shape.outer else read
            score = objective.score(r)
            keep = np.flatnonzero(score <= bound)
            parts.append(
                Found(
                    r.take(keep),
                    score[keep],
                    band.length[keep] + form.length,
                    [form] * len(keep),
                    band.x.take(keep),
                )
            )
    return Found.concat(parts)
