"""How each top-level operation is searched without listing all its pairs.

For a fixed value r of the smaller operand table (a "row"), every operation of
the grammar is, in the other operand, either monotone (so an interval of
results comes from an interval of operands, found by binary search), within a
few units of a monotone function (`y | 3` is between y and y+3), or takes only
a few values that depend on a small key of the other operand (`3 << y` depends
on y clipped to -1..64). Bounds here are always a little wide; the search
evaluates what they select exactly and keeps what truly lands.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

import numpy as np

from solver import values as V
from solver.grammar import JsOp, Op, Operation
from solver.objective import Intervals

ARITHMETIC = frozenset({Op.ADD, Op.SUB, Op.MUL, Op.DIV})
BITWISE = frozenset({Op.AND, Op.OR, Op.XOR, Op.SHL, Op.SHR})
POWERS = frozenset({Op.POW, JsOp.EXP})  # PHP's pow(), JavaScript's `**`
SMALL = 64
"""A side with at most this many values (a single digit's table) is small enough to invert along."""

_SAFE = float(2**53)  # |y| below this: to_int(y) is trunc(y), exactly and monotonically
_MOD_KEY = 2520  # lcm(1..9): |y| mod 2520 fixes |y| mod t for every |t| <= 9


class RowKind(Enum):
    INVERT = "invert"  # searched by bounds on the other operand
    BUCKET = "bucket"  # the result depends on a small key of the other operand
    LIST = "list"  # neither: every pair is evaluated


@dataclass(frozen=True, slots=True)
class Plan:
    """How one (split, op) is searched: along which side, and how each of its rows."""

    rows_left: bool
    kinds: list[RowKind]

    def rows(self, kind: RowKind) -> V.Ints:
        return np.array([k for k, rk in enumerate(self.kinds) if rk is kind], np.int64)


def plan(op: Operation, left: V.Values, right: V.Values) -> Plan | None:
    """None: list every pair (no small side, or an operation with no inverse)."""
    rows_left = len(left) <= len(right)
    rows = left if rows_left else right
    if op in ARITHMETIC:
        return Plan(rows_left, [_arithmetic_kind(op, rows, k) for k in range(len(rows))])
    if len(rows) > SMALL or op not in (BITWISE | {Op.POW, Op.MOD}):
        return None
    t = V.to_int(rows)
    if np.abs(t).max(initial=0) > 9:
        return None
    if op is Op.MOD:
        return Plan(rows_left, [RowKind.BUCKET] * len(rows))
    if op is Op.POW:
        return Plan(rows_left, [_pow_kind(rows, k) for k in range(len(rows))])
    return Plan(rows_left, [_bit_kind(op, rows_left, int(t[k])) for k in range(len(rows))])


def plan_pow(left: V.Values, right: V.Values, small: int = SMALL) -> Plan | None:
    """JavaScript's `**` (any sign, any size of the small side): inverted along a side of at
    most `small` values like PHP's pow, every row's bound numeric (|x| = |r|^y or |y|^r)."""
    rows_left = len(left) <= len(right)
    rows = left if rows_left else right
    if len(rows) > small:
        return None
    return Plan(rows_left, [_pow_kind(rows, k) for k in range(len(rows))])


def _arithmetic_kind(op: Operation, rows: V.Values, k: int) -> RowKind:
    f = float(rows.f[k])
    if not np.isfinite(f) or (op in (Op.MUL, Op.DIV) and f == 0):
        return RowKind.LIST
    return RowKind.INVERT


def _pow_kind(rows: V.Values, k: int) -> RowKind:
    f = float(rows.f[k])
    if not np.isfinite(f) or f in (0.0, 1.0, -1.0):
        return RowKind.LIST
    return RowKind.INVERT


def _bit_kind(op: Operation, rows_left: bool, t: int) -> RowKind:
    if op in (Op.SHL, Op.SHR):
        # the row shifted by a big operand: few results; the big operand shifted: monotone
        return RowKind.BUCKET if rows_left else (RowKind.INVERT if t >= 0 else RowKind.LIST)
    if (op is Op.AND and t >= 0) or (op is Op.OR and t < 0):
        return RowKind.BUCKET
    return RowKind.INVERT


def bucket_keys(op: Operation, rows_left: bool, other: V.Values) -> V.Ints:
    """A key of the other operand that, with the row, fixes the result."""
    y = V.to_int(other)
    if op in (Op.SHL, Op.SHR):
        return np.clip(y, -1, 64)
    if op in (Op.AND, Op.OR):
        return y & 15
    if rows_left:  # t % y: y itself while |y| <= 9, else t
        return np.clip(y, -10, 10)
    magnitude = np.where(y >= 0, y % _MOD_KEY, (-(y % _MOD_KEY)) % _MOD_KEY)
    return np.where(y < 0, -1 - magnitude, magnitude)


def odd_columns(op: Operation, other: V.Values) -> V.Ints:
    """Other-operand entries whose integer value is not trunc(f) monotonically: listed apart."""
    if op in ARITHMETIC or op in POWERS:
        return np.zeros(0, np.int64)
    return np.flatnonzero(~(np.isfinite(other.f) & (np.abs(other.f) < _SAFE)))


def bounds(
    op: Operation, rows_left: bool, rows: V.Values, lo: V.Floats, hi: V.Floats
) -> list[Intervals]:
    """For INVERT rows (column) and result intervals (row): intervals of the other operand."""
    r = rows.f[:, None]
    t = V.to_int(rows).astype(np.float64)[:, None]
    lo, hi = lo[None, :], hi[None, :]
    with np.errstate(all="ignore"):
        if op in ARITHMETIC:
            return _arithmetic_bounds(op, rows_left, r, lo, hi)
        if op in POWERS:
            return _pow_bounds(rows_left, r, lo, hi)
        return _bit_bounds(op, t, lo, hi)


def _arithmetic_bounds(
    op: Operation, rows_left: bool, r: V.Floats, lo: V.Floats, hi: V.Floats
) -> list[Intervals]:
    if op is Op.ADD:
        return [(lo - r, hi - r)]
    if op is Op.SUB:
        return [(r - hi, r - lo)] if rows_left else [(lo + r, hi + r)]
    if op is Op.MUL or not rows_left:  # x = other * r, or x = other / r
        a, b = (lo / r, hi / r) if op is Op.MUL else (lo * r, hi * r)
        return [(np.minimum(a, b), np.maximum(a, b))]
    # x = r / other: other = r / x, monotone on each side of 0
    a, b = r / np.where(lo == 0, -0.0, lo), r / np.where(hi == 0, 0.0, hi)
    straddles = (lo <= 0) & (hi >= 0)
    inf = np.inf
    first = (
        np.where(straddles, np.where(r > 0, -inf, a), np.minimum(a, b)),
        np.where(straddles, np.where(r > 0, a, inf), np.maximum(a, b)),
    )
    second = (
        np.where(straddles, np.where(r > 0, b, -inf), inf),
        np.where(straddles, np.where(r > 0, inf, b), -inf),
    )
    return [first, second]


def _magnitudes(lo: V.Floats, hi: V.Floats) -> tuple[V.Floats, V.Floats]:
    """Smallest and largest |x| over [lo, hi]."""
    straddles = (lo <= 0) & (hi >= 0)
    m = np.where(straddles, 0.0, np.minimum(np.abs(lo), np.abs(hi)))
    return m, np.maximum(np.abs(lo), np.abs(hi))


def _pow_bounds(rows_left: bool, r: V.Floats, lo: V.Floats, hi: V.Floats) -> list[Intervals]:
    m, big = _magnitudes(lo, hi)
    if rows_left:  # |x| = |r|^c: c = log|x| / log|r|, monotone
        base = np.log(np.abs(r))
        a, b = np.log(m) / base, np.log(big) / base
        return [(np.minimum(a, b), np.maximum(a, b))]
    # |x| = |y|^r: |y| = |x|^(1/r), monotone; y of either sign
    a, b = m ** (1 / r), big ** (1 / r)
    low, high = np.minimum(a, b), np.maximum(a, b)
    return [(low, high), (-high, -low)]


def _bit_bounds(op: Operation, t: V.Floats, lo: V.Floats, hi: V.Floats) -> list[Intervals]:
    """Integer y (the other operand as PHP's int) as bounds on its value (trunc: +-1)."""
    m = np.abs(t) + 1
    if op is Op.SHL:  # y << t == y * 2^t while no bit leaves the word
        scale = 2.0**t
        return [(lo / scale - 1, hi / scale + 1)]
    if op is Op.SHR:  # floor(y / 2^t)
        scale = 2.0**t
        return [(lo * scale - 1, (hi + 1) * scale + 1)]
    if op is Op.XOR:
        plain = (lo - m - 1, hi + m + 1)
        mirrored = (-hi - m - 1, -lo + m + 1)
        return [(np.where(t >= 0, plain[0], mirrored[0]), np.where(t >= 0, plain[1], mirrored[1]))]
    # AND with t < 0: y - 15 <= x <= y; OR with t >= 0: y <= x <= y + 15
    return [(lo - m - 1, hi + m + 1)]


bit_bounds = _bit_bounds
"""The bounds of `& | ^` with a row t: JavaScript's (js_inverse.py) are the same on ToInt32."""
