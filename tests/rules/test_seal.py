"""The Qualification seal: a period's answers stay secret until it ends, and past its end
while any game of it is still being played, however long (no grace period)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

import rules
from rules import SealReason

DAY = "2026-01-01"
MIDNIGHT = datetime(2026, 1, 2, tzinfo=UTC)


@pytest.mark.parametrize(
    ("now", "still_played", "expected"),
    [
        (MIDNIGHT - timedelta(minutes=10), False, SealReason.PERIOD_RUNS),
        (MIDNIGHT - timedelta(minutes=10), True, SealReason.PERIOD_RUNS),
        (MIDNIGHT, False, None),
        (MIDNIGHT, True, SealReason.GAMES_RUNNING),
        (MIDNIGHT + timedelta(hours=1, minutes=2), True, SealReason.GAMES_RUNNING),
        # a 50-round Set of 600 s started at 23:50 runs until past 08:00
        (MIDNIGHT + timedelta(hours=8), True, SealReason.GAMES_RUNNING),
        (MIDNIGHT + timedelta(days=3), True, SealReason.GAMES_RUNNING),
        (MIDNIGHT + timedelta(hours=8), False, None),
    ],
)
def test_a_period_is_sealed_until_it_ends_and_its_last_game_ends(
    now: datetime, still_played: bool, expected: SealReason | None
) -> None:
    found = rules.seal(DAY, now, still_played=still_played)
    assert (None if found is None else found.reason) is expected
    if found is not None:
        assert found.ends == MIDNIGHT


def test_the_period_is_a_day_of_the_servers_timezone() -> None:
    kyiv = ZoneInfo("Europe/Kyiv")  # UTC+2 in winter: its day ends at 22:00 UTC
    ends = datetime(2026, 1, 1, 22, tzinfo=UTC)
    before = rules.seal(DAY, ends - timedelta(seconds=1), still_played=False, tz=kyiv)
    assert before is not None and before.reason is SealReason.PERIOD_RUNS and before.ends == ends
    assert rules.seal(DAY, ends, still_played=False, tz=kyiv) is None
