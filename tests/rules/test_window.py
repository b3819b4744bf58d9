"""Competition windows: a server's day and an event with a start and an end, and the
seal asked of either."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from rules.seal import SealReason, seal, seal_of
from rules.window import Event, ServerDay, WindowError

KYIV = ZoneInfo("Europe/Kyiv")
START = datetime(2026, 12, 10, 18, 0, tzinfo=UTC)


def test_a_servers_day_runs_from_its_local_midnight_to_the_next() -> None:
    day = ServerDay("2026-12-07", KYIV)
    assert day.key == "2026-12-07"
    assert day.start == datetime(2026, 12, 6, 22, 0, tzinfo=UTC)
    assert day.end == datetime(2026, 12, 7, 22, 0, tzinfo=UTC)
    assert day.contains(day.start) and not day.contains(day.end)
    assert day.contains(day.end - timedelta(microseconds=1))
    assert ServerDay.at(day.start, KYIV) == day


def test_an_event_runs_from_its_start_to_its_end() -> None:
    cup = Event.between("cup-2026-12", START, START + timedelta(hours=2))
    assert cup.key == "cup-2026-12"
    assert cup.contains(START) and cup.contains(START + timedelta(minutes=119))
    assert not cup.contains(START + timedelta(hours=2))
    assert not cup.contains(START - timedelta(seconds=1))
    local = Event.between("c", START.astimezone(KYIV), START.astimezone(KYIV) + timedelta(1))
    assert local.start == START and local.start.tzinfo is UTC


@pytest.mark.parametrize(
    ("key", "start", "end", "says"),
    [
        ("cup", START, START, "ends after it starts"),
        ("cup", START, START - timedelta(hours=1), "ends after it starts"),
        ("cup", START.replace(tzinfo=None), START + timedelta(hours=1), "time zone"),
        ("", START, START + timedelta(hours=1), "key"),
        ("x" * 17, START, START + timedelta(hours=1), "key"),
    ],
)
def test_an_event_that_cannot_be_is_refused(
    key: str, start: datetime, end: datetime, says: str
) -> None:
    with pytest.raises(WindowError, match=says):
        Event.between(key, start, end)


def test_the_seal_is_asked_of_the_window() -> None:
    cup = Event.between("cup", START, START + timedelta(hours=2))
    during = START + timedelta(hours=1)
    after = START + timedelta(hours=3)
    assert seal_of(cup, during, still_played=False).reason is SealReason.PERIOD_RUNS  # type: ignore[union-attr]
    assert seal_of(cup, after, still_played=True).reason is SealReason.GAMES_RUNNING  # type: ignore[union-attr]
    assert seal_of(cup, after, still_played=False) is None
    day = ServerDay("2026-12-07", KYIV)
    moment = datetime(2026, 12, 7, 21, 0, tzinfo=UTC)
    assert seal("2026-12-07", moment, still_played=False, tz=KYIV) == seal_of(
        day, moment, still_played=False
    )
