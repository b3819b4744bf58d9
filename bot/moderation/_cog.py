"""`/admin`: a top-level command group, so Discord hides it from everyone without Manage
Server (`default_permissions`); a server may grant it to a role of its own."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.common import UserError, code, mention, refuse, reply, timestamp
from bot.i18n import cmd, locale_of, t
from bot.moderation._service import Moderation

Interaction = discord.Interaction[Any]
GAME_OPTION = cmd("admin.option.game", "the game's id (the first 8 characters do)")
REASON_OPTION = cmd("admin.option.reason", "why: kept in the log")
USER_OPTION = cmd("admin.option.user", "the player")


class AdminCog(commands.Cog, name="Admin"):
    admin = app_commands.Group(
        name=cmd("admin.name", "admin"),
        description=cmd("admin.description", "Keep this server's boards clean (Manage Server)"),
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    def __init__(self, moderation: Moderation) -> None:
        self.moderation = moderation

    @admin.command(
        name=cmd("admin.void.name", "void"),
        description=cmd("admin.void.description", "Void a game: off boards, stats and Elo"),
    )
    @app_commands.rename(
        game=cmd("admin.option.game.name", "game"), reason=cmd("admin.option.reason.name", "reason")
    )
    @app_commands.describe(game=GAME_OPTION, reason=REASON_OPTION)
    async def void(self, interaction: Interaction, game: str, reason: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            record = await self.moderation.void(
                interaction.guild_id or 0, game, interaction.user.id, reason
            )
        except UserError as error:
            await refuse(interaction, error)
            return
        await reply(
            interaction,
            t("moderation.voided", locale_of(interaction), id=code(record.state.id[:8])),
        )

    @admin.command(
        name=cmd("admin.unvoid.name", "unvoid"),
        description=cmd("admin.unvoid.description", "Count a voided game again"),
    )
    @app_commands.rename(
        game=cmd("admin.option.game.name", "game"), reason=cmd("admin.option.reason.name", "reason")
    )
    @app_commands.describe(game=GAME_OPTION, reason=REASON_OPTION)
    async def unvoid(self, interaction: Interaction, game: str, reason: str) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            record = await self.moderation.unvoid(
                interaction.guild_id or 0, game, interaction.user.id, reason
            )
        except UserError as error:
            await refuse(interaction, error)
            return
        await reply(
            interaction,
            t("moderation.unvoided", locale_of(interaction), id=code(record.state.id[:8])),
        )

    @admin.command(
        name=cmd("admin.bar.name", "bar"),
        description=cmd("admin.bar.description", "Bar a player from ranked play here"),
    )
    @app_commands.rename(
        user=cmd("admin.option.user.name", "user"), reason=cmd("admin.option.reason.name", "reason")
    )
    @app_commands.describe(user=USER_OPTION, reason=REASON_OPTION)
    async def bar(
        self, interaction: Interaction, user: discord.Member | discord.User, reason: str
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            await self.moderation.bar(
                interaction.guild_id or 0, user.id, interaction.user.id, reason
            )
        except UserError as error:
            await refuse(interaction, error)
            return
        await reply(interaction, t("moderation.barred", locale_of(interaction), user=user.mention))

    @admin.command(
        name=cmd("admin.unbar.name", "unbar"),
        description=cmd("admin.unbar.description", "Let a barred player play ranked again"),
    )
    @app_commands.rename(
        user=cmd("admin.option.user.name", "user"), reason=cmd("admin.option.reason.name", "reason")
    )
    @app_commands.describe(user=USER_OPTION, reason=REASON_OPTION)
    async def unbar(
        self, interaction: Interaction, user: discord.Member | discord.User, reason: str
    ) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            await self.moderation.unbar(
                interaction.guild_id or 0, user.id, interaction.user.id, reason
            )
        except UserError as error:
            await refuse(interaction, error)
            return
        await reply(
            interaction, t("moderation.unbarred", locale_of(interaction), user=user.mention)
        )

    @admin.command(
        name=cmd("admin.log.name", "log"),
        description=cmd("admin.log.description", "The last actions of this server's admins"),
    )
    async def log(self, interaction: Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        locale = locale_of(interaction)
        entries = await self.moderation.log(interaction.guild_id or 0)
        lines = [
            t(
                f"moderation.log.{entry.action.value}",
                locale,
                actor=mention(entry.actor_id),
                target=code(entry.target[:8])
                if entry.action.value.endswith("void")
                else mention(entry.target),
                reason=entry.reason,
                when=timestamp(entry.at),
            )
            for entry in entries
        ]
        text = "\n".join(lines) or t("moderation.log.empty", locale)
        await reply(interaction, text[:2000], allowed_mentions=discord.AllowedMentions.none())
