"""How earned achievements read: a summary's lines, the `/stats` field, the web page's rows.

Plain texts in the reader's language (no discord here): the Discord face and the web
pages put them where they go.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from bot.common import mention, timestamp
from bot.i18n import date_text, t
from bot.storage import Earned

FIELD_MAX = 1024
"""Discord's cap on a field's value: a long list is cut at a whole line."""


def name_of(earned: Earned, locale: str) -> str:
    return t(f"achievements.name.{earned.achievement.value}", locale)


def about_of(earned: Earned, locale: str) -> str:
    return t(f"achievements.about.{earned.achievement.value}", locale)


def summary_lines(earned: Sequence[Earned], locale: str, *, players: int) -> list[str]:
    """One line per achievement a game earned: a game of one player says "you", a game
    of two or more names who."""
    if players <= 1:
        return [
            t(
                "achievements.summary.own",
                locale,
                name=name_of(e, locale),
                about=about_of(e, locale),
            )
            for e in earned
        ]
    return [
        t(
            "achievements.summary.line",
            locale,
            player=mention(e.user_id),
            name=name_of(e, locale),
            about=about_of(e, locale),
        )
        for e in earned
    ]


def stats_field(held: Sequence[Earned], locale: str) -> tuple[str, str]:
    """`/stats`'s field: every achievement held, oldest first, within Discord's cap."""
    lines = [
        t(
            "achievements.stats.line",
            locale,
            name=name_of(e, locale),
            about=about_of(e, locale),
            when=timestamp(e.earned_at, "d"),
        )
        for e in held
    ] or [t("achievements.stats.none", locale)]
    value = ""
    for line in lines:
        if len(value) + len(line) + 1 > FIELD_MAX:
            break
        value = f"{value}\n{line}" if value else line
    return t("achievements.stats.title", locale), value


def web_rows(held: Sequence[Earned], locale: str) -> list[dict[str, str]]:
    """The web player page's rows: name, what it is for, the day it was earned."""
    return [
        {
            "name": name_of(e, locale),
            "about": about_of(e, locale),
            "when": date_text(datetime.fromtimestamp(e.earned_at, UTC).date(), locale),
        }
        for e in held
    ]
