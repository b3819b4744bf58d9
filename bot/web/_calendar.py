"""A player's streak calendar: the last weeks as a grid of days (a column a week, Monday
on top), a day with a finished Qualification filled. Inline SVG of a few hundred bytes,
built as text (no drawing: cheap enough for the pages' loop), each day titled with its
date in the reader's language and the whole labelled with its count for a screen reader.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import date, timedelta
from functools import lru_cache

from babel.dates import format_date
from markupsafe import Markup, escape

from bot.i18n import date_text, normalize_locale, t

WEEKS = 17
CELL, PITCH = 14, 17
LEFT, TOP = 30, 16
"""Room for the weekday labels on the left and the months' on top (SVG units, ~px)."""


def streak_calendar(today: str, days: Collection[str], lang: str) -> Markup:
    """The WEEKS weeks up to `today` (a period); `days`: those with a finished
    Qualification (others are ignored). Plain f-strings, every text escaped: markupsafe's
    `Markup.format` made it ~9 ms a page."""
    last = date.fromisoformat(today)
    first = last - timedelta(days=last.weekday() + 7 * (WEEKS - 1))
    shown = {d for d in days if first.isoformat() <= d <= today}
    language = normalize_locale(lang)
    width, height = LEFT + WEEKS * PITCH, TOP + 7 * PITCH
    label = escape(t("details.calendar.label", lang, days=len(shown), weeks=WEEKS))
    parts = [
        f'<svg class="cal" viewBox="0 0 {width} {height}" width="{width}" height="{height}"'
        f' role="img" aria-label="{label}">'
    ]
    for row in (0, 2, 4):  # Monday, Wednesday, Friday
        name = escape(_named(first + timedelta(days=row), "EEE", language))
        parts.append(f'<text x="0" y="{TOP + row * PITCH + CELL - 3}">{name}</text>')
    month = None
    for week in range(WEEKS):
        monday = first + timedelta(weeks=week)
        x = LEFT + week * PITCH
        if monday.month != month and week < WEEKS - 1:
            month = monday.month
            parts.append(f'<text x="{x}" y="11">{escape(_named(monday, "LLL", language))}</text>')
        for row in range(7):
            day = monday + timedelta(days=row)
            if day > last:
                break
            kind = "on" if day.isoformat() in shown else "off"
            parts.append(
                f'<rect class="{kind}" x="{x}" y="{TOP + row * PITCH}" width="{CELL}"'
                f' height="{CELL}" rx="3"><title>{_day_title(day, lang)}</title></rect>'
            )
    parts.append(f'</svg><p class="note">{label}</p>')
    return Markup("".join(parts))  # noqa: S704 - numbers and escaped texts only


@lru_cache(maxsize=1024)
def _day_title(day: date, lang: str) -> str:
    """A day as the reader's language writes it, escaped: the same few hundred days for
    every player's page, so babel formats each once (119 of them took ~15 ms a page)."""
    return str(escape(date_text(day, lang)))


@lru_cache(maxsize=256)
def _named(day: date, pattern: str, language: str) -> str:
    return format_date(day, pattern, locale=language)
