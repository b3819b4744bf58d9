"""A player's streak calendar: the last weeks as a grid of days (a column a week, Monday
on top), a day with a finished Qualification filled. Inline SVG of a few hundred bytes,
built as text (no drawing: cheap enough for the pages' loop), each day titled with its
date in the reader's language and the whole labelled with its count for a screen reader.
"""

from __future__ import annotations

from collections.abc import Collection
from datetime import date, timedelta

from babel.dates import format_date
from markupsafe import Markup, escape

from bot.i18n import date_text, normalize_locale, t

WEEKS = 17
CELL, PITCH = 14, 17
LEFT, TOP = 30, 16
"""Room for the weekday labels on the left and the months' on top (SVG units, ~px)."""


def streak_calendar(today: str, days: Collection[str], lang: str) -> Markup:
    """The WEEKS weeks up to `today` (a period); `days`: those with a finished
    Qualification (others are ignored)."""
    last = date.fromisoformat(today)
    first = last - timedelta(days=last.weekday() + 7 * (WEEKS - 1))
    shown = sorted(d for d in set(days) if first.isoformat() <= d <= today)
    language = normalize_locale(lang)
    width, height = LEFT + WEEKS * PITCH, TOP + 7 * PITCH
    label = t("details.calendar.label", lang, days=len(shown), weeks=WEEKS)
    parts = [
        Markup(
            '<svg class="cal" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img"'
            ' aria-label="{label}">'
        ).format(w=width, h=height, label=label)
    ]
    for row in (0, 2, 4):  # Monday, Wednesday, Friday
        name = format_date(first + timedelta(days=row), "EEE", locale=language)
        y = TOP + row * PITCH + CELL - 3
        parts.append(Markup('<text x="0" y="{}">{}</text>').format(y, name))
    month = None
    for week in range(WEEKS):
        monday = first + timedelta(weeks=week)
        x = LEFT + week * PITCH
        if monday.month != month and week < WEEKS - 1:
            month = monday.month
            name = format_date(monday, "LLL", locale=language)
            parts.append(Markup('<text x="{}" y="11">{}</text>').format(x, name))
        for row in range(7):
            day = monday + timedelta(days=row)
            if day > last:
                break
            played = day.isoformat() in shown
            parts.append(
                Markup(
                    '<rect class="{cls}" x="{x}" y="{y}" width="{c}" height="{c}" rx="3">'
                    "<title>{title}</title></rect>"
                ).format(
                    cls="on" if played else "off",
                    x=x,
                    y=TOP + row * PITCH,
                    c=CELL,
                    title=date_text(day, lang),
                )
            )
    parts.append(Markup("</svg>"))
    return Markup("").join(parts) + Markup('<p class="note">{}</p>').format(escape(label))
