"""What a search minimises: the distance of the new Score to an aim, or of the Result to a target.

Each objective also gives, for a bound D, numeric intervals of Results that
contain every Result scoring at most D (a little wider, never narrower), and
the points where it changes slope, so the search looks only near them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from solver import values as V
from solver.php import Number

Intervals = tuple[V.Floats, V.Floats]


def widen(lo: V.Floats, hi: V.Floats, absolute: float = 1e-9) -> Intervals:
    """Grow intervals by far more than any rounding of the arithmetic that maps them: 1e-9
    of their ends, and `absolute` (for ends near 0 computed from larger numbers)."""
    with np.errstate(invalid="ignore", over="ignore"):
        # each end scaled before the sum: |lo| + |hi| overflows to INF near the largest
        # double (a Score of 1e308), which made every interval the whole line
        slack = np.where(
            np.isfinite(lo) & np.isfinite(hi),
            np.abs(lo) * 1e-9 + np.abs(hi) * 1e-9 + absolute,
            0,
        )
        return lo - slack, hi + slack


class Objective(Protocol):
    def score(self, result: V.Values) -> V.Floats:
        """The quantity to minimise for each Result (NaN for a Result that is not finite)."""
        ...

    def sublevel(self, bound: float) -> Intervals:
        """Intervals holding every finite Result whose score is at most `bound`."""
        ...

    def least(self) -> float:
        """A score no Result goes below (0, or more when the arithmetic forbids it)."""
        ...


def _const(n: int, value: Number) -> V.Values:
    if isinstance(value, int):
        return V.of_ints(np.full(n, value, np.int64))
    return V.of_floats(np.full(n, value, np.float64))


def _abs(a: V.Values) -> V.Values:
    return V.php_abs(a)


def _equal(a: V.Values, b: Number) -> V.Bools:
    same: V.Bools = np.where(a.isint, a.i == b, a.f == float(b)) if isinstance(b, int) else a.f == b
    return same


@dataclass(frozen=True, slots=True)
class NewScore:
    """|new Score - aim|: aim 0 asks for the best answer, a larger aim for a weaker one."""

    score_before: Number
    goal: int
    bonus: int
    aim: int = 0

    def points_and_score(self, result: V.Values) -> tuple[V.Values, V.Values]:
        """rules.scoring.apply_points, column-wise with the same PHP arithmetic."""
        n = len(result)
        goal = _const(n, self.goal)
        off, _ = V.sub(result, goal)
        near, _ = V.sub(goal, _abs(off))
        points = _abs(near)
        bonus_due = _equal(points, self.goal)
        with_bonus, _ = V.add(points, _const(n, self.bonus))
        points = V.Values(
            np.where(bonus_due, with_bonus.isint, points.isint),
            np.where(bonus_due, with_bonus.i, points.i),
            np.where(bonus_due, with_bonus.f, points.f),
        )
        left, _ = V.sub(_const(n, self.score_before), points)
        return points, _abs(left)

    def score(self, result: V.Values) -> V.Floats:
        _, new_score = self.points_and_score(result)
        out = np.abs(new_score.f - float(self.aim))
        return np.where(V.is_finite(result), out, np.nan)

    def least(self) -> float:
        """Points are 0 or at least the spacing of doubles near Goal/2: `Goal - |r - Goal|`
        is exact and a multiple of it where |r - Goal| is within [Goal/2, 2 Goal], and
        larger elsewhere. So below half of it (about 7e-15 in darts) no Result leaves less
        than the Score itself, and every formula giving 0 points is as good as the best."""
        spacing = math.ulp(self.goal / 2) if self.goal > 0 else 0.0
        s = float(self.score_before)
        if self.aim != 0 or s >= spacing:
            return 0.0
        return min(s, spacing - s)

    def sublevel(self, bound: float) -> Intervals:
        s, g, q = float(self.score_before), float(self.goal), float(self.aim)
        low_ns, high_ns = max(0.0, q - bound), q + bound
        point_ranges = [(s - high_ns, s - low_ns), (s + low_ns, s + high_ns)]
        los: list[float] = []
        his: list[float] = []
        for low, v in point_ranges:
            u = max(low, 0.0)
            if v < u:
                continue
            # points(r) = |r| for r <= G, |r - 2G| for r >= G (then the bonus at points == G)
            for a, b in (
                (-v, -u),
                (u, min(v, g)),
                (max(2 * g - v, g), 2 * g - u),
                (2 * g + u, 2 * g + v),
            ):
                if a <= b:
                    los.append(a)
                    his.append(b)
            if u <= g + self.bonus <= v:
                for r in (-g, g, 3 * g):
                    los.append(r)
                    his.append(r)
        # points are |Goal - |r - Goal||, plus the Bonus: a few roundings at the scale of
        # 3 Goal + Bonus. An absolute 1e-9 took every Result near 0 in for a Score below
        # 1e-9, and every x of [0, 1) with it (Math.floor around them): 20 s a query
        scale = 3 * g + abs(self.bonus) + abs(s) + q
        return widen(np.array(los, np.float64), np.array(his, np.float64), 16 * math.ulp(scale))


@dataclass(frozen=True, slots=True)
class Distance:
    """|Result - target|: the formula closest to the Goal."""

    target: int

    def score(self, result: V.Values) -> V.Floats:
        off, _ = V.sub(result, _const(len(result), self.target))
        out = np.abs(off.f)
        return np.where(V.is_finite(result), out, np.nan)

    def least(self) -> float:
        return 0.0

    def sublevel(self, bound: float) -> Intervals:
        t = float(self.target)
        return widen(np.array([t - bound]), np.array([t + bound]))


def is_whole(value: float) -> bool:
    return math.isfinite(value) and value == math.floor(value)
