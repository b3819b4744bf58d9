"""How a persistent button or modal reaches the cog that handles it.

A `DynamicItem` is rebuilt by discord.py from its custom_id alone, so it cannot be
handed its handler; it finds the loaded cog by name and checks it against the
Protocol it needs (`isinstance` on a runtime_checkable Protocol), and from then
on every call is one mypy checks.
"""

from __future__ import annotations

from typing import Any

import discord
from discord.ext import commands


def loaded_cog(interaction: discord.Interaction[Any], name: str) -> commands.Cog:
    """The loaded cog `name`; RuntimeError if the bot has none."""
    client = interaction.client
    cog = client.get_cog(name) if isinstance(client, commands.bot.BotBase) else None
    if cog is None:
        raise RuntimeError(f"the {name} cog is not loaded")
    return cog
