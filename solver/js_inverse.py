"""How the top level searches JavaScript's operations along a small side (as inverse.py
does PHP's): every operation, not only `+ - * /` and `**`.

For a row t of the small side (a single digit's table, up to `SMALL` rows) and the
other operand y:
- `& | ^` with y: within |t| of ToInt32(y) (or of its complement); `t & y` for t >= 0
  lies in [0, t] and `t | y` for t < 0 in [t, -1] (a function of y's low 4 bits when
  |t| <= 15);
- `t << y`, `t >> y`, `t >>> y`: a function of the count, ToUint32(y) & 31;
- `y >> s`, `y >>> s` (s = ToUint32(t) & 31): floor(ToInt32(y) / 2^s), of ToUint32(y)
  for `>>>` (two intervals: y >= 0, and y < 0 read as y + 2^32); `y << s`: ToInt32(y)
  times 2^s while no bit leaves the word (s <= 9, |y| < 2^22), else (s >= 23) a
  function of the low 9 bits (10 <= s <= 22: listed); for s >= 23, `y >> s` and
  `y >>> s` are functions of y's top 9 bits;
- `Math.max`, `Math.min`: y itself, or t for every y on one side of it;
- `Math.hypot`: between max(|t|, |y|) and |t| + |y|;
- `%` is listed, not inverted: `y % t` is anywhere in (-|t|, |t|) for any y, so near a
  Score below 9 every y was read again for each interval (456,752 pairs, 18 times over);
  listed once per |divisor| (`class_keys`).
An operand whose ToInt32 is not trunc(y) (|y| >= 2^31, NaN, Infinity) is listed apart
(`odd_columns`). Bounds are a little wide; the search evaluates what they select exactly.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from solver import inverse
from solver import values as V
from solver.grammar import JsOp, Op, Operation
from solver.inverse import Plan, RowKind
from solver.js_values import to_int32, to_uint32
from solver.objective import Intervals

KeyOf = Callable[[V.Floats], V.Ints]

_BITS = frozenset({Op.AND, Op.OR, Op.XOR})
_SHIFTS = frozenset({Op.SHL, Op.SHR, JsOp.USHR})
_NUMERIC = frozenset({JsOp.MAX, JsOp.MIN, JsOp.HYPOT})
_TWO_31, _TWO_32 = float(2**31), float(2**32)
SMALL = 64
"""A side with at most this many values (a single digit's table) is inverted along: a
two-digit side (~700 values) inverted made cold solves slower than listing it."""
WIDE = 1024
"""`**` and Math.hypot are inverted along a two-digit side too: their bounds are tight (a
row's interval of y is where its results land, not a band around it), while listing the
middle split cost 400,000 pairs each (`**` through node) for 100,000-170,000 values."""
_WIDE_OPS = frozenset({JsOp.EXP, JsOp.HYPOT})


def plan(op: Operation, left: V.Values, right: V.Values) -> Plan | None:
    """None: list every pair (no side small enough)."""
    if op in inverse.ARITHMETIC:
        return inverse.plan(op, left, right)
    if op is JsOp.EXP:
        return inverse.plan_pow(left, right, WIDE)
    rows_left = len(left) <= len(right)
    rows = left if rows_left else right
    if len(rows) > (WIDE if op in _WIDE_OPS else SMALL):
        return None
    t = to_int32(rows.f)
    shift = to_uint32(rows.f) & 31
    return Plan(
        rows_left,
        [
            _kind(op, rows_left, float(rows.f[k]), int(t[k]), int(shift[k]))
            for k in range(len(rows))
        ],
    )


def _kind(op: Operation, rows_left: bool, f: float, t: int, shift: int) -> RowKind:
    if op is Op.MOD:  # listed: see the module's docstring
        return RowKind.LIST
    if op in _NUMERIC:
        return RowKind.INVERT if np.isfinite(f) else RowKind.LIST
    if op in _SHIFTS:
        if rows_left or shift >= 23:  # y >> 23.. keeps y's top 9 bits: a few hundred results
            return RowKind.BUCKET
        return RowKind.INVERT if op is not Op.SHL or shift <= 9 else RowKind.LIST
    if (op is Op.AND and t >= 0) or (op is Op.OR and t < 0):
        return RowKind.BUCKET if abs(t) <= 15 else RowKind.INVERT
    return RowKind.INVERT


def _shift_count(f: V.Floats) -> V.Ints:
    return to_uint32(f) & 31


def _identity(f: V.Floats) -> V.Ints:
    return V.float_keys(f)


def _magnitude(f: V.Floats) -> V.Ints:
    return V.float_keys(np.abs(f))


def class_keys(op: Operation) -> tuple[KeyOf, KeyOf] | None:
    """`& | ^` are functions of ToInt32 of both operands, and a shift of ToInt32 of its left
    operand (`>>>` reads ToUint32, which ToInt32 fixes) and its count's low 5 bits; `x % y`
    (C's fmod, exact) of x and |y| (`x % -y` is `x % y`, NaN, ±0 and ±Infinity included), so
    `y % t` over a single digit's 9 values evaluates 5 and `t % y` about half of the y: listed
    per pair of keys at every split (search._classed_block), never inverted."""
    if op in _BITS:
        return to_int32, to_int32
    if op in _SHIFTS:
        return to_int32, _shift_count
    if op is Op.MOD:
        return _identity, _magnitude
    return None


def bucket_keys(op: Operation, rows_left: bool, other: V.Values) -> V.Ints:
    """A key of the other operand that, with the row, fixes the result."""
    if op in _SHIFTS and rows_left:
        return to_uint32(other.f) & 31
    if op is Op.SHL:
        return to_int32(other.f) & 511
    if op is Op.SHR:
        return to_int32(other.f) >> 23
    if op is JsOp.USHR:
        return to_uint32(other.f) >> 23
    return to_int32(other.f) & 15


def odd_columns(op: Operation, other: V.Values) -> V.Ints:
    """Other-operand entries whose ToInt32 is not trunc(y) (or, for `<<`, whose shift
    leaves the word): listed apart from the inverted rows."""
    if op not in _BITS | _SHIFTS:
        return np.zeros(0, np.int64)
    limit = float(2**22) if op is Op.SHL else _TWO_31
    return np.flatnonzero(~(np.isfinite(other.f) & (np.abs(other.f) < limit)))


def bounds(
    op: Operation, rows_left: bool, rows: V.Values, lo: V.Floats, hi: V.Floats
) -> list[Intervals]:
    """For INVERT rows (column) and result intervals (row): intervals of the other operand."""
    if op in inverse.ARITHMETIC or op is JsOp.EXP:
        return inverse.bounds(Op.POW if op is JsOp.EXP else op, rows_left, rows, lo, hi)
    r = rows.f[:, None]
    lo, hi = lo[None, :], hi[None, :]
    with np.errstate(all="ignore"):
        if op in _BITS:
            t = to_int32(rows.f).astype(np.float64)[:, None]
            if op is Op.XOR:
                return inverse.bit_bounds(op, t, lo, hi)
            # t & y for t >= 0 is in [0, t], t | y for t < 0 in [t, -1]: y is free if that
            # range meets the interval; else (t & y, t < 0; t | y, t >= 0) within |t| of y
            low, high = (np.zeros_like(t), t) if op is Op.AND else (t, np.full_like(t, -1.0))
            ranged = (t >= 0) if op is Op.AND else (t < 0)
            meets = (lo <= high) & (hi >= low)
            near_lo, near_hi = inverse.bit_bounds(op, t, lo, hi)[0]
            return [
                (
                    np.where(ranged, np.where(meets, -np.inf, np.inf), near_lo),
                    np.where(ranged, np.where(meets, np.inf, -np.inf), near_hi),
                )
            ]
        scale = 2.0 ** (to_uint32(rows.f) & 31).astype(np.float64)[:, None]
        if op is Op.SHL:
            return [(lo / scale - 1, hi / scale + 1)]
        if op is Op.SHR:
            return [(lo * scale - 1, (hi + 1) * scale + 1)]
        if op is JsOp.USHR:
            low, high = lo * scale - 1, (hi + 1) * scale + 1
            return [(low, high), (low - _TWO_32, high - _TWO_32)]
        inside = (lo <= r) & (r <= hi)
        if op is JsOp.MAX:
            return [(np.where(inside, -np.inf, lo), hi + 0 * r)]
        if op is JsOp.MIN:
            return [(lo + 0 * r, np.where(inside, np.inf, hi))]
        return _hypot_bounds(np.abs(r), lo, hi)


_ROUNDING = 1e-12
"""Far more than V8's Math.hypot is off the exact sqrt(t^2 + y^2) (a few ulps, 1e-16)."""


def _hypot_bounds(t: V.Floats, lo: V.Floats, hi: V.Floats) -> list[Intervals]:
    """hypot(t, y) in [lo, hi]: |y| between sqrt(lo^2 - t^2) and sqrt(hi^2 - t^2), each
    written sqrt(h - t) * sqrt(h + t) (no square overflows near the largest double) with
    h moved out by `_ROUNDING` (where h is close to t the subtraction is all there is)."""
    top = np.maximum(hi, 0.0)
    bottom = np.maximum(lo, 0.0)
    y_hi = np.sqrt(np.maximum(top - t + 4 * _ROUNDING * top, 0.0)) * np.sqrt(top + t)
    y_lo = np.sqrt(np.maximum(bottom - t - 4 * _ROUNDING * bottom, 0.0)) * np.sqrt(bottom + t)
    ok = (hi >= 0) & (top * (1 + 4 * _ROUNDING) >= t)
    return [
        (np.where(ok, y_lo, np.inf), np.where(ok, y_hi, -np.inf)),
        (np.where(ok, -y_hi, np.inf), np.where(ok, -y_lo, -np.inf)),
    ]
