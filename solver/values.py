"""PHP arithmetic over numpy arrays, exactly as `solver.php` computes one value.

Every binary operation returns the results (`column.Values`) and an `ok`
mask (False where PHP throws). Overflow is detected exactly (a product that
does not divide back does not fit), an overflowing int pow replays PHP's
square-and-multiply, and `round` uses the scalar code; the differential
tests check both paths against php.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from solver import php
from solver.column import (
    Bools,
    Floats,
    Index,
    Ints,
    Values,
    concat,
    doubles,
    float_keys,
    floats_of_keys,
    identical,
    identity_codes,
    is_finite,
    mixed,
    of_floats,
    of_ints,
    of_scalars,
    patch,
    put,
    quiet,
)
from solver.grammar import Func, Op, Wrap
from solver.numtext import read_all, read_text

__all__ = [
    "BINARY",
    "UNARY",
    "Bools",
    "Floats",
    "Index",
    "Ints",
    "Values",
    "apply_funcs",
    "apply_wrap",
    "concat",
    "doubles",
    "float_keys",
    "floats_of_keys",
    "identical",
    "identity_codes",
    "is_finite",
    "neg",
    "of_floats",
    "of_ints",
    "of_scalars",
    "to_int",
]

_I64_MIN = np.int64(php.INT_MIN)
_TWO_62 = float(2**62)
_TWO_63 = float(2**63)
_TWO_64 = float(2**64)


@quiet
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


@quiet
def add(a: Values, b: Values) -> tuple[Values, Bools]:
    s = a.i + b.i
    exact = _both_ints(a, b) & (((a.i ^ s) & (b.i ^ s)) >= 0)
    return mixed(exact, s, a.f + b.f), np.ones(len(a), np.bool_)


@quiet
def sub(a: Values, b: Values) -> tuple[Values, Bools]:
    s = a.i - b.i
    exact = _both_ints(a, b) & (((a.i ^ b.i) & (a.i ^ s)) >= 0)
    return mixed(exact, s, a.f - b.f), np.ones(len(a), np.bool_)


@quiet
def mul(a: Values, b: Values) -> tuple[Values, Bools]:
    exact, fits = _mul_fits(a.i, b.i)
    return mixed(_both_ints(a, b) & fits, exact, a.f * b.f), np.ones(len(a), np.bool_)


@quiet
def neg(a: Values) -> Values:
    out, _ = mul(a, of_ints(np.full(len(a), -1, np.int64)))
    return out


@quiet
def div(a: Values, b: Values) -> tuple[Values, Bools]:
    ints = _both_ints(a, b)
    ok = b.f != 0.0
    safe_b = np.where(ints & ok, b.i, 1)
    special = ints & (a.i == _I64_MIN) & (safe_b == -1)
    divisible = ints & ok & ~special & (np.remainder(a.i, safe_b) == 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        quotient = a.f / np.where(ok, b.f, 1.0)
    return mixed(divisible, np.floor_divide(a.i, safe_b), quotient), ok


def _c_mod(a: Ints, b: Ints) -> Ints:
    safe = np.where((b == 0) | (b == -1), 1, b)
    r: Ints = np.fmod(a, safe)
    return np.where(b == -1, 0, r)


@quiet
def mod(a: Values, b: Values) -> tuple[Values, Bools]:
    left, right = to_int(a), to_int(b)
    return of_ints(_c_mod(left, right)), right != 0


@quiet
def shl(a: Values, b: Values) -> tuple[Values, Bools]:
    left, count = to_int(a), to_int(b)
    shift = np.clip(count, 0, 63).astype(np.uint64)
    shifted = (left.view(np.uint64) << shift).view(np.int64)
    return of_ints(np.where(count >= 64, 0, shifted)), count >= 0


@quiet
def shr(a: Values, b: Values) -> tuple[Values, Bools]:
    left, count = to_int(a), to_int(b)
    shifted = left >> np.clip(count, 0, 63)
    return of_ints(np.where(count >= 64, np.where(left < 0, -1, 0), shifted)), count >= 0


@quiet
def band(a: Values, b: Values) -> tuple[Values, Bools]:
    return of_ints(to_int(a) & to_int(b)), np.ones(len(a), np.bool_)


@quiet
def bor(a: Values, b: Values) -> tuple[Values, Bools]:
    return of_ints(to_int(a) | to_int(b)), np.ones(len(a), np.bool_)


@quiet
def bxor(a: Values, b: Values) -> tuple[Values, Bools]:
    return of_ints(to_int(a) ^ to_int(b)), np.ones(len(a), np.bool_)


@quiet
def pow_(a: Values, b: Values) -> tuple[Values, Bools]:
    """Ints whose power fits are exact by numpy's squaring; overflows go to the scalar loop."""
    ints = _both_ints(a, b) & (b.i >= 0)
    estimate = np.float_power(np.abs(a.f), b.f)
    floats = np.float_power(a.f, b.f)  # C's pow: np.power squares for whole exponents
    capped = np.where(b.i > 64, 64 + (b.i & 1), b.i)  # keeps the parity for a base of -1
    exact = np.power(a.i, np.where(ints, capped, 0))
    small = ints & ((np.abs(a.f) <= 1) | (b.i == 0) | (estimate < _TWO_62))
    out = mixed(small, exact, floats)
    big = np.flatnonzero(ints & ~small)
    if len(big):
        put(out, big, _pow_by_squaring(a.i[big], b.i[big]))
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
                f1 * f2 * np.float_power(f2, (i[k] - 1).astype(np.float64)),
                f1 * np.float_power(f2 * f2, (i[k] // 2).astype(np.float64)),
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
    return mixed(~floating, out_int, out_float)


def _int_param(v: Values) -> tuple[Ints, Bools]:
    f = v.f
    fits = v.isint | ((f >= -_TWO_63) & (f < _TWO_63))
    safe = np.where(fits & ~v.isint, f, 0.0)
    return np.where(v.isint, v.i, np.trunc(safe).astype(np.int64)), fits


@quiet
def intdiv(a: Values, b: Values) -> tuple[Values, Bools]:
    left, ok_left = _int_param(a)
    right, ok_right = _int_param(b)
    ok = ok_left & ok_right & (right != 0) & ~((left == _I64_MIN) & (right == -1))
    safe = np.where(ok, right, 1)
    q = np.floor_divide(left, safe)
    q = np.where((np.remainder(left, safe) != 0) & ((left < 0) != (safe < 0)), q + 1, q)
    return of_ints(q), ok


@quiet
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


@quiet
def max_(a: Values, b: Values) -> tuple[Values, Bools]:
    return _choose(a, b, _takes_right(a, b, greater=True)), np.ones(len(a), np.bool_)


@quiet
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


@quiet
def sqrt(a: Values) -> Values:
    with np.errstate(invalid="ignore"):
        return of_floats(np.sqrt(a.f))


@quiet
def php_abs(a: Values) -> Values:
    big = a.isint & (a.i == _I64_MIN)
    return mixed(a.isint & ~big, np.abs(a.i), np.abs(a.f))


@quiet
def floor(a: Values) -> Values:
    return of_floats(np.floor(a.f))


@quiet
def ceil(a: Values) -> Values:
    return of_floats(np.ceil(a.f))


@quiet
def round_(a: Values) -> Values:
    out = of_floats(a.f.copy())
    ok = np.ones(len(a), np.bool_)
    patch(out, ok, ~a.isint, php.round_, a)
    return out


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


@quiet
def apply_funcs(funcs: Sequence[Func], a: Values) -> dict[Func, Values]:
    """f(a) for several functions, reading the floats' text once for all three bases."""
    out = read_all([f for f in funcs if f.reads_text], a)
    out.update({f: UNARY[f](a) for f in funcs if not f.reads_text})
    return {f: out[f] for f in funcs}


@quiet
def apply_wrap(wrap: Wrap, a: Values) -> Values:
    x = neg(a) if wrap.func is None or wrap.shape.inner else a
    if wrap.func is None:
        return x
    assert isinstance(wrap.func, Func), "a PHP grammar holds PHP's functions only"
    y = UNARY[wrap.func](x)
    return neg(y) if wrap.shape.outer else y
