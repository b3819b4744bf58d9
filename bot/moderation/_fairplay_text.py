"""The words of `/admin fairplay`: a `FairPlayReport` as a moderator reads it, in their
language. Plain numbers with what they are measured against, and said to be signals for
a person to weigh, not a verdict (a strong player stands out as well)."""

from __future__ import annotations

from bot.i18n import t
from bot.moderation._fairplay import MIN_ROUNDS, FairPlayReport, Standing


def _number(value: float, locale: str, digits: int) -> str:
    text = f"{value:.{digits}f}"
    return text.replace(".", ",") if locale == "uk" else text


def _percent(share: float, locale: str) -> str:
    return _number(100 * share, locale, 0)


def _against(standing: Standing, key: str, locale: str, shown: float | None) -> str:
    if standing.median is None or shown is None:
        return t("fairplay.no_server", locale, min=MIN_ROUNDS)
    digits = 0 if key == "fairplay.share_against" else 1
    median = _number(shown, locale, digits)
    return t(key, locale, median=median, beyond=standing.beyond, of=standing.of)


def report_text(report: FairPlayReport, player: str, locale: str) -> str:
    """The report for the player named `player` (a mention), or that there is nothing."""
    mine = report.player
    if mine.games == 0:
        return t("fairplay.no_games", locale, player=player)
    lines = [
        t("fairplay.title", locale, player=player),
        t("fairplay.basis", locale, games=mine.games, answered=mine.answered, checked=mine.checked),
    ]
    for what, count, standing in (
        ("matched", mine.matched, report.matched),
        ("unlike", mine.unlike, report.unlike),
    ):
        if standing.value is None:
            lines.append(t("fairplay.no_value", locale, what=t(f"fairplay.what.{what}", locale)))
            continue
        lines.append(t(f"fairplay.{what}", locale, share=_percent(standing.value, locale),
                       count=count, checked=mine.checked))  # fmt: skip
        median = None if standing.median is None else 100 * standing.median
        lines.append(_against(standing, "fairplay.share_against", locale, median))
    if report.time.value is None:
        lines.append(t("fairplay.no_value", locale, what=t("fairplay.what.time", locale)))
    else:
        lines.append(t("fairplay.time", locale, seconds=_number(report.time.value, locale, 1)))
        lines.append(_against(report.time, "fairplay.time_against", locale, report.time.median))
    means = "fairplay.unlike_means" if mine.usual else "fairplay.unlike_means_none"
    lines.append(t(means, locale, usual=mine.usual, server=report.server_games))
    return "\n".join(lines)
