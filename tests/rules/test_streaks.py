"""Streaks from hand-made tables of periods: what breaks one and what does not."""

from __future__ import annotations

from datetime import date

import pytest

from rules import Streak, streak

TODAY = "2026-12-10"


@pytest.mark.parametrize(
    ("periods", "expected"),
    [
        ([], Streak(0, 0)),
        (["2026-12-10"], Streak(1, 1)),
        # today not played yet: yesterday's streak is still current until the day ends
        (["2026-12-07", "2026-12-08", "2026-12-09"], Streak(3, 3)),
        (["2026-12-08", "2026-12-09", "2026-12-10"], Streak(3, 3)),
        # a whole day missed (the 9th) breaks it
        (["2026-12-06", "2026-12-07", "2026-12-08"], Streak(0, 3)),
        # a gap in the middle: the run after it is current, the longer one before it longest
        (["2026-12-01", "2026-12-02", "2026-12-03", "2026-12-04", "2026-12-09"], Streak(1, 4)),
        # repeats (two Qualifications in one day) and any order count once
        (["2026-12-10", "2026-12-09", "2026-12-10", "2026-12-09"], Streak(2, 2)),
        # across a month and a year end
        (["2025-12-31", "2026-01-01", "2026-01-02"], Streak(0, 3)),
        (["2026-11-30", "2026-12-01"], Streak(0, 2)),
    ],
)
def test_streak_table(periods: list[str], expected: Streak) -> None:
    assert streak(periods, TODAY) == expected


def test_dates_from_any_timezone_are_days_one_apart() -> None:
    """A server in UTC+14 is on the 11th while UTC is on the 10th: its own days count."""
    days = [date(2026, 12, 9), date(2026, 12, 10), date(2026, 12, 11)]
    assert streak(days, date(2026, 12, 11)) == Streak(3, 3)
    assert streak(days, date(2026, 12, 12)) == Streak(3, 3)
    assert streak(days, date(2026, 12, 13)) == Streak(0, 3)


def test_a_period_after_today_counts_for_the_longest_only() -> None:
    assert streak(["2026-12-11", "2026-12-12"], TODAY) == Streak(0, 2)
