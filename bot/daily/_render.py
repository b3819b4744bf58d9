"""The daily post's embed and its Play button: pure functions of the stored summary."""

from __future__ import annotations

import discord

from bot.common import code, fmt, mention, set_label
from bot.daily._content import DailyContent
from bot.games import QualificationButton
from bot.i18n import day_of, t
from bot.leaderboards import board_lines
from bot.storage import PeriodSummary
from evaluator.language import language

COLOUR = discord.Colour.gold()
FIELDS_MAX = 20
FORMULA_MAX = 300
"""Two formulas of 300 and their words stay within a field's 1,024 characters."""
MARK = " · "
"""Between the footer's words and the marker a post made before the marker moved to its
Play button carried (`marked` still finds such a post)."""


def _round_value(content: DailyContent, digits: str, index: int) -> str:
    best = content.summary.rounds[index]
    lines = [
        t(
            "daily.best",
            content.locale,
            formula=code(best.formula, FORMULA_MAX),
            result=language(content.language).show(best.value),
            user=mention(best.user_id),
        )
    ]
    if content.closest is not None:
        found = content.closest.get(digits)
        if found is not None:
            lines.append(
                t(
                    "daily.closest",
                    content.locale,
                    formula=code(found.formula, FORMULA_MAX),
                    result=fmt(found.value, content.language),
                )
            )
    return "\n".join(lines)


def daily_embed(content: DailyContent) -> discord.Embed:
    locale, summary = content.locale, content.summary
    embed = discord.Embed(
        title=t(
            "daily.title",
            locale,
            set=set_label(content.set_name, content.language),
            period=day_of(content.period),
        ),
        colour=COLOUR,
        url=content.link,
    )
    lines = board_lines(summary.board, locale, lang=content.language)
    if lines:
        lines.append(t("daily.players", locale, players=summary.players))
        lines.append(t("daily.perfects", locale, perfects=summary.perfects))
    else:
        lines = [_no_board(summary, locale)]
    embed.description = "\n".join(lines)
    if content.extra:  # the day's puzzle: a field of its own, above the rounds
        embed.add_field(
            name=t("daily.puzzle", locale), value="\n".join(content.extra)[:1024], inline=False
        )
    for index, best in enumerate(summary.rounds[:FIELDS_MAX]):
        embed.add_field(
            name=t("daily.round", locale, number=best.number, digits=best.digits),
            value=_round_value(content, best.digits, index),
            inline=False,
        )
    embed.set_footer(text=t("daily.footer", locale))
    return embed


def _no_board(summary: PeriodSummary, locale: str) -> str:
    """An empty board: nobody played, or everyone who did lost (on time, or resigned)."""
    if summary.played:
        return t("daily_extra.all_lost", locale, players=summary.played)
    return t("daily.empty", locale)


def marked(message: discord.Message, marker: str) -> bool:
    """Whether `message` is the daily post that carries `marker`: in its Play button's
    custom_id, which no player reads (a post made before that carried it at its footer's
    end, shown to everyone)."""
    set_name, _, day = marker.partition("/")
    custom_id = QualificationButton(set_name, day=day).item.custom_id
    buttons = (
        child
        for row in message.components
        if isinstance(row, discord.ActionRow)
        for child in row.children
    )
    return any(getattr(button, "custom_id", None) == custom_id for button in buttons) or any(
        embed.footer.text is not None and embed.footer.text.endswith(f"{MARK}{marker}")
        for embed in message.embeds
    )


def daily_view(content: DailyContent) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(
        QualificationButton(content.set_name, t("daily.play", content.locale), content.period)
    )
    return view
