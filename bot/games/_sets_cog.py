"""`/sets list`: the Sets playable in this server.

The `sets` group lives in its own small cog so the admin commands (/sets add,
edit, remove, show, import, export) can take the group over: move `SetsCog`
into the admin feature and keep `list` as one of its subcommands.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import cmd, locale_of, t


class SetsCog(commands.Cog, name="Sets"):
    sets = app_commands.Group(
        name=cmd("sets.name", "sets"),
        description=cmd("sets.description", "The Sets (game variants) of this server"),
        guild_only=True,
    )

    def __init__(self, bot: Any) -> None:
        self.bot = bot

    @sets.command(
        name=cmd("sets.list.name", "list"),
        description=cmd("sets.list.description", "List the Sets you can play here"),
    )
    async def list_sets(self, interaction: discord.Interaction[Any]) -> None:
        locale = locale_of(interaction)
        sets = await self.bot.service.sets_for(interaction.guild_id or 0)
        embed = discord.Embed(title=t("sets.list.title", locale), colour=discord.Colour.blurple())
        for name, game_set in sorted(sets.items()):
            origin = "global" if name in self.bot.service.global_sets else "server"
            embed.add_field(
                name=f"{name} · {t(f'sets.origin.{origin}', locale)}",
                value=t(
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
                + (f"\n{game_set.description}" if game_set.description else ""),
                inline=False,
            )
            if len(embed.fields) == 25:
                break
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: Any) -> None:
    await bot.add_cog(SetsCog(bot))
