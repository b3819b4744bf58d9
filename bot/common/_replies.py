"""Answering an interaction, acknowledged or not, and telling a user why not."""

from __future__ import annotations

from typing import Any

import discord

from bot.common._errors import UserError
from bot.i18n import locale_of, t


async def reply(
    interaction: discord.Interaction[Any], content: str | None = None, **kwargs: Any
) -> None:
    """Answer (ephemeral unless told otherwise) whether or not it was already acknowledged."""
    kwargs.setdefault("ephemeral", True)
    if interaction.response.is_done():
        await interaction.followup.send(content or "", **kwargs)
    else:
        await interaction.response.send_message(content, **kwargs)


def refusal_text(error: UserError, locale: str) -> str:
    return t(error.key, locale, **error.display_params(locale))


async def refuse(interaction: discord.Interaction[Any], error: UserError) -> None:
    """The refusal in the user's language, privately."""
    await reply(interaction, refusal_text(error, locale_of(interaction)))
