"""PHP number semantics over numpy arrays, exactly as `solver.php` computes one value.

A `Values` holds PHP numbers column-wise: `isint`, the exact int `i` (0 for a
float) and the numeric value `f` (float(i) for an int). Every operation
returns the results and an `ok` mask (False where PHP throws). The rare cases
whose exact result is awkward to vectorise (a product near 2^63, a float
out of the int range, an overflowing pow) fall back to the scalar code, so
both paths agree by construction and the differential test checks both.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from solver import php
from solver.grammar import Func, Op, Wrap

Bools = NDArray[np.bool_]
_F = TypeVar("_F", bound=Callable[..., Any])


def _quiet(fn: _F) -> _F:
    """PHP has no floating-point warnings: INF, NAN and overflow are ordinary values here."""

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        with np.errstate(all="ignore"):
            return fn(*args, **kwargs)

    return run  # type: ignore[return-value]


Ints = NDArray[np.int64]
Floats = NDArray[np.float64]
Index = NDArray[np.int64]

_I64_MIN = np.int64(php.INT_MIN)
_TWO_62 = float(2**62)
_TWO_63 = float(2**63)
_TWO_64 = float(2**64)
_CANON_NAN_BITS = np.int64(0x7FF8000000000000)


@dataclass(frozen=True, slots=True)
class Values:
    isint: Bools
    i: Ints
    f: Floats

    def __len__(self) -> int:
        return len(self.f)

    def take(self, index: NDArray[Any]) -> Values:
        return Values(self.isint[index], self.i[index], self.f[index])

    def scalar(self, k: int) -> php.Number:
        return int(self.i[k]) if self.isint[k] else float(self.f[k])

    def scalars(self) -> list[php.Number]:
        ints, floats = self.i.tolist(), self.f.tolist()
        return [a if t else b for t, a, b in zip(self.isint.tolist(), ints, floats, strict=True)]

    def keys(self) -> Ints:
        """An exact identity key within each type: the int, or an ordered key of the float."""
        return np.where(self.isint, self.i, float_keys(self.f))


@_quiet
def float_keys(f: Floats) -> Ints:
    """Order-preserving int64 keys of doubles: -0.0 sorts just below 0.0, every NAN is one key."""
    bits = np.where(np.isnan(f), _CANON_NAN_BITS, f.view(np.int64))
    return np.where(bits < 0, ~(bits & np.int64(php.INT_MAX)), bits)


def floats_of_keys(keys: Ints) -> Floats:
    bits = np.where(keys < 0, ~keys | _I64_MIN, keys)
    return bits.view(np.float64)


def of_ints(values: Ints) -> Values:
    values = values.astype(np.int64)
    return Values(np.ones(len(values), np.bool_), values, values.astype(np.float64))


def of_floats(values: Floats) -> Values:
    values = values.astype(np.float64)
    n = len(values)
    return Values(np.zeros(n, np.bool_), np.zeros(n, np.int64), values)


def of_scalars(numbers: Sequence[php.Number]) -> Values:
    isint = np.array([isinstance(x, int) for x in numbers], np.bool_)
    ints = np.array([x if isinstance(x, int) else 0 for x in numbers], np.int64)
    floats = np.array([float(x) for x in numbers], np.float64)
    return Values(isint, ints, floats)


def concat(parts: Sequence[Values]) -> Values:
    if not parts:
        return of_ints(np.zeros(0, np.int64))
    return Values(
        np.concatenate([p.isint for p in parts]),
        np.concatenate([p.i for p in parts]),
        np.concatenate([p.f for p in parts]),
    )


def _mixed(isint: Bools, ints: Ints, floats: Floats) -> Values:
    ints = np.where(isint, ints, 0)
    return Values(isint, ints, np.where(isint, ints.astype(np.float64), floats))


def _patch(
    out: Values, ok: Bools, where: Bools, fn: Callable[..., php.Number], *args: Values
) -> None:
    """Recompute the masked elements with the scalar semantics, in place."""
    for k in np.flatnonzero(where).tolist():
        try:
            value = fn(*(a.scalar(k) for a in args))
        except php.PhpError:
            ok[k] = False
            continue
        ok[k] = True
        if isinstance(value, int):
            out.isint[k], out.i[k], out.f[k] = True, value, float(value)
        else:
            out.isint[k], out.i[k], out.f[k] = False, 0, value


@_quiet
def to_int(v: Values) -> Ints:
    """zval_get_long: floats truncate, NAN/INF give 0, out of the int range wrap mod 2^64
    (exactly: such a double is a multiple of 2^11, so every step of the wrap is exact)."""
    f = v.f
    inside = (f >= -_TWO_63) & (f < _TWO_63)
    out = np.where(v.isint, v.i, np.trunc(np.where(inside, f, 0.0)).astype(np.int64))
    far = np.flatnonzero(~v.isint & ~inside & np.isfinite(f))
    if len(far):
        wrapped = np.fmod(f[far], _TWO_64)
        wrapped = np.where(wrapped < 0, wrapped + _TWO_64, wrapped)
        wrapped = np.where(wrapped >= _TWO_63, wrapped - _TWO_64, wrapped)
        out[far] = wrapped.astype(np.int64)
    return out


def _mul_fits(a: Ints, b: Ints) -> tuple[Ints, Bools]:
    """a * b wrapped to 64 bits, and whether the true product fits (exact: a wrapped
    product divisible by b with quotient a would equal the true one)."""
    p = a * b
    safe = np.where(b == 0, 1, b)
    fits = (b == 0) | ((np.remainder(p, safe) == 0) & (np.floor_divide(p, safe) == a))
    fits &= ~(((a == _I64_MIN) & (b == -1)) | ((b == _I64_MIN) & (a == -1)))
    return p, fits


def _both_ints(a: Values, b: Values) -> Bools:
    return a.isint & b.isint


@_quiet
def add(a: Values, b: Values) -> tuple[Values, Bools]:
    s = a.i + b.i
    exact = _both_ints(a, b) & (((a.i ^ s) & (b.i ^ s)) >= 0)
    return _mixed(exact, s, a.f + b.f), np.ones(len(a), np.bool_)


@_quiet
def sub(a: Values, b: Values) -> tuple[Values, Bools]:
    s = a.i - b.i
    exact = _both_ints(a, b) & (((a.i ^ b.i) & (a.i ^ s)) >= 0)
    return _mixed(exact, s, a.f - b.f), np.ones(len(a), np.bool_)


@_quiet
def mul(a: Values, b: Values) -> tuple[Values, Bools]:
    exact, fits = _mul_fits(a.i, b.i)
    return _mixed(_both_ints(a, b) & fits, exact, a.f * b.f), np.ones(len(a), np.bool_)


@_quiet
def neg(a: Values) -> Values:
    out, _ = mul(a, of_ints(np.full(len(a), -1, np.int64)))
    return out


@_quiet
def div(a: Values, b: Values) -> tuple[Values, Bools]:
    ints = _both_ints(a, b)
    ok = b.f != 0.0
    safe_b = np.where(ints & ok, b.i, 1)
    special = ints & (a.i == _I64_MIN) & (safe_b == -1)
    divisible = ints & ok & ~special & (np.remainder(a.i, safe_b) == 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        quotient = a.f / np.where(ok, b.f, 1.0)
    return _mixed(divisible, np.floor_divide(a.i, safe_b), quotient), ok


def _c_mod(a: Ints, b: Ints) -> Ints:
    safe = np.where((b == 0) | (b == -1), 1, b)
    r: Ints = np.fmod(a, safe)
    return np.where(b == -1, 0, r)


@_quiet
def mod(a: Values, b: Values) -> tuple[Values, Bools]:
    left, right = to_int(a), to_int(b)
    return of_ints(_c_mod(left, right)), right != 0


@_quiet
def shl(a: Values, b: Values) -> tuple[Values, Bools]:
    left, count = to_int(a), to_int(b)
    shift = np.clip(count, 0, 63).astype(np.uint64)
    shifted = (left.view(np.uint64) << shift).view(np.int64)
    return of_ints(np.where(count >= 64, 0, shifted)), count >= 0


@_quiet
def shr(a: Values, b: Values) -> tuple[Values, Bools]:
    left, count = to_int(a), to_int(b)
    shifted = left >> np.clip(count, 0, 63)
    return of_ints(np.where(count >= 64, np.where(left < 0, -1, 0), shifted)), count >= 0


@_quiet
def band(a: Values, b: Values) -> tuple[Values, Bools]:
    return of_ints(to_int(a) & to_int(b)), np.ones(len(a), np.bool_)


@_quiet
def bor(a: Values, b: Values) -> tuple[Values, Bools]:
    return of_ints(to_int(a) | to_int(b)), np.ones(len(a), np.bool_)


@_quiet
def bxor(a: Values, b: Values) -> tuple[Values, Bools]:
    return of_ints(to_int(a) ^ to_int(b)), np.ones(len(a), np.bool_)


@_quiet
def pow_(a: Values, b: Values) -> tuple[Values, Bools]:
    """Ints whose power fits are exact by numpy's squaring; overflows go to the scalar loop."""
    ints = _both_ints(a, b) & (b.i >= 0)
    estimate = np.power(np.abs(a.f), b.f)
    floats = np.power(a.f, b.f)
    capped = np.where(b.i > 64, 64 + (b.i & 1), b.i)  # keeps the parity for a base of -1
    exact = np.power(a.i, np.where(ints, capped, 0))
    small = ints & ((np.abs(a.f) <= 1) | (b.i == 0) | (estimate < _TWO_62))
    out = _mixed(small, exact, floats)
    big = np.flatnonzero(ints & ~small)
    if len(big):
        _put(out, big, _pow_by_squaring(a.i[big], b.i[big]))
    return out, np.ones(len(a), np.bool_)


def _pow_by_squaring(base: Ints, exponent: Ints) -> Values:
    """PHP's int pow: square and multiply; at the first step that overflows, the rest
    is C's pow in doubles, exactly as pow_function_base computes it. Each step works
    on the elements still running only."""
    n = len(base)
    out_int = np.ones(n, np.int64)
    out_float = np.zeros(n, np.float64)
    floating = np.zeros(n, np.bool_)
    live = np.arange(n)
    l1, l2, i = np.ones(n, np.int64), base.copy(), exponent.copy()
    while len(live):
        odd = i % 2 == 1
        product, fits = _mul_fits(l1, l2)
        square, square_fits = _mul_fits(l2, l2)
        over = np.where(odd, ~fits, ~square_fits)
        if over.any():
            k = np.flatnonzero(over)
            f1, f2 = l1[k].astype(np.float64), l2[k].astype(np.float64)
            rest = np.where(
                odd[k],
                f1 * f2 * np.power(f2, (i[k] - 1).astype(np.float64)),
                f1 * np.power(f2 * f2, (i[k] // 2).astype(np.float64)),
            )
            out_float[live[k]] = rest
            floating[live[k]] = True
        l1 = np.where(odd, product, l1)
        l2 = np.where(odd, l2, square)
        i = np.where(odd, i - 1, i // 2)
        going = ~over & (i >= 1)
        finished = np.flatnonzero(~over & (i < 1))
        out_int[live[finished]] = l1[finished]
        live, l1, l2, i = live[going], l1[going], l2[going], i[going]
    return _mixed(~floating, out_int, out_float)


def _int_param(v: Values) -> tuple[Ints, Bools]:
    f = v.f
    fits = v.isint | ((f >= -_TWO_63) & (f < _TWO_63))
    safe = np.where(fits & ~v.isint, f, 0.0)
    return np.where(v.isint, v.i, np.trunc(safe).astype(np.int64)), fits


@_quiet
def intdiv(a: Values, b: Values) -> tuple[Values, Bools]:
    left, ok_left = _int_param(a)
    right, ok_right = _int_param(b)
    ok = ok_left & ok_right & (right != 0) & ~((left == _I64_MIN) & (right == -1))
    safe = np.where(ok, right, 1)
    q = np.floor_divide(left, safe)
    q = np.where((np.remainder(left, safe) != 0) & ((left < 0) != (safe < 0)), q + 1, q)
    return of_ints(q), ok


@_quiet
def fmod(a: Values, b: Values) -> tuple[Values, Bools]:
    with np.errstate(invalid="ignore"):
        return of_floats(np.fmod(a.f, b.f)), np.ones(len(a), np.bool_)


def _takes_right(a: Values, b: Values, *, greater: bool) -> Bools:
    ints = _both_ints(a, b)
    if greater:
        return np.where(ints, b.i > a.i, ~(b.f <= a.f))
    return np.where(ints, b.i < a.i, b.f < a.f)


def _choose(a: Values, b: Values, right: Bools) -> Values:
    return Values(
        np.where(right, b.isint, a.isint), np.where(right, b.i, a.i), np.where(right, b.f, a.f)
    )


@_quiet
def max_(a: Values, b: Values) -> tuple[Values, Bools]:
    return _choose(a, b, _takes_right(a, b, greater=True)), np.ones(len(a), np.bool_)


@_quiet
def min_(a: Values, b: Values) -> tuple[Values, Bools]:
    return _choose(a, b, _takes_right(a, b, greater=False)), np.ones(len(a), np.bool_)


Binary = Callable[[Values, Values], tuple[Values, Bools]]

BINARY: dict[Op, Binary] = {
    Op.ADD: add,
    Op.SUB: sub,
    Op.MUL: mul,
    Op.DIV: div,
    Op.MOD: mod,
    Op.AND: band,
    Op.OR: bor,
    Op.XOR: bxor,
    Op.SHL: shl,
    Op.SHR: shr,
    Op.POW: pow_,
    Op.INTDIV: intdiv,
    Op.FMOD: fmod,
    Op.MAX: max_,
    Op.MIN: min_,
}


@_quiet
def sqrt(a: Values) -> Values:
    with np.errstate(invalid="ignore"):
        return of_floats(np.sqrt(a.f))


@_quiet
def php_abs(a: Values) -> Values:
    big = a.isint & (a.i == _I64_MIN)
    return _mixed(a.isint & ~big, np.abs(a.i), np.abs(a.f))


@_quiet
def floor(a: Values) -> Values:
    return of_floats(np.floor(a.f))


@_quiet
def ceil(a: Values) -> Values:
    return of_floats(np.ceil(a.f))


@_quiet
def round_(a: Values) -> Values:
    out = of_floats(a.f.copy())
    ok = np.ones(len(a), np.bool_)
    _patch(out, ok, ~a.isint, php.round_, a)
    return out


# --- hexdec, octdec, bindec: the number's text read in a base, invalid characters skipped ---

_CHUNK = 1000


def _chunk_tables(base: int) -> tuple[Ints, Ints]:
    """For every 3-digit chunk: its value read in `base` and how many of its digits count."""
    values = np.zeros(_CHUNK, np.int64)
    counts = np.zeros(_CHUNK, np.int64)
    for n in range(_CHUNK):
        acc = count = 0
        for ch in f"{n:03d}":
            d = int(ch)
            if d < base:
                acc, count = acc * base + d, count + 1
        values[n], counts[n] = acc, count
    return values, counts


_TABLES = {base: _chunk_tables(base) for base in (2, 8, 16)}


def _read_digits(n: Ints, base: int) -> tuple[Ints, Ints]:
    """The decimal digits of n >= 0 read in `base`, and how many digits were valid.

    Leading zeros of a chunk count as characters, which only adds leading zeros
    to the reading: the value is unchanged, the count is not used for those."""
    values, counts = _TABLES[base]
    acc = np.zeros(len(n), np.int64)
    shift = np.zeros(len(n), np.int64)
    rest = n.copy()
    while np.any(rest > 0):
        chunk = rest % _CHUNK
        acc += values[chunk] << (shift * _BITS[base])
        shift += counts[chunk]
        rest //= _CHUNK
    return acc, shift


_BITS = {2: 1, 8: 3, 16: 4}
_SAFE_INT = {2: 10**18, 8: 10**18, 16: 10**15}
_FUNC_BASE = {Func.HEXDEC: 16, Func.OCTDEC: 8, Func.BINDEC: 2}
_SCALAR_TEXT_FN = {Func.HEXDEC: php.hexdec, Func.OCTDEC: php.octdec, Func.BINDEC: php.bindec}


_POW_SPAN = 340
_LONG_POW10 = np.power(
    np.longdouble(10), np.arange(-_POW_SPAN, _POW_SPAN + 1).astype(np.longdouble)
)


def _float_text_parts(f: Floats) -> tuple[Ints, Ints, Ints, Bools]:
    """Significant digits (trailing zeros dropped), their count and the decimal point
    position of `(string)$f` at precision 14, for finite nonzero f; `sure` is False
    where even long double cannot call the rounding."""
    ax = np.abs(f)
    finite = np.isfinite(ax) & (ax > 0)
    safe = np.where(finite, ax, 1.0)
    e = np.floor(np.log10(safe)).astype(np.int64)
    k = 13 - e
    exact_scale = np.abs(k) <= 22  # one rounding: at most half an ulp of ~1e14 off
    kk = np.clip(np.abs(k), 0, 22)
    scaled = np.where(k >= 0, safe * _POW10[kk], safe / _POW10[kk])
    frac = scaled - np.floor(scaled)
    quick = exact_scale & (np.abs(frac - 0.5) > 0.05) & (scaled >= 1e13) & (scaled < 1e14 - 0.5)
    m = np.rint(scaled).astype(np.int64)
    sure = finite.copy()
    slow = np.flatnonzero(finite & ~quick)
    if len(slow):
        m_slow, e_slow, sure_slow = _long_double_parts(safe[slow], e[slow])
        m[slow], e[slow], sure[slow] = m_slow, e_slow, sure_slow
    m = np.where(sure, m, 10**13)
    digits = np.full(len(f), 14, np.int64)
    for _ in range(13):
        strip = (m % 10 == 0) & (digits > 1)
        if not strip.any():
            break
        m = np.where(strip, m // 10, m)
        digits -= strip
    return m, digits, e + 1, sure


def _long_double_parts(ax: Floats, e: Ints) -> tuple[Ints, Ints, Bools]:
    scaled = (
        ax.astype(np.longdouble) * _LONG_POW10[np.clip(13 - e, -_POW_SPAN, _POW_SPAN) + _POW_SPAN]
    )
    low = scaled < 1e13
    e = np.where(low, e - 1, e)
    scaled = np.where(low, scaled * 10, scaled)
    high = scaled >= np.longdouble(1e14) - np.longdouble(0.5)
    e = np.where(high, e + 1, e)
    scaled = np.where(high, scaled / 10, scaled)
    frac = scaled - np.floor(scaled)
    m = np.rint(scaled).astype(np.int64)
    sure = (np.abs(frac - np.longdouble(0.5)) > 1e-6) & (m >= 10**13) & (m < 10**14)
    return m, e, sure


_POW10 = np.array([10.0**k for k in range(23)])


def _digit_columns(n: NDArray[np.uint64], width: int) -> Ints:
    """Decimal digits of n, right-aligned in `width` columns, zero-padded on the left."""
    cols = np.zeros((len(n), width), np.int64)
    rest = n.copy()
    for col in range(width - 1, -1, -1):
        cols[:, col] = (rest % np.uint64(10)).astype(np.int64)
        rest //= np.uint64(10)
    return cols


def _accumulate(chars: Ints, base: int) -> Values:
    """_php_math_basetozval over a character matrix (-1: no character): an int until the
    next digit would pass PHP_INT_MAX, then a double, digit by digit as PHP does."""
    cutoff, cutlim = divmod(php.INT_MAX, base)
    n = len(chars)
    num = np.zeros(n, np.int64)
    fnum = np.zeros(n, np.float64)
    floating = np.zeros(n, np.bool_)
    for col in range(chars.shape[1]):
        d = chars[:, col]
        valid = (d >= 0) & (d < base)
        fits = (num < cutoff) | ((num == cutoff) & (d <= cutlim))
        step = valid & ~floating & fits
        num = np.where(step, num * base + np.maximum(d, 0), num)
        switch = valid & ~floating & ~fits
        fnum = np.where(switch, num.astype(np.float64), fnum)
        floating |= switch
        fnum = np.where(valid & floating, fnum * base + np.maximum(d, 0), fnum)
    return _mixed(~floating, num, fnum)


def _magnitude(i: Ints) -> NDArray[np.uint64]:
    return np.where(i < 0, (-(i + 1)).astype(np.uint64) + np.uint64(1), i.astype(np.uint64))


@dataclass(frozen=True, slots=True)
class _FloatText:
    m: Ints
    digits: Ints
    point: Ints
    sure: Bools


def _float_text(a: Values) -> _FloatText:
    finite = ~a.isint & np.isfinite(a.f) & (a.f != 0)
    return _FloatText(*_float_text_parts(np.where(finite, a.f, 1.0)))


@_quiet
def read_text(a: Values, func: Func, text: _FloatText | None = None) -> Values:
    """hexdec/octdec/bindec of each value, via the number's PHP text (`text`: precomputed)."""
    base = _FUNC_BASE[func]
    n = len(a)
    out = of_ints(np.zeros(n, np.int64))
    # ints: short ones through the chunk tables, long ones digit by digit
    mag = _magnitude(a.i)
    short = a.isint & (mag < np.uint64(_SAFE_INT[base]))
    value, _ = _read_digits(np.where(short, mag, 0).astype(np.int64), base)
    out.i[:] = np.where(short, value, 0)
    long_ints = np.flatnonzero(a.isint & ~short)
    if len(long_ints):
        _put(out, long_ints, _accumulate(_digit_columns(mag[long_ints], 20), base))
    # floats: INF reads "F", NAN reads "A", zero reads "0"
    fl = ~a.isint
    f = a.f
    out.i[fl & np.isinf(f)] = 15 if base == 16 else 0
    out.i[fl & np.isnan(f)] = 10 if base == 16 else 0
    finite = fl & np.isfinite(f) & (f != 0)
    parts = text if text is not None else _float_text(a)
    m, digits, point, sure = parts.m, parts.digits, parts.point, parts.sure
    slow = finite & ~sure
    finite &= sure
    standard = finite & (point >= -3) & (point <= 14)
    zeros = np.clip(point - digits, 0, 14)
    whole = np.where(standard, m * np.power(10, zeros), 0)  # "12.5" and "125" read alike
    std_value, _ = _read_digits(whole, base)
    out.i[:] = np.where(standard, std_value, out.i)
    exp_rows = np.flatnonzero(finite & ~standard)
    if len(exp_rows):
        m, digits, point = m[exp_rows], digits[exp_rows], point[exp_rows]
        exponent = np.abs(point - 1)
        exp_len = np.where(exponent >= 100, 3, np.where(exponent >= 10, 2, 1))
        long_hex = digits + (digits == 1) + 1 + exp_len > 15 if base == 16 else digits < 0
        near = np.flatnonzero(~long_hex)
        out.i[exp_rows[near]] = _exponent_short(
            m[near], digits[near], exponent[near], exp_len[near], base
        )
        far = np.flatnonzero(long_hex)
        if len(far):
            _put(out, exp_rows[far], _exponent_form(m[far], digits[far], point[far], base))
    out.f[:] = np.where(out.isint, out.i.astype(np.float64), out.f)
    ok = np.ones(n, np.bool_)
    _patch(out, ok, slow, _SCALAR_TEXT_FN[func], a)
    return out


def _exponent_short(m: Ints, digits: Ints, exponent: Ints, exp_len: Ints, base: int) -> Ints:
    """Reading "d.dddE+X" when it fits an int: mantissa, then 'E' (hex only), then X."""
    mantissa, _ = _read_digits(np.where(digits == 1, m * 10, m), base)
    exp_value, padded = _read_digits(exponent, base)
    count = padded - (3 - exp_len)  # the chunk's padding zeros are not in the text
    if base == 16:
        exp_value = (np.int64(14) << (count * 4)) + exp_value
        count = count + 1
    return (mantissa << (count * _BITS[base])) + exp_value


def _exponent_form(m: Ints, digits: Ints, point: Ints, base: int) -> Values:
    """Reading "d.dddE+X": mantissa digits ("1.0" for one digit), 'E' (hex only), exponent."""
    mantissa = np.where(digits == 1, m * 10, m).astype(np.uint64)
    exponent = np.abs(point - 1)
    exp_cols = _digit_columns(exponent.astype(np.uint64), 3)
    exp_len = np.where(exponent >= 100, 3, np.where(exponent >= 10, 2, 1))
    exp_cols = np.where(np.arange(3)[None, :] < (3 - exp_len)[:, None], -1, exp_cols)
    e_col = np.full((len(m), 1), 14 if base == 16 else -1, np.int64)
    chars = np.concatenate([_digit_columns(mantissa, 15), e_col, exp_cols], axis=1)
    return _accumulate(chars, base)


def _put(out: Values, rows: Index, part: Values) -> None:
    out.isint[rows], out.i[rows], out.f[rows] = part.isint, part.i, part.f


UNARY: dict[Func, Callable[[Values], Values]] = {
    Func.SQRT: sqrt,
    Func.ABS: php_abs,
    Func.FLOOR: floor,
    Func.CEIL: ceil,
    Func.ROUND: round_,
    Func.HEXDEC: lambda a: read_text(a, Func.HEXDEC),
    Func.OCTDEC: lambda a: read_text(a, Func.OCTDEC),
    Func.BINDEC: lambda a: read_text(a, Func.BINDEC),
}


@_quiet
def apply_funcs(funcs: Sequence[Func], a: Values) -> dict[Func, Values]:
    """f(a) for several functions, reading the floats' text once for all three bases."""
    text = _float_text(a) if any(f.reads_text for f in funcs) else None
    return {f: read_text(a, f, text) if f.reads_text else UNARY[f](a) for f in funcs}


@_quiet
def apply_wrap(wrap: Wrap, a: Values) -> Values:
    x = neg(a) if wrap.func is None or wrap.shape.inner else a
    if wrap.func is None:
        return x
    y = UNARY[wrap.func](x)
    return neg(y) if wrap.shape.outer else y


@_quiet
def identical(a: Values, b: Values) -> Bools:
    """PHP identity elementwise (===, -0.0 told from 0.0, NAN equal to NAN)."""
    same: Bools = (a.isint == b.isint) & (a.keys() == b.keys())
    return same


def identity_codes(a: Values) -> Ints:
    """A small int per element, equal exactly for PHP-identical values (for counting and
    grouping; keys alone collide between an int and a float)."""
    keys = a.keys()
    order = np.lexsort((keys, a.isint))
    change = np.ones(len(order), np.bool_)
    change[1:] = (keys[order][1:] != keys[order][:-1]) | (a.isint[order][1:] != a.isint[order][:-1])
    codes = np.empty(len(order), np.int64)
    codes[order] = np.cumsum(change) - 1
    return codes


def is_nan(a: Values) -> Bools:
    return ~a.isint & np.isnan(a.f)


def is_finite(a: Values) -> Bools:
    return a.isint | np.isfinite(a.f)


def number_key(value: php.Number) -> tuple[bool, int]:
    """The identity of one PHP number, as `Values.keys` computes it."""
    if isinstance(value, int):
        return True, value
    return False, int(float_keys(np.array([value]))[0])


def nan_safe_float(value: php.Number) -> float:
    return float(value) if not (isinstance(value, float) and math.isnan(value)) else math.nan
