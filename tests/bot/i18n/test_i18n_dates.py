"""Every date a player reads is written as their language writes dates, not as ISO."""

from __future__ import annotations

from datetime import UTC, date, datetime

from bot.i18n import date_text, t


def test_a_day_and_a_moment_in_each_language() -> None:
    assert date_text(date(2026, 1, 1), "uk") == "1 січня 2026\u202fр."
    assert date_text(date(2026, 1, 1), "en") == "January 1, 2026"
    moment = datetime(2026, 1, 1, 14, 5, tzinfo=UTC)
    assert date_text(moment, "uk") == "1 січня 2026\u202fр., 14:05 UTC"
    assert date_text(moment, "en") == "January 1, 2026, 2:05\u202fPM UTC"


def test_a_date_in_a_message_reads_as_a_date() -> None:
    text = t("daily.title", "uk", set="darts", period=date(2026, 1, 1))
    assert text == "Кваліфікація · darts · 1 січня 2026\u202fр.: підсумкова таблиця"
