"""`/config`: a server's daily-post channel, its language and timezone (Manage Server).

A top-level group with `default_permissions`, so Discord hides it from everyone without
Manage Server; each command checks the permission again, since a server may have
granted the command to a role that lacks it.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.common import UserError, timestamp
from bot.common.interactions import refuse, reply
from bot.config._service import LANGUAGES, SOLO_PLACES, ConfigError, ServerConfig, zone_choices
from bot.i18n import locale_of, t
from bot.i18n.translator import cmd
from bot.settings import SoloGames
from bot.storage import ServerSettings

Interaction = discord.Interaction[Any]
WEB_CHOICES = [
    app_commands.Choice(name=cmd(f"config.web.{state}", state), value=state)
    for state in ("on", "off")
]
GAMES_CHOICES = [
    app_commands.Choice(name=cmd(f"config.games.{place}", place), value=place)
    for place in SOLO_PLACES
]
LANGUAGE_CHOICES = [
    app_commands.Choice(name=cmd(f"config.language.{code}", code), value=code) for code in LANGUAGES
]


def shown(
    settings: ServerSettings, locale: str, solo_default: str = SoloGames.PRIVATE.value
) -> str:
    """What `/config` answers: every setting; `solo_default` is the bot's `SOLO_GAMES`."""
    channel = (
        f"<#{settings.channel_id}>"
        if settings.channel_id is not None
        else t("config.show.no_channel", locale)
    )
    language = (
        t(f"config.language_name.{settings.language}", locale)
        if settings.language
        else t("config.show.no_language", locale)
    )
    text = t(
        "config.show.text", locale, channel=channel, language=language, timezone=settings.timezone
    )
    place = t(f"config.show.games_{settings.solo_games or solo_default}", locale)
    if settings.solo_games is None:
        place = t("config.show.games_default", locale, place=place)
    text += "\n" + t("config.show.games", locale, place=place)
    cleared = cleared_text(settings, locale)
    return text if cleared is None else f"{text}\n{cleared}"


def web_text(settings: ServerSettings, base: str | None, locale: str) -> str:
    """What `/config web` answers: the server's address when its pages are on."""
    if not settings.web_on or settings.web_key is None:
        return t("web.config.off", locale)
    if base is None:
        return t("web.config.on_no_base", locale, page_key=settings.web_key)
    return t("web.config.on", locale, url=web_address(base, settings.web_key))


def web_address(base: str, key: str) -> str:
    """A server's pages (bot.web's `/s/<key>/`), as /config web, /game and the daily post
    link them."""
    return f"{base.rstrip('/')}/s/{key}/"


def cleared_text(settings: ServerSettings, locale: str) -> str | None:
    """Why there is no daily post any more, when the bot took the channel off itself."""
    reason = settings.cleared_reason
    if settings.channel_id is not None or reason is None:
        return None
    return t(
        f"config_extra.cleared.{reason.value}",
        locale,
        channel=f"<#{settings.cleared_channel_id}>",
        when=timestamp(settings.cleared_at or 0.0, "f"),
    )


class ConfigCog(commands.Cog, name="Config"):
    config = app_commands.Group(
        name=cmd("config.name", "config"),
        description=cmd("config.description", "This server's settings (Manage Server)"),
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )

    def __init__(
        self,
        service: ServerConfig,
        web_base: str | None = None,
        solo_default: str = SoloGames.PRIVATE.value,
    ) -> None:
        """`web_base`: the web pages' public address (WEB_BASE_URL), None when not known;
        `solo_default`: the bot's `SOLO_GAMES`, what a server that chose none gets."""
        self.service = service
        self.web_base = web_base
        self.solo_default = solo_default

    def _shown(self, settings: ServerSettings, interaction: Interaction) -> str:
        return shown(settings, locale_of(interaction), self.solo_default)

    async def _allowed(self, interaction: Interaction) -> bool:
        """Acknowledged first (privately), before any database work: a slow database must
        not make Discord fail the command after its 3 s."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        if interaction.guild_id is not None and interaction.permissions.manage_guild:
            return True
        await refuse(interaction, ConfigError("not_allowed"))
        return False

    @config.command(
        name=cmd("config.channel.name", "channel"),
        description=cmd(
            "config.channel.description", "Where the daily post goes (none: no daily post)"
        ),
    )
    @app_commands.rename(channel=cmd("config.option.channel.name", "channel"))
    @app_commands.describe(
        channel=cmd("config.option.channel", "a text channel; leave out to stop")
    )
    async def channel(
        self, interaction: Interaction, channel: discord.TextChannel | None = None
    ) -> None:
        if not await self._allowed(interaction):
            return
        guild = interaction.guild
        granted = None
        if channel is not None and guild is not None:
            target = guild.get_channel(channel.id) or channel
            granted = target.permissions_for(guild.me)
        try:
            settings = await self.service.set_channel(
                interaction.guild_id or 0, None if channel is None else channel.id, granted
            )
        except UserError as error:
            await refuse(interaction, error)
            return
        await reply(interaction, self._shown(settings, interaction))

    @config.command(
        name=cmd("config.language.name", "language"),
        description=cmd(
            "config.language.description", "The language of the bot's public messages here"
        ),
    )
    @app_commands.rename(language=cmd("config.option.language.name", "language"))
    @app_commands.describe(language=cmd("config.option.language", "leave out: each player's own"))
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(
        self, interaction: Interaction, language: app_commands.Choice[str] | None = None
    ) -> None:
        if not await self._allowed(interaction):
            return
        settings = await self.service.set_language(
            interaction.guild_id or 0, None if language is None else language.value
        )
        await reply(interaction, self._shown(settings, interaction))

    @config.command(
        name=cmd("config.timezone.name", "timezone"),
        description=cmd(
            "config.timezone.description",
            "The timezone whose midnight starts a new Qualification day",
        ),
    )
    @app_commands.rename(timezone=cmd("config.option.timezone.name", "timezone"))
    @app_commands.describe(timezone=cmd("config.option.timezone", "an IANA name, e.g. Europe/Kyiv"))
    async def timezone(self, interaction: Interaction, timezone: str) -> None:
        if not await self._allowed(interaction):
            return
        try:
            settings = await self.service.set_timezone(interaction.guild_id or 0, timezone)
        except UserError as error:
            await refuse(interaction, error)
            return
        await reply(interaction, self._shown(settings, interaction))

    @timezone.autocomplete("timezone")
    async def autocomplete_timezone(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        del interaction
        return [app_commands.Choice(name=z, value=z) for z in zone_choices(current)]

    @config.command(
        name=cmd("config.games.name", "games"),
        description=cmd(
            "config.games.description", "Where Training, Qualification and Practice are played"
        ),
    )
    @app_commands.rename(place=cmd("config.option.place.name", "place"))
    @app_commands.describe(place=cmd("config.option.place", "leave out: the bot's default"))
    @app_commands.choices(place=GAMES_CHOICES)
    async def games(
        self, interaction: Interaction, place: app_commands.Choice[str] | None = None
    ) -> None:
        """Private messages (no thread; nobody else sees a game) or a thread per game:
        games already running stay where they are."""
        if not await self._allowed(interaction):
            return
        settings = await self.service.set_solo_games(
            interaction.guild_id or 0, None if place is None else place.value
        )
        await reply(interaction, self._shown(settings, interaction))

    @config.command(
        name=cmd("config.web.name", "web"),
        description=cmd(
            "config.web.description",
            "This server's pages on the web: boards, players, replays (off by default)",
        ),
    )
    @app_commands.rename(state=cmd("config.option.state.name", "state"))
    @app_commands.describe(state=cmd("config.option.state", "on or off"))
    @app_commands.choices(state=WEB_CHOICES)
    async def web(self, interaction: Interaction, state: app_commands.Choice[str]) -> None:
        if not await self._allowed(interaction):
            return
        settings = await self.service.set_web(interaction.guild_id or 0, state.value == "on")
        await reply(interaction, web_text(settings, self.web_base, locale_of(interaction)))

    @config.command(
        name=cmd("config.show.name", "show"),
        description=cmd("config.show.description", "This server's settings"),
    )
    async def show(self, interaction: Interaction) -> None:
        if not await self._allowed(interaction):
            return
        settings = await self.service.show(interaction.guild_id or 0)
        await reply(interaction, self._shown(settings, interaction))
