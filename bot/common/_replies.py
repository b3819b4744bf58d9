"""Answering an interaction, acknowledged or not, and telling a user why not."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.common._errors import UserError
from bot.i18n import locale_of, t

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
    return t(error.key, locale, **error.display_params(locale))


async def refuse(interaction: discord.Interaction[Any], error: UserError) -> None:
    """The refusal in the user's language, privately."""
    await reply(interaction, refusal_text(error, locale_of(interaction)))
