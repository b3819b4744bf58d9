"""The embed of a game replay (`/game`): round by round, ten rounds a page.

Pure like the boards' (`_render`); what may be shown of a sealed Qualification is
decided before (`rules.seal`, `bot.views.seal_of`) and only drawn here.
"""

from __future__ import annotations

from datetime import UTC, datetime

import discord

import rules
from bot.common import fmt, mention, set_label
from bot.games import FIELD_MAX, outcome_text, round_line
from bot.i18n import date_text, t
from bot.leaderboards._render import COLOUR, page_footer
from bot.play import summary_best
from bot.storage import GameRecord
from bot.views import void_text, voided

ROUNDS_PER_PAGE = 10
ROUND_LINE_MAX = 500
"""Ten lines of 500 stay within an embed's 6,000 characters with the header fields."""


def _pack(lines: list[tuple[int, str]]) -> list[tuple[list[int], str]]:
    """Whole round lines into fields of at most 1,024 characters, never cutting one."""
    fields: list[tuple[list[int], list[str]]] = []
    for number, line in lines:
        if fields and len("\n".join([*fields[-1][1], line])) <= FIELD_MAX:
            fields[-1][0].append(number)
            fields[-1][1].append(line)
        else:
            fields.append(([number], [line]))
    return [(numbers, "\n".join(text)) for numbers, text in fields]


def round_pages(record: GameRecord) -> int:
    return max(1, -(-len(record.state.rounds) // ROUNDS_PER_PAGE))


def _seal_text(sealed: rules.Seal, locale: str) -> str:
    if sealed.reason is rules.SealReason.GAMES_RUNNING:
        return t("seal.game.running", locale)
    return t("leaderboards.game.sealed", locale, until=f"<t:{int(sealed.ends.timestamp())}:R>")


def game_embed(
    record: GameRecord, page: int, locale: str, sealed: rules.Seal | None = None
) -> discord.Embed:
    """A round-by-round replay. An open round's answers stay hidden: a duel's are secret.

    `sealed` (`rules.seal`): a Qualification whose period has not ended, or one of whose
    games is still being played, shows its outcome only (a game still being played, not
    even its Score); its Digits and formulas become public when the seal lifts (RULES.md).
    A voided game says so, and why, whatever its result was.
    """
    state = record.state
    embed = discord.Embed(
        title=t(
            "leaderboards.game.title",
            locale,
            mode=t(f"games.mode.{state.mode.value}", locale),
            set=set_label(state.game_set.name, state.game_set.language),
            id=state.id[:8],
        ),
        description=void_text(record, locale) if voided(record) else outcome_text(state, locale),
        colour=COLOUR,
    )
    hide_scores = sealed is not None and record.active
    embed.add_field(
        name=t("leaderboards.game.players", locale),
        value=" · ".join(
            mention(p) if hide_scores else f"{mention(p)} **{fmt(s, state.game_set.language)}**"
            for p, s in zip(state.players, state.scores, strict=True)
        ),
        inline=False,
    )
    started = date_text(datetime.fromtimestamp(record.created_at, UTC), locale)
    if sealed is not None:
        value = _seal_text(sealed, locale)
        if hide_scores:
            value = f"{t('seal.game.playing', locale)}\n{value}"
        embed.add_field(
            name=t("leaderboards.game.rounds_sealed", locale), value=value, inline=False
        )
        page_footer(embed, 0, 1, locale, started)
        return embed
    first = page * ROUNDS_PER_PAGE
    shown = state.rounds[first : first + ROUNDS_PER_PAGE]
    lines = [
        round_line(
            rnd,
            len(state.players),
            locale,
            ROUND_LINE_MAX,
            [summary_best(record, rnd.number, seat, locale) for seat in range(len(state.players))],
            lang=state.game_set.language,
        )
        if rnd.resolved
        else f"`{rnd.number}` **{rnd.digits}** · "
        + t("leaderboards.game.secret", locale, number=rnd.number)
        for rnd in shown
    ]
    for numbers, value in _pack(list(zip((r.number for r in shown), lines, strict=True))):
        embed.add_field(
            name=t(
                "leaderboards.game.rounds",
                locale,
                first=numbers[0],
                last=numbers[-1],
                total=len(state.rounds),
            ),
            value=value,
            inline=False,
        )
    page_footer(embed, page, round_pages(record), locale, started)
    return embed
