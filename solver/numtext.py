"""hexdec, octdec and bindec over arrays: the number's PHP text read in a base.

A float's text is `(string)$f` at the worker's precision=14 (`1.0E+14`, `3.5`,
`-0`); invalid characters are skipped, and past PHP_INT_MAX the reading goes
on in doubles digit by digit, exactly as _php_math_basetozval does. Elements
too close to call in floating point fall back to the scalar code in `php`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from solver import php
from solver.column import Bools, Floats, Ints, Values, mixed, of_ints, patch, put, quiet
from solver.grammar import Func

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
    live = np.flatnonzero(n > 0)
    rest = n[live]
    while len(live):
        chunk = rest % _CHUNK
        acc[live] += values[chunk] << (shift[live] * _BITS[base])
        shift[live] += counts[chunk]
        rest //= _CHUNK
        going = rest > 0
        live, rest = live[going], rest[going]
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
    return mixed(~floating, num, fnum)


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


@quiet
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
        put(out, long_ints, _accumulate(_digit_columns(mag[long_ints], 20), base))
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
            put(out, exp_rows[far], _exponent_form(m[far], digits[far], point[far], base))
    out.f[:] = np.where(out.isint, out.i.astype(np.float64), out.f)
    ok = np.ones(n, np.bool_)
    patch(out, ok, slow, _SCALAR_TEXT_FN[func], a)
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


@quiet
def read_all(funcs: Sequence[Func], a: Values) -> dict[Func, Values]:
    """Several text-reading functions of the same values, parsing the floats' text once."""
    text = _float_text(a)
    return {f: read_text(a, f, text) for f in funcs}
