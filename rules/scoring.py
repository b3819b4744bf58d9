"""Points and Score in the Set's language's arithmetic, so a game replays identically in it.

`apply_points` asks the language (`rules.languages.LanguageRules`, here only its four
steps: `Arithmetic`) for every step. PHP's steps are the php_* functions below: PHP
ints are 64-bit and turn into doubles when an operation overflows; Python ints never
overflow, so every step checks the range and falls back to float arithmetic exactly
where PHP would. JavaScript's are IEEE doubles throughout.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
from typing import Protocol

Number = int | float
"""A PHP number: Python int for PHP int (always in 64-bit range), float for PHP float."""

INT_MAX = 2**63 - 1
INT_MIN = -(2**63)


def _fits(value: int) -> bool:
    return INT_MIN <= value <= INT_MAX


def php_sub(a: Number, b: Number) -> Number:
    """`a - b` in PHP: int when both are ints and the difference fits, else double."""
    if isinstance(a, int) and isinstance(b, int):
        exact = a - b
        return exact if _fits(exact) else float(a) - float(b)
    return float(a) - float(b)


def php_add(a: Number, b: Number) -> Number:
    """`a + b` in PHP."""
    if isinstance(a, int) and isinstance(b, int):
        exact = a + b
        return exact if _fits(exact) else float(a) + float(b)
    return float(a) + float(b)


def php_abs(a: Number) -> Number:
    """`abs(a)` in PHP: abs(PHP_INT_MIN) is the only int that becomes a double."""
    if isinstance(a, int):
        return -float(a) if a == INT_MIN else abs(a)
    return abs(a)


def php_equal(a: Number, b: Number) -> bool:
    """`a == b` in PHP 8 for numbers: an int against a double compares as doubles."""
    if isinstance(a, int) and isinstance(b, int):
        return a == b
    return float(a) == float(b)


class Arithmetic(Protocol):
    """The steps of scoring as a language computes them (its `LanguageRules`)."""

    def sub(self, a: Number, b: Number) -> Number: ...

    def add(self, a: Number, b: Number) -> Number: ...

    def abs(self, a: Number) -> Number: ...

    def equal(self, a: Number, b: Number) -> bool: ...


def round_points(result: Number, goal: int, bonus: int, *, numbers: Arithmetic) -> Number:
    """points = |goal - |result - goal||, plus the bonus when points == goal."""
    points = numbers.abs(numbers.sub(goal, numbers.abs(numbers.sub(result, goal))))
    if numbers.equal(points, goal):
        points = numbers.add(points, bonus)
    return points


def apply_points(
    score: Number, result: Number, goal: int, bonus: int, *, numbers: Arithmetic
) -> tuple[Number, Number]:
    """The round's points and the new score = |score - points|, in `numbers`' arithmetic
    (the Set's language: required, so no caller scores a JavaScript Set as PHP)."""
    points = round_points(result, goal, bonus, numbers=numbers)
    return points, numbers.abs(numbers.sub(score, points))


def is_zero(score: Number) -> bool:
    """Checkout test: PHP's `$score == 0` and JavaScript's `score === 0` alike (0, 0.0
    and -0.0), so it needs no language."""
    return php_equal(score, 0)


def php_text(value: Number, *, zero_fraction: bool = True) -> str:
    """A number as PHP prints it with serialize_precision/precision = -1.

    Players see a Result the way PHP shows it: the digits are the shortest
    that read back to the same double (Python's repr and PHP agree on those),
    and PHP switches to exponent form when the decimal point is more than 17
    places right or more than 3 places left of the first digit (`1.0E+25`,
    `-2.5E-5`). With `zero_fraction` (var_export) a whole double keeps its
    `.0` (`100.0`); without it (echo) it reads like an int (`100`).
    """
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        return "NAN"
    if math.isinf(value):
        return "INF" if value > 0 else "-INF"
    sign = "-" if math.copysign(1.0, value) < 0 else ""
    whole_suffix = ".0" if zero_fraction else ""
    if value == 0:
        return f"{sign}0{whole_suffix}"
    _, digit_tuple, exponent = Decimal(repr(abs(value))).as_tuple()
    digits = "".join(map(str, digit_tuple)).rstrip("0") or "0"
    assert isinstance(exponent, int)
    point = len(digit_tuple) + exponent  # value = 0.DIGITS x 10**point
    if point < -3 or point > 17:
        e = point - 1
        return f"{sign}{digits[0]}.{digits[1:] or '0'}E{'+' if e >= 0 else '-'}{abs(e)}"
    if point <= 0:
        return f"{sign}0.{'0' * -point}{digits}"
    if point >= len(digits):
        return f"{sign}{digits}{'0' * (point - len(digits))}{whole_suffix}"
    return f"{sign}{digits[:point]}.{digits[point:]}"


_REPR = re.compile(r"(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?")


def js_text(value: float) -> str:
    """`String(value)` as JavaScript computes it (ECMA-262 Number::toString, radix 10).

    Python's repr gives the same shortest round-trip digits; only the layout
    differs: integers without `.0`, exponents from 1e21 up and below 1e-6, `e+`. (Here,
    below the evaluator and the solver, so both show a JavaScript Set's numbers.)
    """
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "0"
    match = _REPR.fullmatch(repr(float(value)))
    assert match is not None
    sign, whole, fraction, exponent = match.groups()
    digits = (whole + (fraction or "")).lstrip("0")
    point = len(whole.lstrip("0")) if whole.strip("0") else -(len(fraction or "") - len(digits))
    point += int(exponent or 0)
    digits = digits.rstrip("0")
    k, n = len(digits), point
    if k <= n <= 21:
        text = digits + "0" * (n - k)
    elif 0 < n <= 21:
        text = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        text = "0." + "0" * -n + digits
    else:
        e = n - 1
        mantissa = digits if k == 1 else digits[0] + "." + digits[1:]
        text = f"{mantissa}e{'+' if e >= 0 else '-'}{abs(e)}"
    return sign + text
