"""The end-of-game summary: every round, split into messages Discord accepts.

Discord caps a field value at 1,024 characters, an embed at 25 fields and 6,000
characters, and a message at 10 embeds and 6,000 characters of embeds in all. A
long game (50 rounds, or a duel of 256-character formulas) gets as many fields
and messages as it needs; a round's line is never cut in the middle, and a
formula too long for one line is shortened with an ellipsis.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.common import fmt, mention, shorten
from bot.games._render import COLOR_LOSS, COLOR_WIN, mode_name, outcome_text
from bot.i18n import t
from bot.play import accuracy, summary_best
from bot.storage import GameRecord, RatingChange
from rules import Answer, FormulaLanguage, GameState, Round, Termination, nobody_played

FIELD_MAX = 1024
FIELDS_MAX = 25
EMBED_MAX = 6000
EMBEDS_MAX = 10
MESSAGE_MAX = 5900
"""6,000 characters of embeds in a message, less room for Discord's own counting."""
FORMULA_MIN = 12


def _part(answer: Answer | None, formula: str, locale: str, lang: FormulaLanguage) -> str:
    if answer is None:
        return "—"
    auto = " " + t("games.summary.auto", locale) if answer.auto else ""
    return (
        f"`{formula}`{auto} = {fmt(answer.result, lang)} → "
        f"−{fmt(answer.points, lang)} → **{fmt(answer.score, lang)}**"
    )


def round_line(
    rnd: Round, players: int, locale: str, limit: int = FIELD_MAX, suffixes: Sequence[str] = (),
    *, lang: FormulaLanguage,
) -> str:  # fmt: skip
    """One round on one line of at most `limit` characters; long formulas get an ellipsis.

    `suffixes` follow each player's part (the best answer the round allowed); `lang` is
    the game's Set's language, whose numbers the line shows (a Round does not know it)."""
    formulas = [answer.formula if answer else "" for answer in rnd.answers[:players]]
    after = [suffixes[i] if i < len(suffixes) else "" for i in range(players)]

    def render() -> str:
        parts = [
            _part(rnd.answers[i], formulas[i], locale, lang) + after[i] for i in range(players)
        ]
        return f"`{rnd.number}` **{rnd.digits}** · " + " | ".join(parts)

    line = render()
    while len(line) > limit:
        longest = max(range(players), key=lambda i: len(formulas[i]))
        if len(formulas[longest]) <= FORMULA_MIN:
            return shorten(line, limit)  # only a pathological Set could get here
        excess = len(line) - limit
        formulas[longest] = shorten(
            formulas[longest], max(FORMULA_MIN, len(formulas[longest]) - excess - 1)
        )
        line = render()
    return line


def _round_fields(record: GameRecord, locale: str) -> list[tuple[str, str]]:
    """(name, value) pairs of whole lines, each value at most FIELD_MAX characters."""
    state = record.state
    seats = range(len(state.players))
    groups: list[list[tuple[int, str]]] = [[]]
    used = 0
    for rnd in state.rounds:
        suffixes = [summary_best(record, rnd.number, seat, locale) for seat in seats]
        line = round_line(
            rnd, len(state.players), locale, suffixes=suffixes, lang=state.game_set.language
        )
        if groups[-1] and used + 1 + len(line) > FIELD_MAX:
            groups.append([])
            used = 0
        used += len(line) + (1 if len(groups[-1]) else 0)
        groups[-1].append((rnd.number, line))
    groups = [g for g in groups if g]
    if len(groups) == 1:
        name = t("games.summary.rounds", locale)
        return [(name, "\n".join(line for _, line in groups[0]))]
    return [
        (
            t("games.summary.rounds_range", locale, first=group[0][0], last=group[-1][0]),
            "\n".join(line for _, line in group),
        )
        for group in groups
    ]


def _accuracy_lines(record: GameRecord, locale: str) -> list[str]:
    """How close each player came to the best answers the rounds allowed (when found)."""
    lines = []
    for seat, player in enumerate(record.state.players):
        value = accuracy(record, seat)
        if value is None:
            continue
        percent = round(value * 100)
        if record.state.mode.is_duel:
            lines.append(
                t("games.summary.accuracy_of", locale, player=mention(player), percent=percent)
            )
        else:
            lines.append(t("games.summary.accuracy", locale, percent=percent))
    return lines


def _why_void(state: GameState, locale: str) -> list[str]:
    """Why a game the rules voided has no result, when the reason is the game itself."""
    result = state.outcome
    if result is not None and result.termination is Termination.VOID and nobody_played(state):
        return [t("games.summary.unplayed", locale)]
    return []


def _rating_field(ratings: list[RatingChange], locale: str) -> tuple[str, str]:
    lines = [
        t(
            "duel.rating.line",
            locale,
            user=mention(str(change.user_id)),
            before=change.before,
            after=change.after,
            delta=f"{change.delta:+d}",
        )
        for change in ratings
    ]
    return t("duel.rating.title", locale), "\n".join(lines)[:FIELD_MAX]


def _won(state: GameState) -> bool:
    result = state.outcome
    return (
        result is not None
        and not (
            result.termination in (Termination.TIMEOUT, Termination.RESIGN)
            and not state.mode.is_duel
        )
        and result.termination is not Termination.VOID
    )


def summary_messages(
    record: GameRecord, ratings: list[RatingChange], locale: str, earned: Sequence[str] = ()
) -> list[list[discord.Embed]]:
    """The summary as messages (each a list of embeds) within every Discord limit;
    `earned`: the achievements the game earned, one line each (`bot.achievements`)."""
    state = record.state
    colour = COLOR_WIN if _won(state) else COLOR_LOSS
    first = discord.Embed(
        title=t("games.summary.title", locale, mode=mode_name(state.mode, locale)),
        description="\n".join(
            [
                outcome_text(state, locale),
                *_why_void(state, locale),
                *_accuracy_lines(record, locale),
                *earned,
            ]
        ),
        colour=colour,
    )
    first.set_footer(text=f"{state.game_set.name} · {state.id[:8]}")
    messages: list[list[discord.Embed]] = [[first]]
    fields = _round_fields(record, locale) if state.rounds else []
    if ratings:
        fields.append(_rating_field(ratings, locale))
    for name, value in fields:
        page, embed = messages[-1], messages[-1][-1]
        size = len(name) + len(value)
        if sum(len(e) for e in page) + size > MESSAGE_MAX:
            embed = discord.Embed(colour=colour)
            messages.append([embed])
        elif len(embed.fields) == FIELDS_MAX or len(embed) + size > EMBED_MAX:
            if len(page) == EMBEDS_MAX:
                embed = discord.Embed(colour=colour)
                messages.append([embed])
            else:
                embed = discord.Embed(colour=colour)
                page.append(embed)
        embed.add_field(name=name, value=value, inline=False)
    return messages
