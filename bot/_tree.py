"""How the bot meets the gateway and the command tree: the intents it asks for, the
longest rate-limit wait discord.py may sit through, and the tree whose errors become a
polite message. Apart from `bot.app` so the bot's wiring reads on its own."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.i18n import locale_of, t

log = logging.getLogger(__name__)


class GameTree(app_commands.CommandTree[discord.Client]):
    """Any error a command did not handle becomes a polite, localized message."""

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        if isinstance(error, app_commands.CheckFailure):
            text = t("errors.not_allowed", locale_of(interaction))
        else:
            log.error("command %s failed", interaction.command, exc_info=error)
            text = t("errors.internal", locale_of(interaction))
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            log.warning("could not report a command error to the user")


MAX_RATELIMIT_WAIT_S = 30.0
"""discord.py waits out a 429 this long at most (it raises anything lower to 30 s); a
longer one comes back as `RateLimited`, and `with_retry` holds the bucket it named for
it (a global one: every call) and gives the call up instead of eating a round in silence."""


def intents() -> discord.Intents:
    """Only what the bot uses: guilds (channels, threads, its own roles). No message
    content, no members (privileged): the bot reads interactions, not messages."""
    chosen = discord.Intents.none()
    chosen.guilds = True
    return chosen
