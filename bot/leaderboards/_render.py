"""Embeds for the boards, and the result wording and page footer every embed shares.

Pure functions of stored rows: nothing here touches Discord's API or the database, so
every text can be tested from hand-made rows in both languages. A player's embeds
(`/stats`, `/history`) are `_render_player`, a replay's (`/game`) `_render_replay`.
"""

from __future__ import annotations

from collections.abc import Mapping

import discord

from bot.common import mention, set_label
from bot.i18n import decimal_text, normalize_locale, t
from bot.storage import LeaderRow, RatingRow
from bot.views import BoardPeriod, ranking_result, version_label
from rules import FormulaLanguage, Streak

COLOUR = discord.Colour.gold()


def page_footer(embed: discord.Embed, page: int, pages: int, locale: str, extra: str = "") -> None:
    """ "Page N of M" (never of fewer pages than the one shown), `extra` beside it."""
    text = t("leaderboards_extra.page_of", locale, page=page + 1, pages=max(pages, page + 1))
    embed.set_footer(text=f"{text} · {extra}" if extra else text)


def _with_streak(user: str, streaks: Mapping[int, Streak], user_id: int, locale: str) -> str:
    """A name with its current streak beside it, when it has one."""
    found = streaks.get(user_id)
    if found is None or found.current == 0:
        return user
    return f"{user} {t('streaks.board.mark', locale, count=found.current)}"


def board_lines(
    rows: list[LeaderRow], locale: str, streaks: Mapping[int, Streak] | None = None,
    *, lang: FormulaLanguage,
) -> list[str]:  # fmt: skip
    """A Qualification board's lines, as /leaderboard and the daily post show them, its
    Scores in the Set's language `lang`."""
    return [
        t(
            "leaderboards.qualification.line",
            locale,
            rank=row.rank,
            user=_with_streak(mention(row.user_id), streaks or {}, row.user_id, locale),
            result=ranking_result(
                row.rank_class,
                row.rounds,
                row.score,
                row.perfect,
                locale,
                row.termination,
                lang=lang,
            ),
            time=decimal_text(row.answer_time, normalize_locale(locale)),
        )
        for row in rows
    ]


def qualification_embed(
    rows: list[LeaderRow],
    set_name: str,
    period: BoardPeriod,
    page: int,
    locale: str,
    pages: int = 1,
    version: str | None = None,
    streaks: Mapping[int, Streak] | None = None,
    *,
    lang: FormulaLanguage,
    numbers: Mapping[str, int] | None = None,
) -> discord.Embed:
    """`version` (when known) goes in the footer by its number in `numbers`: a board
    ranks one version of the Set.
    The title names the Set's language `lang` (unless it is PHP), its Scores are in it."""
    period_name = t(f"leaderboards.period.{period.value}", locale)
    title = set_label(set_name, lang)
    embed = discord.Embed(
        title=t("leaderboards.qualification.title", locale, set=title, period=period_name),
        colour=COLOUR,
    )
    lines = board_lines(rows, locale, streaks, lang=lang)
    embed.description = "\n".join(lines) or t(
        "leaderboards.qualification.empty", locale, set=set_name
    )
    extra = "" if version is None else version_label(version, False, locale, numbers or {})
    page_footer(embed, page, pages, locale, extra)
    return embed


def duel_embed(rows: list[RatingRow], page: int, locale: str, pages: int = 1) -> discord.Embed:
    embed = discord.Embed(title=t("leaderboards.duel.title", locale), colour=COLOUR)
    lines = [
        t(
            "leaderboards.duel.line",
            locale,
            rank=row.rank,
            user=mention(row.user_id),
            rating=row.rating,
            games=row.games,
            wins=row.wins,
            draws=row.draws,
            losses=row.losses,
        )
        for row in rows
    ]
    embed.description = "\n".join(lines) or t("leaderboards.duel.empty", locale)
    page_footer(embed, page, pages, locale)
    return embed
