"""Lengths per context as three numbers a row (`Steps`), and their reduction per value.

Its own module, below tables.py that reduces its tables with it: the reduction over groups
of rows is shared by the sort (`tables.reduce_steps`) and by the pass before it that
collapses runs of equal neighbours (`collapse_runs`) without sorting anything.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from solver import values as V
from solver.grammar import CONTEXTS

Lens = NDArray[np.int16]
Index = NDArray[np.int64]

_CTX = np.arange(CONTEXTS)


@dataclass(frozen=True, slots=True)
class Steps:
    """Lengths per context of a column of derivations, three numbers a row instead of 8.

    A derivation of level L and length n is n in contexts up to L and n + 2 (parentheses)
    above, so the shortest over any set of them rises with the context by at most 2, in
    two steps: `least` up to context `exact`, `least + 1` up to `near` (>= exact), then
    `least + 2`. Reducing these three 1-D columns per value gives what the minimum over
    the 8 columns of `contributions` gives (tests/solver/test_solver_js_tables.py)."""

    least: NDArray[np.int64]
    exact: NDArray[np.int8]
    near: NDArray[np.int8]

    @staticmethod
    def at_level(level: int, length: NDArray[np.int64]) -> Steps:
        top = np.full(len(length), level, np.int8)
        return Steps(length, top, top)

    @staticmethod
    def of_lens(lens: Lens) -> Steps:
        """A table's lengths (each row such a staircase: it was reduced from them)."""
        least = lens[:, :1]
        exact = (lens == least).sum(axis=1) - 1
        near = (lens <= least + 1).sum(axis=1) - 1
        return Steps(least[:, 0].astype(np.int64), exact.astype(np.int8), near.astype(np.int8))

    @staticmethod
    def concat(parts: list[Steps]) -> Steps:
        return Steps(
            np.concatenate([p.least for p in parts]),
            np.concatenate([p.exact for p in parts]),
            np.concatenate([p.near for p in parts]),
        )

    def take(self, index: Index) -> Steps:
        return Steps(self.least[index], self.exact[index], self.near[index])

    def lens(self) -> Lens:
        """Each row's length in all 8 contexts."""
        ctx = _CTX[None, :]
        rows = self.least[:, None] + (ctx > self.exact[:, None]) + (ctx > self.near[:, None])
        return rows.astype(np.int16)


def per_group(steps: Steps, starts: Index) -> Steps:
    """The shortest lengths per context of each group of consecutive rows (a group from
    each of `starts` to the next): three 1-D minima and maxima, no (n, 8) gather."""
    # least and exact in one number: the smallest `least * 8 + 7 - exact` of a group is
    # its shortest length with the highest context that length holds
    code = steps.least * CONTEXTS + (CONTEXTS - 1 - steps.exact)
    first = np.minimum.reduceat(code, starts)
    least, top = first // CONTEXTS, CONTEXTS - 1 - first % CONTEXTS
    above = code // CONTEXTS - np.repeat(least, np.diff(np.append(starts, len(code))))
    none = np.int8(-1)
    second = np.where(above == 0, steps.near, np.where(above == 1, steps.exact, none))
    upper = np.maximum.reduceat(second, starts)
    return Steps(least, top.astype(np.int8), upper.astype(np.int8))


_COLLAPSE_WORTH = 0.75
"""Collapse when at most this share of the rows starts a run: fewer saves the sort little."""


def collapse_runs(values: V.Values, steps: Steps) -> tuple[V.Values, Steps]:
    """JavaScript's doubles with each run of equal neighbours as one row, before a sort
    groups the rest. A W table concatenates its B table's values wrapped by each form, in
    the B table's order, so a monotone form's equal results sit together: Math.floor, ceil,
    round, trunc and sign of 4589's 3-digit B tables are 11 runs of 21,000 rows with about
    1,500 values each, and Math.sqrt's of the negatives one NAN. A run is rows of the same
    bits (so the same value) and the same `exact` and `near` (one form's level), so its
    lengths are its shortest `least`: one pass over neighbours and one minimum, where the
    sort's grouping (`per_group`) is a dozen passes. Equal values not side by side are left
    to the sort, so the table is the same (tests/solver/test_solver_js_tables.py). PHP's
    values (ints beside floats) are left as they are."""
    if not values.doubles_only or len(values) < 2:
        return values, steps
    bits = values.f.view(np.int64)
    differ = np.ones(len(bits), np.bool_)
    np.not_equal(bits[1:], bits[:-1], out=differ[1:])
    differ[1:] |= steps.exact[1:] != steps.exact[:-1]
    differ[1:] |= steps.near[1:] != steps.near[:-1]
    starts = np.flatnonzero(differ)
    if len(starts) > _COLLAPSE_WORTH * len(bits):
        return values, steps
    least = np.minimum.reduceat(steps.least, starts)
    return values.take(starts), Steps(least, steps.exact[starts], steps.near[starts])
