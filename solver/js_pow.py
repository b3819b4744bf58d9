"""`**` (and `Math.pow`) as node computes it: the exact cases in numpy, the rest from node.

V8's `**` is its port of fdlibm's `pow`, which differs from the C library's in the last bit
for about one fractional input in eleven (node_math.py), so the general case stays with node.
But most of what the solver's tables raise is not general: a single digit's table holds
±1 and NaN (Math.sign), so `1 ** y`, `(-1) ** y`, `NaN ** y`, `y ** 1`, `y ** -1` and
`y ** NaN` are a third of a cold solve's `**` pairs, each a round trip to node's process.
Here numpy answers, bit for bit:
- what ECMAScript fixes (Number::exponentiate): a NaN or ±0 exponent, a NaN base, a ±0 or
  ±Infinity base, a ±Infinity exponent, a negative base with a fractional exponent;
- what is mathematically exact and fdlibm returns exactly: a base of 1, a base of -1 with a
  whole exponent, an exponent of 1 (x itself), -1 (1/x, one correctly rounded division)
  and 2 (x * x, one correctly rounded product).
tests/solver/test_solver_js_pow.py checks every rule against real node over millions of
pairs (random bits, the tables' values, every special value against every other); only
the pairs none of them decides are sent to node.
"""

from __future__ import annotations

import numpy as np

from solver.column import Bools, Floats, quiet
from solver.node_math import NODE_MATH


@quiet
def _odd_whole(y: Floats) -> Bools:
    """Whether each y is an odd whole number (only finite doubles below 2^53 can be)."""
    whole = np.isfinite(y) & (np.trunc(y) == y) & (np.abs(y) < 2.0**53)
    odd: Bools = whole & (np.fmod(np.where(whole, y, 0.0), 2.0) != 0)
    return odd


@quiet
def decided(x: Floats, y: Floats) -> tuple[Bools, Floats]:
    """Which pairs numpy answers exactly, and those answers (the other entries unused)."""
    out = np.full(len(x), np.nan)
    done = np.zeros(len(x), np.bool_)

    def rule(where: Bools, value: Floats | float) -> None:
        new = where & ~done
        out[new] = (np.broadcast_to(value, x.shape))[new]
        done[new] = True

    odd = _odd_whole(y)
    whole = np.isfinite(y) & (np.trunc(y) == y)
    negative_zero = (x == 0) & np.signbit(x)
    rule(np.isnan(y), np.nan)
    rule(y == 0, 1.0)
    rule(np.isnan(x), np.nan)
    # a ±Infinity exponent: |x| against 1 (|x| == 1 is NaN in JavaScript, not C's 1)
    big, small = np.abs(x) > 1, np.abs(x) < 1
    rule(y == np.inf, np.where(big, np.inf, np.where(small, 0.0, np.nan)))
    rule(y == -np.inf, np.where(big, 0.0, np.where(small, np.inf, np.nan)))
    # ±Infinity and ±0 bases: the sign only from a negative base and an odd exponent
    negative_odd = odd & ((x < 0) | negative_zero)
    rule(np.isinf(x) & (y > 0), np.where(negative_odd, -np.inf, np.inf))
    rule(np.isinf(x) & (y < 0), np.where(negative_odd, -0.0, 0.0))
    rule((x == 0) & (y > 0), np.where(negative_odd, -0.0, 0.0))
    rule((x == 0) & (y < 0), np.where(negative_odd, -np.inf, np.inf))
    rule((x < 0) & ~whole, np.nan)
    # exact by arithmetic, and fdlibm's answers
    rule(x == 1, 1.0)
    rule(x == -1, np.where(odd, -1.0, 1.0))
    rule(y == 1, x)
    rule(y == -1, 1.0 / x)
    rule(y == 2, x * x)
    return done, out


def js_pow(x: Floats, y: Floats) -> Floats:
    """`x ** y` elementwise as node computes it; node asked only for what `decided` leaves."""
    x, y = np.asarray(x, np.float64), np.asarray(y, np.float64)
    done, out = decided(x, y)
    rest = np.flatnonzero(~done)
    if len(rest):
        out[rest] = NODE_MATH.pow(x[rest], y[rest])
    return out
