"""Competition windows: when the games that compete with each other are played.

A Qualification's window is a server's day (its time zone's calendar date: `ServerDay`);
a Cup's is an event with a start and an end (`Event`). Every window has a `key`, stored
with each game played in it (`games.period`), a `start` and an `end`; what may be shown
of it and when (the seal, `rules.seal`) is asked of the window, never of a date.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from typing import Protocol

from rules.digits import period_end, period_of

MAX_KEY = 16
"""`games.period` holds 16 characters: a window's key fits it."""


class WindowError(ValueError):
    """A window that cannot be: an end before its start, a naive time, a long key."""


class Window(Protocol):
    """A competition window: games compete with the others of the same window."""

    @property
    def key(self) -> str:
        """Its name among the windows, stored with each game played in it."""
        ...

    @property
    def start(self) -> datetime: ...

    @property
    def end(self) -> datetime:
        """The first moment after it (aware, UTC)."""
        ...

    def contains(self, moment: datetime) -> bool: ...


def _aware(moment: datetime, what: str) -> datetime:
    if moment.tzinfo is None:
        raise WindowError(f"{what} has no time zone: a window's moments are aware")
    return moment.astimezone(UTC)


@dataclass(frozen=True)
class ServerDay:
    """A server's day: its local date in its time zone (UTC unless an admin set one),
    from local midnight to the next (a DST jump moves the end, as `period_end` says)."""

    date: str
    """The local date, YYYY-MM-DD: the window's key, as periods were always stored."""
    tz: tzinfo = UTC

    @classmethod
    def at(cls, moment: datetime, tz: tzinfo = UTC) -> ServerDay:
        """The server's day holding `moment`."""
        return cls(period_of(_aware(moment, "the moment"), tz), tz)

    @property
    def key(self) -> str:
        return self.date

    @property
    def end(self) -> datetime:
        return period_end(self.date, self.tz)

    @property
    def start(self) -> datetime:
        day = datetime.strptime(self.date, "%Y-%m-%d")
        return period_end((day - timedelta(days=1)).strftime("%Y-%m-%d"), self.tz)

    def contains(self, moment: datetime) -> bool:
        return period_of(_aware(moment, "the moment"), self.tz) == self.date


@dataclass(frozen=True)
class Event:
    """An event with a start and an end (a Cup): its games compete from `start` until
    `end`, whatever the servers' days. Built with `Event.between`, which checks it."""

    key: str
    start: datetime
    end: datetime

    @classmethod
    def between(cls, key: str, start: datetime, end: datetime) -> Event:
        """The event `key` running from `start` (included) to `end` (excluded); both
        aware moments, the end after the start, the key short enough to store."""
        if not key or len(key) > MAX_KEY:
            raise WindowError(f"an event's key is 1 to {MAX_KEY} characters: {key!r}")
        begins, ends = _aware(start, "the start"), _aware(end, "the end")
        if ends <= begins:
            raise WindowError("an event ends after it starts")
        return cls(key, begins, ends)

    def contains(self, moment: datetime) -> bool:
        return self.start <= _aware(moment, "the moment") < self.end
