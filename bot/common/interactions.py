"""The shared helpers that speak discord.py: answering an interaction, telling a user why
not, reaching a loaded cog from a persistent button, Set choices for autocomplete, and
a formula echoed where a mention can't fire.

They live here, apart from `bot.common` itself, so that `bot.common` loads no discord:
the game flow (`bot.play`) and the web's views use it without Discord.

A `DynamicItem` is rebuilt by discord.py from its custom_id alone, so it cannot be
handed its handler; `loaded_cog` finds the loaded cog by name and the caller checks it
against the Protocol it needs (`isinstance` on a runtime_checkable Protocol), and from
then on every call is one mypy checks.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.common._errors import UserError
from bot.common._sets import CHOICE_NAME_MAX, CHOICES_MAX, clean_name
from bot.common._text import mention, shorten, timestamp
from bot.i18n import locale_of, t
from rules import GameSet

log = logging.getLogger(__name__)


async def reply(
    interaction: discord.Interaction[Any], content: str | None = None, **kwargs: Any
) -> None:
    """Answer (ephemeral unless told otherwise) whether or not it was already acknowledged."""
    kwargs.setdefault("ephemeral", True)
    if interaction.response.is_done():
        await interaction.followup.send(content or "", **kwargs)
    else:
        await interaction.response.send_message(content, **kwargs)


async def report_unexpected(interaction: discord.Interaction[Any], error: BaseException) -> None:
    """A button's last resort (slash commands have the tree's `on_error`; a DynamicItem's
    failure would only be logged, leaving the user on "thinking…"): log it, answer politely."""
    log.error("interaction failed", exc_info=error)
    try:
        await reply(interaction, t("errors.internal", locale_of(interaction)))
    except discord.HTTPException:
        log.warning("could not even report the error to the user")


def refusal_text(error: UserError, locale: str) -> str:
    """The refusal in Discord's words: its players mentioned, its moments as Discord's
    timestamps, its places as channel links (the flow raises plain values)."""
    params = error.display_params(locale)
    for key in error.players:
        if key in params:
            params[key] = mention(params[key])
    for key in error.moments:
        if key in params:
            params[key] = timestamp(float(params[key]))
    for key in error.places:
        if key in params:
            params[key] = f"<#{params[key]}>"
    return t(error.key, locale, **params)


async def refuse(interaction: discord.Interaction[Any], error: UserError) -> None:
    """The refusal in the user's language, privately."""
    await reply(interaction, refusal_text(error, locale_of(interaction)))


def loaded_cog(interaction: discord.Interaction[Any], name: str) -> commands.Cog:
    """The loaded cog `name`; RuntimeError if the bot has none."""
    client = interaction.client
    cog = client.get_cog(name) if isinstance(client, commands.bot.BotBase) else None
    if cog is None:
        raise RuntimeError(f"the {name} cog is not loaded")
    return cog


def set_choices(
    sets: Iterable[GameSet], current: str, locale: str
) -> list[app_commands.Choice[str]]:
    """Autocomplete choices for the Sets whose name contains what was typed so far."""
    needle = clean_name(current)
    return [
        app_commands.Choice(
            name=t(
                "games.set_choice",
                locale,
                name=s.name,
                start=s.start_score,
                rounds=s.max_rounds,
                seconds=s.time_limit,
            )[:CHOICE_NAME_MAX],
            value=s.name,
        )
        for s in sorted(sets, key=lambda s: s.name)
        if needle in s.name
    ][:CHOICES_MAX]


def echo_formula(formula: str) -> str:
    """A player's formula as it is echoed in inline code: on one line (a newline would
    break the message's layout), short, with no backtick or mention to break out of it."""
    folded = " ".join(formula.split())
    return discord.utils.escape_mentions(shorten(folded).replace("`", "ˋ"))
