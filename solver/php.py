"""PHP 8's number semantics, one value at a time, exactly as the evaluator's php-cli computes them.

A PHP number is a Python `int` (always inside the 64-bit range) or a `float`;
int 3 and float 3.0 are different values (they print and behave differently).
NAN and ±INF may appear inside a formula (`hexdec(sqrt(-1))` is 10) but never
as a Result. Errors PHP throws raise `PhpError`; a literal PHP cannot parse
(`08`) raises `PhpParseError`. Float-to-string follows the worker's
`precision=14`, which is what `hexdec(3.5)` or `hexdec(1e14)` read.
"""

from __future__ import annotations

import math
from enum import StrEnum

from rules.scoring import INT_MAX, INT_MIN, Number, php_abs, php_add, php_sub

__all__ = [
    "INT_MAX",
    "INT_MIN",
    "Number",
    "PhpError",
    "PhpErrorKind",
    "PhpParseError",
    "bindec",
    "ceil",
    "floor",
    "fmod",
    "hexdec",
    "intdiv",
    "literal",
    "octdec",
    "php_abs",
    "php_add",
    "php_sub",
    "pow_",
    "round_",
    "same",
    "to_int",
    "to_string",
]

_TWO_64 = 1 << 64
_TWO_63_F = 9223372036854775808.0  # (double)PHP_INT_MAX


class PhpErrorKind(StrEnum):
    DIVISION_BY_ZERO = "DivisionByZeroError"
    ARITHMETIC = "ArithmeticError"
    TYPE = "TypeError"


class PhpError(ArithmeticError):
    """An exception PHP throws while evaluating (`1/0`, `1<<-1`, `intdiv(INF,1)`)."""

    def __init__(self, kind: PhpErrorKind, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class PhpParseError(ValueError):
    """A literal PHP refuses to parse: an octal literal with an 8 or a 9 (`08`)."""


def same(a: Number, b: Number) -> bool:
    """PHP identity of two numbers (`===`, with -0.0 told from 0.0 and NAN equal to NAN)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        assert isinstance(b, float)
        if math.isnan(a):
            return math.isnan(b)
        return a == b and math.copysign(1.0, a) == math.copysign(1.0, b)
    return a == b


def literal(text: str) -> int:
    """An integer literal as PHP reads it: a leading 0 makes it octal, `08` does not parse."""
    if len(text) > 1 and text[0] == "0":
        if any(ch in "89" for ch in text):
            raise PhpParseError(f"Invalid numeric literal {text}")
        return int(text, 8)
    return int(text)


def _fits(value: int) -> bool:
    return INT_MIN <= value <= INT_MAX


def to_int(value: Number) -> int:
    """zval_get_long for a number: floats truncate, NAN/INF give 0, out of range wraps mod 2^64."""
    if isinstance(value, int):
        return value
    if not math.isfinite(value):
        return 0
    if -_TWO_63_F <= value < _TWO_63_F:
        return int(value)
    wrapped = int(value) % _TWO_64
    return wrapped - _TWO_64 if wrapped > INT_MAX else wrapped


def _int_param(value: Number, function: str, position: int) -> int:
    """A float passed to an `int` parameter (coercive mode): TypeError unless it fits."""
    if isinstance(value, int):
        return value
    if math.isnan(value) or not -_TWO_63_F <= value < _TWO_63_F:
        raise PhpError(
            PhpErrorKind.TYPE,
            f"{function}(): Argument #{position} ($num{position}) must be of type int, float given",
        )
    return int(value)


def neg(a: Number) -> Number:
    """Unary minus (PHP compiles `-x` as `x * -1`)."""
    return mul(a, -1)


def add(a: Number, b: Number) -> Number:
    return php_add(a, b)


def sub(a: Number, b: Number) -> Number:
    return php_sub(a, b)


def mul(a: Number, b: Number) -> Number:
    if isinstance(a, int) and isinstance(b, int):
        exact = a * b
        return exact if _fits(exact) else float(a) * float(b)
    return float(a) * float(b)


def div(a: Number, b: Number) -> Number:
    """`/`: an int only when both are ints and the division is exact."""
    if isinstance(a, int) and isinstance(b, int):
        if b == 0:
            raise PhpError(PhpErrorKind.DIVISION_BY_ZERO, "Division by zero")
        if b == -1 and a == INT_MIN:
            return float(a) / -1.0
        if a % b == 0:
            return _c_div(a, b)
        return float(a) / float(b)
    if float(b) == 0.0:
        raise PhpError(PhpErrorKind.DIVISION_BY_ZERO, "Division by zero")
    return float(a) / float(b)


def _c_div(a: int, b: int) -> int:
    """C's truncating integer division."""
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _c_mod(a: int, b: int) -> int:
    """C's `%`: the sign of the dividend."""
    r = abs(a) % abs(b)
    return -r if a < 0 else r


def mod(a: Number, b: Number) -> int:
    left, right = to_int(a), to_int(b)
    if right == 0:
        raise PhpError(PhpErrorKind.DIVISION_BY_ZERO, "Modulo by zero")
    if right == -1:
        return 0
    return _c_mod(left, right)


def _wrap(value: int) -> int:
    value &= _TWO_64 - 1
    return value - _TWO_64 if value > INT_MAX else value


def shl(a: Number, b: Number) -> int:
    left, count = to_int(a), to_int(b)
    if count < 0:
        raise PhpError(PhpErrorKind.ARITHMETIC, "Bit shift by negative number")
    if count >= 64:
        return 0
    return _wrap(left << count)


def shr(a: Number, b: Number) -> int:
    left, count = to_int(a), to_int(b)
    if count < 0:
        raise PhpError(PhpErrorKind.ARITHMETIC, "Bit shift by negative number")
    if count >= 64:
        return -1 if left < 0 else 0
    return left >> count


def band(a: Number, b: Number) -> int:
    return to_int(a) & to_int(b)


def bor(a: Number, b: Number) -> int:
    return to_int(a) | to_int(b)


def bxor(a: Number, b: Number) -> int:
    return to_int(a) ^ to_int(b)


def _c_pow(x: float, y: float) -> float:
    """C's pow(): Python's math.pow raises where C returns INF or NAN."""
    try:
        return math.pow(x, y)
    except OverflowError:
        odd = y.is_integer() and abs(y) % 2 == 1
        return -math.inf if x < 0 and odd else math.inf
    except ValueError:
        if x == 0.0:  # 0 ** negative
            odd = y.is_integer() and abs(y) % 2 == 1
            return math.copysign(math.inf, x) if odd else math.inf
        return math.nan


def pow_(base: Number, exponent: Number) -> Number:
    """`pow()` / `**`: ints by squaring until a step overflows, then C's pow for the rest."""
    if isinstance(base, int) and isinstance(exponent, int) and exponent >= 0:
        if exponent == 0:
            return 1
        if base == 0:
            return 0
        result, square, i = 1, base, exponent
        while i >= 1:
            if i % 2:
                i -= 1
                product = result * square
                if not _fits(product):
                    return float(result) * float(square) * _c_pow(float(square), float(i))
                result = product
            else:
                i //= 2
                product = square * square
                if not _fits(product):
                    return float(result) * _c_pow(float(square) * float(square), float(i))
                square = product
        return result
    return _c_pow(float(base), float(exponent))


def intdiv(a: Number, b: Number) -> int:
    left, right = _int_param(a, "intdiv", 1), _int_param(b, "intdiv", 2)
    if right == 0:
        raise PhpError(PhpErrorKind.DIVISION_BY_ZERO, "Division by zero")
    if right == -1 and left == INT_MIN:
        raise PhpError(PhpErrorKind.ARITHMETIC, "Division of PHP_INT_MIN by -1 is not an integer")
    return _c_div(left, right)


def fmod(a: Number, b: Number) -> float:
    x, y = float(a), float(b)
    if math.isnan(x) or math.isnan(y) or math.isinf(x) or y == 0.0:
        return math.nan
    return math.fmod(x, y)


def _compare(a: Number, b: Number) -> int:
    """zend_compare for numbers: ints exactly, else as doubles; NAN compares 'greater'."""
    if isinstance(a, int) and isinstance(b, int):
        return (a > b) - (a < b)
    x, y = float(a), float(b)
    if x == y:
        return 0
    return -1 if x < y else 1


def max_(a: Number, b: Number) -> Number:
    """max(): the first argument unless the second compares greater (type kept)."""
    return b if _compare(b, a) > 0 else a


def min_(a: Number, b: Number) -> Number:
    return b if _compare(b, a) < 0 else a


def sqrt(a: Number) -> float:
    x = float(a)
    if math.isnan(x) or x < 0:
        return math.nan
    return math.sqrt(x)


def _c_floor(x: float) -> float:
    if not math.isfinite(x):
        return x
    return math.copysign(float(math.floor(x)), x) if x == 0 else float(math.floor(x))


def _c_ceil(x: float) -> float:
    if not math.isfinite(x):
        return x
    result = float(math.ceil(x))
    return math.copysign(0.0, x) if result == 0 else result


def floor(a: Number) -> float:
    return _c_floor(float(a))


def ceil(a: Number) -> float:
    return _c_ceil(float(a))


def _round_helper(x: float) -> float:
    """php_round_helper, PHP_ROUND_HALF_UP."""
    return _c_floor(x + 0.5) if x >= 0.0 else _c_ceil(x - 0.5)


def _intpow10(power: int) -> float:
    return 10.0**power if 0 <= power <= 22 else _c_pow(10.0, float(power))


def round_(a: Number) -> float:
    """round($x) of PHP 8.2, which pre-rounds to 15 digits: round(2.4999999999999996) is 3."""
    if isinstance(a, int):
        return float(a)
    if not math.isfinite(a) or a == 0.0:
        return a
    precision_places = 14 - math.floor(math.log10(abs(a)))
    if 0 < precision_places < 15:
        scaled = _round_helper(a * _intpow10(precision_places))
        value = scaled / _intpow10(precision_places)
    else:
        value = a
        if abs(value) >= 1e15:
            return a
    return _round_helper(value)


def to_string(value: Number) -> str:
    """`(string)$x` with precision=14: `3.5`, `1.0E+14`, `-0`, `INF`, `NAN`."""
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        return "NAN"
    if math.isinf(value):
        return "INF" if value > 0 else "-INF"
    sign = "-" if math.copysign(1.0, value) < 0 else ""
    if value == 0.0:
        return sign + "0"
    mantissa, exponent = f"{abs(value):.13e}".split("e")
    digits = mantissa.replace(".", "").rstrip("0")
    point = int(exponent) + 1  # value = 0.DIGITS x 10**point
    if point < -3 or point > 14:
        e = point - 1
        return f"{sign}{digits[0]}.{digits[1:] or '0'}E{'+' if e >= 0 else '-'}{abs(e)}"
    if point <= 0:
        return f"{sign}0.{'0' * -point}{digits}"
    if point >= len(digits):
        return sign + digits + "0" * (point - len(digits))
    return f"{sign}{digits[:point]}.{digits[point:]}"


def _base_to_number(text: str, base: int) -> Number:
    """_php_math_basetozval: skip invalid characters; switch to a double on overflow."""
    cutoff, cutlim = divmod(INT_MAX, base)
    num, fnum, floating = 0, 0.0, False
    for ch in text:
        digit = int(ch, 36) if ch.isascii() and ch.isalnum() else base
        if digit >= base:
            continue
        if not floating:
            if num < cutoff or (num == cutoff and digit <= cutlim):
                num = num * base + digit
                continue
            fnum, floating = float(num), True
        fnum = fnum * base + digit
    return fnum if floating else num


def hexdec(a: Number) -> Number:
    return _base_to_number(to_string(a), 16)


def octdec(a: Number) -> Number:
    return _base_to_number(to_string(a), 8)


def bindec(a: Number) -> Number:
    return _base_to_number(to_string(a), 2)
