"""Embeds of one player: `/stats` (totals, best game, Elo, streaks) and `/history`.

Pure functions of stored rows like the boards' (`_render`), whose result wording
and page footer they share.
"""

from __future__ import annotations

from collections.abc import Mapping

import discord

from bot.common import fmt, mention, set_label
from bot.i18n import decimal_text, normalize_locale, t
from bot.leaderboards._render import COLOUR, page_footer
from bot.storage import GameRecord, PlayerStats
from bot.views import game_result, ranking_result
from rules import FormulaLanguage, Streak

STREAK_SETS_MAX = 5
"""/stats lists this many Sets' streaks (the longest current ones); the rest are counted."""


AVERAGE_PLAIN = 1e15
"""Below this an average shows one decimal; above, PHP's E-notation (pow(34,89) happens)."""


def average_text(value: float, locale: str) -> str:
    """An average over games of every Set (of every language), so no Set's number: a
    decimal in the reader's writing, PHP's E-notation (the bot's default) when huge."""
    if abs(value) < AVERAGE_PLAIN:
        return decimal_text(value, normalize_locale(locale))
    return fmt(float(value), FormulaLanguage.PHP)


def _streaks_field(embed: discord.Embed, streaks: Mapping[str, Streak], locale: str) -> None:
    """One line per Set, the longest current streaks first."""
    ranked = sorted(streaks.items(), key=lambda item: (-item[1].current, -item[1].longest))
    lines = [
        t(
            "streaks.stats.line",
            locale,
            set=name,
            current=t("streaks.days", locale, count=streak.current),
            longest=t("streaks.days", locale, count=streak.longest),
        )
        for name, streak in ranked[:STREAK_SETS_MAX]
    ]
    if len(ranked) > STREAK_SETS_MAX:
        lines.append(t("streaks.stats.more", locale, count=len(ranked) - STREAK_SETS_MAX))
    embed.add_field(name=t("streaks.stats.title", locale), value="\n".join(lines), inline=False)


def stats_embed(
    stats: PlayerStats, name: str, locale: str, streaks: Mapping[str, Streak] | None = None,
    *, best_language: FormulaLanguage,
) -> discord.Embed:  # fmt: skip
    """`best_language`: the language of the best game's Set, named and written in."""
    user = mention(stats.user_id)
    embed = discord.Embed(title=t("leaderboards.stats.title", locale, user=name), colour=COLOUR)
    embed.description = user
    none = t("leaderboards.stats.none", locale)
    if stats.games == 0 and stats.duel is None and not stats.practice:
        embed.description = t("leaderboards.stats.empty", locale, user=user)
        return embed
    embed.add_field(
        name=t("leaderboards.stats.games", locale),
        value=t("leaderboards.stats.games_value", locale, games=stats.games, wins=stats.wins),
    )
    embed.add_field(name=t("leaderboards.stats.checkouts", locale), value=str(stats.checkouts))
    embed.add_field(name=t("leaderboards.stats.perfects", locale), value=str(stats.perfects))
    if stats.practice:
        embed.add_field(
            name=t("leaderboards.stats.practice", locale),
            value=t(
                "leaderboards.stats.games_value",
                locale,
                games=stats.practice,
                wins=stats.practice_wins,
            ),
        )
    average = none
    if stats.avg_points is not None:
        average = t(
            "leaderboards.stats.avg_value",
            locale,
            avg=average_text(stats.avg_points, locale),
            rounds=stats.rounds,
        )
    embed.add_field(name=t("leaderboards.stats.avg_points", locale), value=average)
    best = stats.best
    embed.add_field(
        name=t("leaderboards.stats.best", locale),
        value=none
        if best is None
        else t(
            "leaderboards.stats.best_value",
            locale,
            result=ranking_result(
                best.rank_class,
                best.rounds,
                best.score,
                best.perfect,
                locale,
                best.termination,
                lang=best_language,
            ),
            set=set_label(best.set_name, best_language),
            period=best.period or "",
        )
        + f" · `{best.game_id[:8]}`",
        inline=False,
    )
    duel = stats.duel
    embed.add_field(
        name=t("leaderboards.stats.duel", locale),
        value=none
        if duel is None
        else t(
            "leaderboards.stats.duel_value",
            locale,
            rating=duel.rating,
            rank=duel.rank,
            wins=duel.wins,
            draws=duel.draws,
            losses=duel.losses,
        ),
        inline=False,
    )
    if streaks:
        _streaks_field(embed, streaks, locale)
    return embed


def history_embed(
    records: list[GameRecord], user_id: int, name: str, page: int, locale: str, pages: int = 1
) -> discord.Embed:
    """`name` is known when a command asked; a page button knows only the id, and
    Discord shows no mention in a title, so the mention heads the description."""
    user = mention(user_id)
    title = (
        t("leaderboards.history.title", locale, user=name)
        if name
        else t("leaderboards_extra.history.title", locale)
    )
    embed = discord.Embed(title=title, colour=COLOUR)
    lines = [
        t(
            "leaderboards.history.line",
            locale,
            id=record.state.id[:8],
            when=f"<t:{int(record.created_at)}:R>",
            mode=t(f"games.mode.{record.state.mode.value}", locale),
            set=set_label(record.state.game_set.name, record.state.game_set.language),
            result=game_result(record, str(user_id), locale),
        )
        for record in records
    ]
    body = "\n".join(lines) or t("leaderboards.history.empty", locale, user=user)
    embed.description = body if not lines else f"{user}\n{body}"
    page_footer(embed, page, pages, locale, t("leaderboards.history.footer", locale))
    return embed
