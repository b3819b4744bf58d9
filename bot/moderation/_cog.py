"""`/admin`: a top-level command group, so Discord hides it from everyone without Manage
Server (`default_permissions`); a server may grant it to a role of its own."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.common import UserError, code, mention, timestamp
from bot.common.interactions import refuse, reply
from bot.i18n import locale_of, t
from bot.i18n.translator import cmd
from bot.moderation._fairplay import signals
from bot.moderation._fairplay_text import report_text
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
        async def act(guild_id: int, admin_id: int) -> dict[str, str]:
            record = await self.moderation.void(guild_id, game, admin_id, reason)
            return {"id": code(record.state.id[:8])}

        await _acted(interaction, act, "moderation.voided")

    @admin.command(
        name=cmd("admin.unvoid.name", "unvoid"),
        description=cmd("admin.unvoid.description", "Count a voided game again"),
    )
    @app_commands.rename(
        game=cmd("admin.option.game.name", "game"), reason=cmd("admin.option.reason.name", "reason")
    )
    @app_commands.describe(game=GAME_OPTION, reason=REASON_OPTION)
    async def unvoid(self, interaction: Interaction, game: str, reason: str) -> None:
        async def act(guild_id: int, admin_id: int) -> dict[str, str]:
            record = await self.moderation.unvoid(guild_id, game, admin_id, reason)
            return {"id": code(record.state.id[:8])}

        await _acted(interaction, act, "moderation.unvoided")

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
        async def act(guild_id: int, admin_id: int) -> dict[str, str]:
            await self.moderation.bar(guild_id, user.id, admin_id, reason)
            return {"user": user.mention}

        await _acted(interaction, act, "moderation.barred")

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
        async def act(guild_id: int, admin_id: int) -> dict[str, str]:
            await self.moderation.unbar(guild_id, user.id, admin_id, reason)
            return {"user": user.mention}

        await _acted(interaction, act, "moderation.unbarred")

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

    @admin.command(
        name=cmd("admin.fairplay.name", "fairplay"),
        description=cmd(
            "admin.fairplay.description", "Fair-play signals of a player, for a person to weigh"
        ),
    )
    @app_commands.rename(user=cmd("admin.option.user.name", "user"))
    @app_commands.describe(user=USER_OPTION)
    async def fairplay(self, interaction: Interaction, user: discord.Member | discord.User) -> None:
        """Signals from stored games, shown to the admin only; nothing is acted on."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        if interaction.guild_id is None or not interaction.permissions.manage_guild:
            await refuse(interaction, FairPlayRefused("not_allowed"))
            return
        report = await signals(self.moderation.fairplay, interaction.guild_id, user.id)
        text = report_text(report, user.mention, locale_of(interaction))
        await reply(interaction, text[:2000], allowed_mentions=discord.AllowedMentions.none())


class FairPlayRefused(UserError):
    prefix = "fairplay."


Action = Callable[[int, int], Awaitable[dict[str, str]]]
"""An admin action taking (guild id, admin id), returning what its confirmation names."""


async def _acted(interaction: Interaction, act: Action, done: str) -> None:
    """Acknowledge, act, then confirm with the text `done`, or say why not."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        params = await act(interaction.guild_id or 0, interaction.user.id)
    except UserError as error:
        await refuse(interaction, error)
        return
    await reply(interaction, t(done, locale_of(interaction), **params))
