"""Points and Score with PHP's number rules, so a game replays identically in PHP.

PHP ints are 64-bit and turn into doubles when an operation overflows; Python
ints never overflow, so every step here checks the range and falls back to
float arithmetic exactly where PHP would.
"""

from __future__ import annotations

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


def round_points(result: Number, goal: int, bonus: int) -> Number:
    """points = |goal - |result - goal||, plus the bonus when points == goal."""
    points = php_abs(php_sub(goal, php_abs(php_sub(result, goal))))
    if php_equal(points, goal):
        points = php_add(points, bonus)
    return points


def apply_points(score: Number, result: Number, goal: int, bonus: int) -> tuple[Number, Number]:
    """The round's points and the new score = |score - points|."""
    points = round_points(result, goal, bonus)
    return points, php_abs(php_sub(score, points))


def is_zero(score: Number) -> bool:
    """Checkout test: PHP's `$score == 0` (0 and 0.0 alike)."""
    return php_equal(score, 0)
