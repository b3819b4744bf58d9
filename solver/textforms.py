"""hexdec, octdec and bindec around the whole formula: they read its text, so no interval
of Results inverts them.

Either every top-level value is listed and read (`text_found`, when an int
that could beat the answer is missing), or only values short enough for a
text form to still shorten the answer (`short_text_found`), band by band.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from solver import values as V
from solver.candidates import Found, inside, union
from solver.grammar import Func, Shape, Wrap
from solver.objective import Objective
from solver.search import Prepared, derive
from solver.tables import Index, Table, contributions, expand, group, literal_value


@dataclass
class Exhaustive:
    """Every distinct top-level x with its shortest lengths, and each text function of it."""

    x: Table
    reads: dict[Func, V.Values] = field(default_factory=dict)


def exhaustive(prep: Prepared) -> Exhaustive:
    if prep.exhaustive is not None:
        return prep.exhaustive
    parts = [block.table.values for block in prep.blocks]
    lens = [block.table.lens for block in prep.blocks]
    n = len(prep.digits)
    for inv in prep.inverted:
        a, c = prep.left(inv.split), prep.right(inv.split)
        vals, length, _ = derive(a, c, inv.op, inv.rows, inv.rows_left)
        parts.append(vals)
        lens.append(contributions(int(inv.op.level), length))
    del n
    vals = V.concat(parts)
    contrib = np.concatenate(lens)
    order, starts, keys, n_int = group(vals)
    table = Table(
        vals.take(order[starts]), keys, n_int, np.minimum.reduceat(contrib[order], starts, axis=0)
    )
    funcs = [f for f in prep.grammar.funcs if f.reads_text]
    prep.exhaustive = Exhaustive(table, V.apply_funcs(funcs, table.values))
    return prep.exhaustive


def text_found(prep: Prepared, objective: Objective, bound: float) -> Found:
    """hexdec/octdec/bindec (and their minus forms) of every top-level x scoring <= bound."""
    ex = exhaustive(prep)
    parts = []
    wanted = union(*objective.sublevel(bound))
    everything = np.arange(len(ex.x))
    int_min = np.flatnonzero(ex.x.values.isint & (ex.x.values.i == np.int64(-(2**63))))
    for func, read in ex.reads.items():
        for shape in Shape:
            form = Wrap(func, shape)
            rows = int_min if shape.inner else everything
            x = ex.x.values.take(rows)
            r = V.apply_wrap(form, x) if shape.inner else (V.neg(read) if shape.outer else read)
            near = np.flatnonzero(inside(r.f, wanted))  # score only what can score <= bound
            score = objective.score(r.take(near))
            keep = near[score <= bound]
            score = score[score <= bound]
            length = ex.x.lens[rows[keep], form.inner_context].astype(np.int64) + form.length
            parts.append(Found(r.take(keep), score, length, [form] * len(keep), x.take(keep)))
    return Found.concat(parts)


def min_text_form_length(prep: Prepared) -> int:
    funcs = [f for f in prep.grammar.funcs if f.reads_text]
    if not funcs:
        return 1 << 30
    # the literal of all four digits is the shortest formula (a binary operation adds a sign)
    return min(len(f.value) for f in funcs) + 2 + len(prep.digits)


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
    lit = literal_value(prep.digits)
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
            x, ok = V.BINARY[op](a.values.take(left), c.values.take(right))
            keep = np.flatnonzero(ok)
            parts.append(x.take(keep))
            lengths.append(
                op.length + a.lens[left[keep], cl].astype(np.int64) + c.lens[right[keep], cr]
            )
    if not parts:
        return V.of_ints(np.zeros(0, np.int64)), np.zeros(0, np.int64)
    return V.concat(parts), np.concatenate(lengths)


@dataclass(frozen=True, slots=True)
class TextBand:
    """The distinct x of one band of lengths, with hexdec/octdec/bindec of each (cached)."""

    x: V.Values
    length: Index
    reads: dict[Func, V.Values]


def text_band(prep: Prepared, shortest: int, longest: int) -> TextBand:
    memo = (shortest, longest)
    if memo not in prep.text_bands:
        funcs = [f for f in prep.grammar.funcs if f.reads_text]
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
