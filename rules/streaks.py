"""Streaks: how many Qualification periods in a row a player finished a game of a Set.

A pure function of the periods a player finished in (checkout or all rounds
played; the store leaves out voided and lost games) and the current period. A
period is a calendar day in whatever zone the caller counts days (UTC today, a
server's zone later): two periods are consecutive when their dates are one day
apart, so the same list works from any timezone.

The current streak survives a period not yet played: until today ends, a player
who played yesterday still has yesterday's streak; a whole day missed ends it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta

ONE_DAY = timedelta(days=1)


@dataclass(frozen=True, slots=True)
class Streak:
    current: int
    """Periods in a row ending today, or yesterday when today is not played yet."""
    longest: int
    """The longest run of periods in a row ever (at least `current`)."""


def _day(period: date | str) -> date:
    return period if isinstance(period, date) else date.fromisoformat(period)


def streak(periods: Iterable[date | str], today: date | str) -> Streak:
    """The current and the longest streak; `periods` in any order, repeats allowed.

    Periods after `today` (a clock behind another process's) count for the
    longest streak only.
    """
    days = sorted({_day(p) for p in periods})
    now = _day(today)
    longest = run = 0
    previous: date | None = None
    ends: dict[date, int] = {}
    for day in days:
        run = run + 1 if previous is not None and day - previous == ONE_DAY else 1
        ends[day] = run
        longest = max(longest, run)
        previous = day
    current = ends.get(now) or ends.get(now - ONE_DAY) or 0
    return Streak(current, longest)
