"""What a puzzles' board covers, in the server's days: a window's first moment, and the
daily puzzle's day and its seal. Shared by the boards' faces (Discord's `/puzzles`, the
web's `/s/<key>/puzzles`), so both show the same rows."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, tzinfo

import rules
from bot.storage import BoardLine, PuzzleKind, Store

WINDOWS = {"day": timedelta(days=1), "week": timedelta(days=7), "all": None}
"""A board's windows, in the server's days: today, today and the 6 days before, all time."""


def server_day(now: float, zone: tzinfo) -> str:
    """The server's day (`period`) at `now`."""
    return rules.period_of(datetime.fromtimestamp(now, UTC), zone)


def window_since(window: str, now: float, zone: tzinfo) -> float:
    """The first moment of `window` (a key of `WINDOWS`; any other is all time) at `now`."""
    today = rules.period_end(server_day(now, zone), zone) - timedelta(days=1)
    span = WINDOWS.get(window)
    return 0.0 if span is None else (today - span + timedelta(days=1)).timestamp()


async def window_board(
    store: Store, guild_id: int, kind: PuzzleKind, window: str, now: float, zone: tzinfo
) -> list[BoardLine]:
    """Storm's or Streak's board of `window`: each player's best run started in it."""
    return await store.puzzles.board(guild_id, kind, window_since(window, now, zone))


async def day_board(
    store: Store, guild_id: int, period: str, now: float, zone: tzinfo
) -> tuple[list[BoardLine], rules.Seal | None]:
    """The daily puzzle's board of `period`, and its seal at `now` (`rules.seal`, like a
    Qualification's day): while sealed, a face shows how many played, not their grades."""
    lines = await store.puzzles.board(guild_id, PuzzleKind.DAILY, 0.0, period=period)
    running = await store.puzzles.unfinished(guild_id, PuzzleKind.DAILY, period, now)
    sealed = rules.seal(period, datetime.fromtimestamp(now, UTC), still_played=running > 0,
                        tz=zone)  # fmt: skip
    return lines, sealed


def previous_day(period: str) -> str:
    """The day before `period` (`2026-12-07` → `2026-12-06`)."""
    return (datetime.fromisoformat(period) - timedelta(days=1)).date().isoformat()
