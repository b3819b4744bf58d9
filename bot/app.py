"""The bot: `create_bot(settings)` returns a configured `commands.Bot`.

Resources (the store, the PHP evaluator) are opened in `setup_hook`, or passed
in by the caller that owns them (tests share one warm evaluator). `setup_hook`
then loads the cogs, registers the persistent buttons, re-arms the games that
were running, and syncs the command tree, as discord.py's advanced_startup does.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

import rules
from bot.games import DYNAMIC_ITEMS, Announcer, DigitsSource, GameService
from bot.i18n import CatalogTranslator, locale_of, t, use_synced_commands
from bot.settings import BotSettings
from bot.storage import Store, open_store
from evaluator import Evaluator, open_evaluator

log = logging.getLogger(__name__)

EXTENSIONS: tuple[str, ...] = ("bot.games", "bot.sets_admin", "bot.leaderboards")
"""Feature modules loaded in order; each has an async `setup(bot)`."""


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
    service: GameService
    announcer: Announcer
    store: Store
    evaluator: Evaluator

    def __init__(
        self,
        settings: BotSettings,
        *,
        store: Store | None = None,
        evaluator: Evaluator | None = None,
        digits_source: DigitsSource | None = None,
        extensions: Sequence[str] = EXTENSIONS,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            help_command=None,
            tree_cls=GameTree,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False),
        )
        self.settings = settings
        self.extension_names = tuple(extensions)
        self._given_store = store
        self._given_evaluator = evaluator
        self._digits_source = digits_source
        self._owned: list[Store | Evaluator] = []

    async def setup_hook(self) -> None:
        global_sets = rules.load_sets(self.settings.sets_file)
        if self._given_store is not None:
            self.store = self._given_store
        else:
            self.store = await open_store(self.settings.database_url)
            self._owned.append(self.store)
        if self._given_evaluator is not None:
            self.evaluator = self._given_evaluator
        else:
            self.evaluator = await open_evaluator(self.settings.evaluator_settings)
            self._owned.append(self.evaluator)
        self.announcer = Announcer(self)
        self.service = GameService(
            self.store,
            self.evaluator,
            global_sets,
            self.announcer,
            clock=discord_clock,
            digits_source=self._digits_source,
        )
        for name in self.extension_names:
            await self.load_extension(name)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
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
        service = getattr(self, "service", None)
        if service is not None:
            await service.close()
        await super().close()
        for resource in reversed(self._owned):
            try:
                await resource.close()
            except Exception:
                log.exception("closing %s failed", type(resource).__name__)
        self._owned.clear()


def create_bot(
    settings: BotSettings | None = None,
    *,
    store: Store | None = None,
    evaluator: Evaluator | None = None,
    digits_source: DigitsSource | None = None,
) -> FormulaDartsBot:
    """The configured bot; settings come from the environment (and `.env`) when None.

    A store or evaluator passed in stays the caller's to close.
    """
    return FormulaDartsBot(
        settings or BotSettings(),
        store=store,
        evaluator=evaluator,
        digits_source=digits_source,
    )
