"""The bot: `create_bot(settings, store=..., evaluator=...)` returns a configured `commands.Bot`,
and `run_discord(settings, token)` opens what the bot needs and runs it.

Resources (the store, the PHP evaluator) are opened by `run_discord` with `async with`
and passed in, as discord.py's `advanced_startup` example does: whoever opens a
resource closes it, and the bot never guesses what it owns. `setup_hook` adds the
cogs with typed dependencies, registers the persistent buttons, re-arms the games
that were running, and syncs the command tree.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from enum import StrEnum
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import rules
from bot.common import SetsDirectory
from bot.games import DYNAMIC_ITEMS, Announcer, DigitsSource, Evaluating, GamesCog, GameService
from bot.i18n import CatalogTranslator, locale_of, t, use_synced_commands
from bot.leaderboards import LeaderboardsCog, PageButton
from bot.sets_admin import SetsAdminCog, SetsManager
from bot.settings import BotSettings
from bot.storage import Store, open_store
from evaluator import open_evaluator

log = logging.getLogger(__name__)


class Feature(StrEnum):
    """The bot's features; each is one cog (tests may run a few)."""

    GAMES = "games"
    SETS = "sets"
    LEADERBOARDS = "leaderboards"


FEATURES: tuple[Feature, ...] = tuple(Feature)


def discord_clock() -> float:
    """Discord's idea of now (UTC seconds); simcord's virtual clock in tests."""
    return discord.utils.utcnow().timestamp()


class GameTree(app_commands.CommandTree["FormulaDartsBot"]):
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


class FormulaDartsBot(commands.Bot):
    def __init__(
        self,
        settings: BotSettings,
        *,
        store: Store,
        evaluator: Evaluating,
        digits_source: DigitsSource | None = None,
        features: Sequence[Feature] = FEATURES,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            help_command=None,
            tree_cls=GameTree,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False),
        )
        self.settings = settings
        self.features = tuple(features)
        self.store = store
        self.evaluator = evaluator
        self.announcer = Announcer(self)
        self.service = GameService(
            store,
            evaluator,
            rules.load_sets(settings.sets_file),
            self.announcer,
            clock=discord_clock,
            digits_source=digits_source,
        )
        self.sets: SetsDirectory = self.service.sets

    def _cog(self, feature: Feature) -> commands.Cog:
        if feature is Feature.GAMES:
            return GamesCog(self, self.service, self.announcer)
        if feature is Feature.SETS:
            return SetsAdminCog(SetsManager(self.sets))
        return LeaderboardsCog(self.store, self.sets)

    async def setup_hook(self) -> None:
        for feature in self.features:
            await self.add_cog(self._cog(feature))
        self.add_dynamic_items(*DYNAMIC_ITEMS, PageButton)
        recovered = await self.service.recover()
        if recovered:
            log.info("recovered %d active game(s)", recovered)
        await self.tree.set_translator(CatalogTranslator())
        await self._sync()

    async def _sync(self) -> None:
        guild_id = self.settings.dev_guild_id
        if guild_id is None:
            synced = await self.tree.sync()
        else:
            guild = discord.Object(guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        use_synced_commands(synced)
        log.info("synced %d command(s) %s", len(synced), f"to {guild_id}" if guild_id else "")

    async def close(self) -> None:
        await self.service.close()
        await super().close()


def create_bot(
    settings: BotSettings | None = None,
    *,
    store: Store,
    evaluator: Evaluating,
    digits_source: DigitsSource | None = None,
    features: Sequence[Feature] = FEATURES,
) -> FormulaDartsBot:
    """The configured bot; settings come from the environment (and `.env`) when None.

    The store and the evaluator stay the caller's to close.
    """
    return FormulaDartsBot(
        settings or BotSettings(),
        store=store,
        evaluator=evaluator,
        digits_source=digits_source,
        features=features,
    )


async def run_discord(settings: BotSettings, token: str) -> None:
    """Open the store and the PHP sandbox, run the bot until it stops, close them."""
    async with (
        await open_store(settings.database_url) as store,
        await open_evaluator(settings.evaluator_settings) as evaluator,
        create_bot(settings, store=store, evaluator=evaluator) as bot,
    ):
        await bot.start(token)
