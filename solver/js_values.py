"""JavaScript's numbers over numpy columns, exactly as node computes each formula.

Every value is a double (`Values` with `isint` all False): there is no int, no
overflow and no error (`1/0` is Infinity, `5%0` NaN), so every `ok` mask is all
True. Bitwise operators and shifts work on ToInt32 (the shift count and `>>>`'s left
operand on ToUint32, the count masked to 5 bits); `%` is C's fmod (exact, the
dividend's sign); `Math.round` rounds half toward +Infinity and keeps -0; `Math.max`
and `Math.min` give NaN for any NaN and tell -0 from +0; `Math.hypot` is V8's
(normalised to the larger magnitude, summed, square-rooted, scaled back); `**`,
`Math.pow` come from node itself (node_math.py) but for their exact cases (js_pow.py,
in numpy), `Math.cbrt` is V8's algorithm in
numpy (js_cbrt.py). A formula's literal
with a leading 0 is legacy octal when all its digits are octal (`023` is 19), else
decimal (`08` is 8). tests/solver/test_solver_js.py checks each against node.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from solver.column import Bools, Floats, Ints, Values, doubles, float_keys, identity_codes, quiet
from solver.grammar import Function, JsFunc, JsOp, Op, Operation, Wrap
from solver.js_cbrt import cbrt
from solver.js_pow import js_pow

_TWO_32 = float(2**32)
_TWO_31 = float(2**31)

Binary = Callable[[Values, Values], tuple[Values, Bools]]


@quiet
def to_uint32(f: Floats) -> Ints:
    """ECMAScript ToUint32: NaN and ±Infinity give 0, else trunc modulo 2^32 (exact: fmod
    of a whole double by a power of two is exact)."""
    whole = np.where(np.isfinite(f), np.trunc(f), 0.0)
    m = np.fmod(whole, _TWO_32)
    m = np.where(m < 0, m + _TWO_32, m)
    return m.astype(np.int64)


def to_int32(f: Floats) -> Ints:
    u = to_uint32(f)
    return np.where(u >= int(_TWO_31), u - int(_TWO_32), u)


def _int32(x: Ints) -> Ints:
    x = x & 0xFFFFFFFF
    return np.where(x >= 1 << 31, x - (1 << 32), x)


def _all(a: Values) -> Bools:
    return np.ones(len(a), np.bool_)


def _of(f: Floats | Ints) -> tuple[Values, Bools]:
    out = doubles(np.asarray(f, np.float64))
    return out, _all(out)


@quiet
def add(a: Values, b: Values) -> tuple[Values, Bools]:
    return _of(a.f + b.f)


@quiet
def sub(a: Values, b: Values) -> tuple[Values, Bools]:
    return _of(a.f - b.f)


@quiet
def mul(a: Values, b: Values) -> tuple[Values, Bools]:
    return _of(a.f * b.f)


@quiet
def div(a: Values, b: Values) -> tuple[Values, Bools]:
    return _of(a.f / b.f)


@quiet
def mod(a: Values, b: Values) -> tuple[Values, Bools]:
    return _of(np.fmod(a.f, b.f))


def band(a: Values, b: Values) -> tuple[Values, Bools]:
    return _of(to_int32(a.f) & to_int32(b.f))


def bor(a: Values, b: Values) -> tuple[Values, Bools]:
    return _of(to_int32(a.f) | to_int32(b.f))


def bxor(a: Values, b: Values) -> tuple[Values, Bools]:
    return _of(to_int32(a.f) ^ to_int32(b.f))


def shl(a: Values, b: Values) -> tuple[Values, Bools]:
    return _of(_int32(to_int32(a.f) << (to_uint32(b.f) & 31)))


def shr(a: Values, b: Values) -> tuple[Values, Bools]:
    return _of(to_int32(a.f) >> (to_uint32(b.f) & 31))


def ushr(a: Values, b: Values) -> tuple[Values, Bools]:
    return _of(to_uint32(a.f) >> (to_uint32(b.f) & 31))


def exp(a: Values, b: Values) -> tuple[Values, Bools]:
    return _of(js_pow(a.f, b.f))


@quiet
def _extreme(a: Values, b: Values, *, greater: bool) -> tuple[Values, Bools]:
    x, y = a.f, b.f
    pick = np.where(x > y, x, y) if greater else np.where(x < y, x, y)
    # equal: of +0 and -0 max is +0 (their sum), min is -0 (minus the sum of the negations)
    zeros = (x + y) if greater else -((-x) + (-y))
    out = np.where(x == y, np.where(x == 0, zeros, x), pick)
    return _of(np.where(np.isnan(x) | np.isnan(y), np.nan, out))


def max_(a: Values, b: Values) -> tuple[Values, Bools]:
    return _extreme(a, b, greater=True)


def min_(a: Values, b: Values) -> tuple[Values, Bools]:
    return _extreme(a, b, greater=False)


@quiet
def hypot(a: Values, b: Values) -> tuple[Values, Bools]:
    """V8's Math.hypot of two: any Infinity wins over NaN; else NaN; two zeros give +0;
    else sqrt((|a|/m)^2 + (|b|/m)^2) * m with m the larger magnitude, summed in order."""
    x, y = np.abs(a.f), np.abs(b.f)
    m = np.maximum(x, y)
    safe = np.where(m > 0, m, 1.0)
    u, v = x / safe, y / safe
    out = np.sqrt(u * u + v * v) * safe
    out = np.where(m == 0, 0.0, out)
    out = np.where(np.isnan(x) | np.isnan(y), np.nan, out)
    return _of(np.where(np.isinf(x) | np.isinf(y), np.inf, out))


BINARY: dict[Operation, Binary] = {
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
    JsOp.USHR: ushr,
    JsOp.EXP: exp,
    JsOp.POW: exp,
    JsOp.HYPOT: hypot,
    JsOp.MAX: max_,
    JsOp.MIN: min_,
}


@quiet
def round_(f: Floats) -> Floats:
    """Math.round: the nearest whole number, halves toward +Infinity; -0 for [-0.5, -0]."""
    low = np.floor(f)
    out = np.where(f - low >= 0.5, low + 1, low)  # f - floor(f) is exact
    out = np.where(np.isfinite(f), out, f)
    return np.where((out == 0) & ((f < 0) | (np.signbit(f))), -0.0, out)


@quiet
def sign(f: Floats) -> Floats:
    out: Floats = np.where(f > 0, 1.0, np.where(f < 0, -1.0, f))  # NaN and ±0 stay
    return out


UNARY: dict[Function, Callable[[Floats], Floats]] = {
    JsFunc.SQRT: quiet(np.sqrt),
    JsFunc.CBRT: cbrt,
    JsFunc.ABS: np.abs,
    JsFunc.FLOOR: np.floor,
    JsFunc.CEIL: np.ceil,
    JsFunc.ROUND: round_,
    JsFunc.TRUNC: np.trunc,
    JsFunc.SIGN: sign,
}


_ROUNDING = frozenset({JsFunc.FLOOR, JsFunc.CEIL, JsFunc.ROUND, JsFunc.TRUNC})


@quiet
def useful_wrap(func: Function, argument: Values) -> Bools | None:
    """Where `f(a)` (a = x or -x) is not a itself: rounding a whole number (or ±0, NaN,
    ±Infinity) and Math.abs of a with its sign bit clear give a back, and `a`, `-x` or `(x)`
    write that value shorter than any `Math.f(...)` (11 characters or more against 2), in
    every context (tests/solver/test_solver_js_pruning.py)."""
    a = argument.f
    if func in _ROUNDING:
        keep: Bools = np.isfinite(a) & (a != np.trunc(a))
        return keep
    if func is JsFunc.ABS:
        sign: Bools = np.signbit(a) & ~np.isnan(a)
        return sign
    return None


def neg(a: Values) -> Values:
    return doubles(-a.f)


@quiet
def apply_funcs(funcs: Sequence[Function], a: Values) -> dict[Function, Values]:
    return {f: doubles(UNARY[f](a.f)) for f in funcs}


@quiet
def apply_wrap(wrap: Wrap, a: Values) -> Values:
    x = neg(a) if wrap.func is None or wrap.shape.inner else a
    if wrap.func is None:
        return x
    y = doubles(UNARY[wrap.func](x.f))
    return neg(y) if wrap.shape.outer else y


def literal(text: str) -> float:
    """A number literal of digits: legacy octal if it has a leading 0 and only octal digits."""
    if len(text) > 1 and text[0] == "0" and all(ch in "01234567" for ch in text):
        return float(int(text, 8))
    return float(int(text))


def result_codes(a: Values) -> Ints:
    """One code per Result: -0 and +0 are the same Result (`-0 === 0`, both print `0`)."""
    return identity_codes(doubles(a.f + 0.0))


def same_number(a: Floats, b: Floats) -> Bools:
    """Identity of doubles (-0 told from +0, NaN equal to NaN): what the tables keep apart."""
    same: Bools = float_keys(a) == float_keys(b)
    return same
