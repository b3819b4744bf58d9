"""Every date a player reads, as their language writes it (Babel's long date).

A day reads «1 січня 2026 р.» / "January 1, 2026"; a moment adds its time and zone
(«1 січня 2026 р., 14:05 UTC»). A `date` passed to `t()` is written so by the catalog,
so no message shows an ISO date inside a sentence.
"""

from __future__ import annotations

from datetime import date, datetime

from babel import Locale
from babel.dates import format_date, format_time


def date_text(value: date, language: str) -> str:
    """`value` in `language`: a day, or a moment (a `datetime`) with its time and zone."""
    day = format_date(value, "long", locale=language)
    if not isinstance(value, datetime):
        return day
    time = format_time(value, "short", tzinfo=value.tzinfo, locale=language)
    moment = str(Locale.parse(language).datetime_formats["long"]).format(time, day)
    zone = value.tzname() if value.tzinfo is not None else None
    return f"{moment} {zone}" if zone else moment


def day_of(period: str) -> date:
    """A period's day (`2026-01-01`) as the date it names."""
    return date.fromisoformat(period)
