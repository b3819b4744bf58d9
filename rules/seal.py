"""The Qualification seal: when a period's Digits, formulas and best answers may be shown.

Everyone of a server plays the same Digits for a Set in a period, so nothing of them is
public while anyone may still be playing them: until the period ends, and after that
until the last game started in it has ended, however long its Set lets it run (a game
started at 23:50 of a 50-round Set of 600 s keeps its day sealed until past 08:00).
There is no grace period: a game is either still being played or it is not. Every view
that shows a Qualification's Digits (a replay, the daily post) asks `seal`.

The seal is asked of the competition window (`rules.window`): a server's day, or an
event with a start and an end (a Cup), through `seal_of`; `seal` reads a stored
period as the server's day it names.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from enum import Enum

from rules.window import ServerDay, Window


class SealReason(Enum):
    """Why a period is still sealed."""

    PERIOD_RUNS = "period_runs"
    """The period has not ended: its Qualification is open."""
    GAMES_RUNNING = "games_running"
    """The period has ended, but a game started in it is still being played."""


@dataclass(frozen=True)
class Seal:
    """A window still sealed: why, and when the window ends (or ended)."""

    reason: SealReason
    ends: datetime


def seal(period: str, now: datetime, *, still_played: bool, tz: tzinfo = UTC) -> Seal | None:
    """The seal on `period` (a day in the server's timezone `tz`) at `now`, or None when
    its Digits and answers may be shown. `still_played`: whether a game of that period
    (the same server and Set) has not ended yet."""
    return seal_of(ServerDay(period, tz), now, still_played=still_played)


def seal_of(window: Window, now: datetime, *, still_played: bool) -> Seal | None:
    """The seal on `window` at `now`: sealed while it runs, and after it while a game
    played in it goes on; None when its Digits and answers may be shown."""
    if now < window.end:
        return Seal(SealReason.PERIOD_RUNS, window.end)
    if still_played:
        return Seal(SealReason.GAMES_RUNNING, window.end)
    return None
