"""How Sets and their problems look in Discord, in the reader's language.

Discord caps an embed (25 fields, 1,024 characters a field value, 4,096 a
description, 6,000 in all, 10 embeds a message), so long lists are split or
shortened here and never make a send fail.
"""

from __future__ import annotations

from collections.abc import Sequence

import discord

from bot.common import ListedSet, code, language_label, set_label, shorten
from bot.i18n import catalog, set_description, t
from rules import GameSet, SetProblem

COLOR = discord.Colour.blurple()
COLOR_ERROR = discord.Colour.red()
FIELDS_PER_EMBED = 25
MESSAGE_MAX = 5800
"""Discord's 6,000 characters of embeds in one message, with room to spare."""
DESCRIPTION_IN_LIST = 200
DESCRIPTION_MAX = 4096


def set_line(game_set: GameSet, locale: str) -> str:
    """The numbers of a Set on one line (the same words as the games use)."""
    return t(
        "sets.list.line",
        locale,
        start=game_set.start_score,
        goal=game_set.goal,
        bonus=game_set.bonus,
        rounds=game_set.max_rounds,
        min_rounds=game_set.min_rounds,
        time=game_set.time_limit,
        functions=", ".join(game_set.functions) or "—",
        attempts=game_set.attempts,
    )


def _description(listed: ListedSet, locale: str) -> str:
    game_set = listed.game_set
    return set_description(game_set.name, game_set.description, locale, is_global=listed.is_global)


def _origin(listed: ListedSet, locale: str) -> str:
    return t(f"sets.origin.{'global' if listed.is_global else 'server'}", locale)


def list_pages(sets: Sequence[ListedSet], locale: str) -> list[list[discord.Embed]]:
    """Every playable Set as a field, split into messages Discord accepts.

    One message holds 10 embeds of 25 fields and 6,000 characters in all, so a
    server with many Sets (or long descriptions) gets its list in a few messages.
    """
    pages: list[list[discord.Embed]] = [[discord.Embed(title=t("sets.list.title", locale))]]
    for listed in sets:
        game_set = listed.game_set
        value = set_line(game_set, locale)
        if game_set.description:
            value += "\n" + shorten(_description(listed, locale), DESCRIPTION_IN_LIST)
        name = f"{set_label(game_set.name, game_set.language)} · {_origin(listed, locale)}"
        page, embed = pages[-1], pages[-1][-1]
        if sum(len(e) for e in page) + len(name) + len(value) > MESSAGE_MAX:
            embed = discord.Embed()
            pages.append([embed])
        elif len(embed.fields) == FIELDS_PER_EMBED:
            embed = discord.Embed()
            page.append(embed)
        embed.add_field(name=name, value=value, inline=False)
    for page in pages:
        for embed in page:
            embed.colour = COLOR
    return pages


def show_embed(listed: ListedSet, locale: str) -> discord.Embed:
    """One Set, field by field, with the names `/sets edit` and the YAML file use."""
    game_set = listed.game_set
    embed = discord.Embed(
        title=f"{set_label(game_set.name, game_set.language)} · {_origin(listed, locale)}",
        description=shorten(_description(listed, locale), DESCRIPTION_MAX) or None,
        colour=COLOR,
    )
    values: list[tuple[str, object]] = [
        ("start_score", game_set.start_score),
        ("goal", game_set.goal),
        ("bonus", game_set.bonus),
        ("max_rounds", game_set.max_rounds),
        ("min_rounds", game_set.min_rounds),
        ("time_limit", t("sets_admin.seconds", locale, seconds=game_set.time_limit)),
        ("functions", ", ".join(game_set.functions) or "—"),
        ("attempts", game_set.attempts),
        ("language", language_label(game_set.language)),
    ]
    for key, value in values:
        embed.add_field(
            name=f"{t(f'sets_admin.field.{key}', locale)} (`{key}`)", value=str(value), inline=True
        )
    return embed


def problem_text(problem: SetProblem, locale: str) -> str:
    """One problem in the reader's language; unknown codes fall back to rules' English."""
    key = f"sets_admin.problem.{problem.code}"
    params = dict(problem.params)
    message = t(key, locale, **params) if key in catalog().messages else problem.message
    where = []
    if problem.set_name is not None:
        where.append(code(problem.set_name))
    if problem.field is not None:  # named as /sets show names it: the label, then the key
        label = f"sets_admin.field.{problem.field}"
        named = code(problem.field)
        where.append(f"{t(label, locale)} ({named})" if label in catalog().messages else named)
    return f"• {' · '.join(where)}: {message}" if where else f"• {message}"


def problems_embed(title: str, problems: Sequence[SetProblem], locale: str) -> discord.Embed:
    """Every problem, one a line; past Discord's limit, how many more there are."""
    lines: list[str] = []
    used = 0
    for index, problem in enumerate(problems):
        line = shorten(problem_text(problem, locale), 500)
        more = t("sets_admin.more_problems", locale, count=len(problems) - index)
        if used + len(line) + 1 > DESCRIPTION_MAX - len(more) - 1:
            lines.append(more)
            break
        lines.append(line)
        used += len(line) + 1
    return discord.Embed(title=title, description="\n".join(lines), colour=COLOR_ERROR)


def names(values: Sequence[str]) -> str:
    return ", ".join(code(name) for name in values) or "—"
