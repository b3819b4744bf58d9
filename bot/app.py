"""The bot: `create_bot(settings, store=..., evaluator=...)` returns a configured `commands.Bot`;
`bot.process.run_discord(settings, token)` opens what the bot needs and runs it.

Resources (the store, the PHP evaluator, the solver, the chart worker) are opened by
`run_discord` with `async with` and passed in, as discord.py's `advanced_startup`
example does: whoever opens a resource closes it, and the bot never guesses what it
owns. `setup_hook` adds the cogs with typed dependencies, registers the persistent
buttons and syncs the command tree when it changed; the games that were running are
resumed once the gateway is ready (`_recover_when_ready`), so a replayed round's
clock starts when players can see it.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import Sequence
from enum import StrEnum
from typing import Any, assert_never

import discord
from discord import app_commands
from discord.ext import commands

from bot._tree import MAX_RATELIMIT_WAIT_S, GameTree, intents
from bot.achievements import Rewards
from bot.charts import ChartRenderer
from bot.cli.engine import game_service
from bot.common import SetsDirectory
from bot.config import ConfigCog, ServerConfig
from bot.cup import cup_cog
from bot.daily import Closest, DailyPosts, DiscordChannel
from bot.games import (
    DYNAMIC_ITEMS,
    INVALID_LIMIT,
    Announcer,
    GameControlsCog,
    GamesCog,
    RestBudget,
    ThreadCloser,
    response_trace,
)
from bot.i18n import use_synced_commands
from bot.i18n.translator import CatalogTranslator
from bot.leaderboards import LeaderboardsCog, PageButton
from bot.moderation import AdminCog, Moderation
from bot.observability import Metrics
from bot.play import (
    DigitsSource,
    Evaluating,
    GameService,
    Revealer,
)
from bot.play.rooms import RoomFlow, room_digits
from bot.puzzles import PuzzleDayLines, PuzzleRuns
from bot.puzzles.discord_face import PuzzlesCog
from bot.roles import RoleKeeper, roles_command
from bot.rooms import RoomsCog
from bot.sets_admin import SetsAdminCog, SetsManager
from bot.settings import BotSettings
from bot.sharding import IdentifyGate
from bot.storage import Face, Store
from bot.web import NameBook

log = logging.getLogger(__name__)


class Feature(StrEnum):
    """The bot's features; each is one cog (tests may run a few)."""

    GAMES = "games"
    SETS = "sets"
    LEADERBOARDS = "leaderboards"
    ADMIN = "admin"
    CONFIG = "config"
    CUP = "cup"
    PUZZLES = "puzzles"


FEATURES: tuple[Feature, ...] = tuple(Feature)


def discord_clock() -> float:
    """Discord's idea of now (UTC seconds); simcord's virtual clock in tests."""
    return discord.utils.utcnow().timestamp()


class FormulaDartsBot(commands.AutoShardedBot):
    """discord.py's own sharding: the shards SHARD_COUNT/SHARD_IDS name, or all of
    Discord's recommended count in one process."""

    def __init__(
        self,
        settings: BotSettings,
        *,
        service: GameService,
        evaluator: Evaluating,
        features: Sequence[Feature] = FEATURES,
        metrics: Metrics | None = None,
        revealer: Revealer | None = None,
        charts: ChartRenderer | None = None,
        closest: Closest | None = None,
        identify_gate: IdentifyGate | None = None,
    ) -> None:
        """`service`: the one game engine, built in `main()` (`run_discord`) and handed
        to this face, which attaches its announcer for the games started in Discord.
        `identify_gate` spaces the shards' identifies across processes (`run_discord`
        passes one on the store); without it, discord.py's own 5 s per process."""
        shards = settings.shards
        metrics = metrics or Metrics()
        budget = RestBudget(
            discord_clock,
            processes=shards.processes,
            on_error=metrics.rest_error,
            invalid_limit=INVALID_LIMIT // shards.processes,
        )
        sharding: dict[str, Any] = {"shard_count": shards.count}
        if shards.ids is not None:
            sharding["shard_ids"] = list(shards.ids)
        super().__init__(
            command_prefix=commands.when_mentioned,
            **sharding,
            intents=intents(),
            help_command=None,
            tree_cls=GameTree,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False),
            allowed_installs=app_commands.AppInstallationType(guild=True, user=False),
            max_ratelimit_timeout=MAX_RATELIMIT_WAIT_S,
            http_trace=response_trace(budget),
        )
        self.settings = settings
        self.features = tuple(features)
        self.store = service.store
        self.evaluator = evaluator
        self.revealer = revealer
        self.metrics = metrics
        self.shard_plan = shards
        self.budget = budget
        """Every bot-token call of this process: `with_retry(call, what, self.budget,
        lane=Lane.OPTIONAL)` for optional traffic, `Lane.DAILY` for the daily posts,
        `budget.optional_allowed()`."""
        metrics.bind_rest(budget.stats)
        self.identify_gate = identify_gate
        self._max_concurrency: int | None = None
        self.charts = charts
        self.closer = ThreadCloser(self, budget, discord_clock, shards.owns)
        self.role_keeper = RoleKeeper(self, service.store, discord_clock, budget, shards.owns)
        self.rewards = Rewards(service.store, discord_clock, self.role_keeper)
        """Achievements and role rewards; the Cup calls `champion_crowned`, the puzzles
        `run_finished`."""
        self.announcer = Announcer(self, budget, charts, self.closer, achievements=self.rewards)
        self.service = service
        service.faces.attach(Face.DISCORD, self.announcer, self.announcer)
        self.sets: SetsDirectory = self.service.sets
        self.puzzles = PuzzleRuns(
            service.store, evaluator, self.sets, discord_clock, events=self.rewards
        )
        """Storm, Streak and the daily puzzle, from the pool `run_discord` keeps filled."""
        self.daily = DailyPosts(
            service.store,
            self.sets,
            DiscordChannel(self, budget),
            clock=discord_clock,
            owns=shards.owns,
            closest=closest,
            web_base=settings.web_base_url,
            may_post=budget.optional_allowed,
            winners=self.rewards,
            extras=PuzzleDayLines(self.puzzles),
        )
        self.names = NameBook(service.store, discord_clock)
        """Players' display names from their interactions, kept for the web pages."""
        self._recovery: asyncio.Task[None] | None = None
        self._daily: asyncio.Task[None] | None = None

    def _cogs(self, feature: Feature) -> list[commands.Cog]:
        """A feature's cogs; a new Feature without a case here fails mypy (assert_never)."""
        web = self.settings.web_base_url
        match feature:
            case Feature.GAMES:
                controls = GameControlsCog(self, self.service, self.announcer, self.metrics)
                rooms = RoomFlow(self.store, self.evaluator, self.sets, discord_clock,
                                 room_digits(self.service.flow.digits), self.revealer,
                                 owns=self.shard_plan.owns)  # fmt: skip
                room_cog = RoomsCog(
                    self, rooms, self.budget, self.announcer, self.charts, discord_clock
                )
                return [controls, GamesCog(self.service, self.announcer, controls), room_cog]
            case Feature.SETS:
                return [SetsAdminCog(SetsManager(self.sets))]
            case Feature.ADMIN:
                moderation = Moderation(
                    self.store.games,
                    self.store.moderation,
                    self.store.fairplay,
                    self.service,
                    self.rewards,
                )
                return [AdminCog(moderation)]
            case Feature.CONFIG:
                config = ServerConfig(self.store, discord_clock, on_change=self.daily.poke)
                config_cog = ConfigCog(config, web, self.settings.solo_games.value)
                config_cog.config.add_command(
                    roles_command(self.store, discord_clock, self.role_keeper)
                )
                return [config_cog]
            case Feature.LEADERBOARDS:
                return [LeaderboardsCog(self.store, self.sets, self.charts, web)]
            case Feature.CUP:
                owns = self.shard_plan.owns
                games, store, sets, budget = self.service, self.store, self.sets, self.budget
                return [
                    cup_cog(self, games, store, sets, budget, discord_clock, owns, self.rewards)
                ]
            case Feature.PUZZLES:
                return [PuzzlesCog(self, self.puzzles)]
            case _:
                assert_never(feature)

    async def setup_hook(self) -> None:
        for feature in self.features:
            for cog in self._cogs(feature):
                await self.add_cog(cog)
        self.add_dynamic_items(*DYNAMIC_ITEMS, PageButton)
        await self.tree.set_translator(CatalogTranslator())
        await self._sync()
        try:  # before ready, so an Answer pressed right after a restart finds its game
            await self.service.flow.load()
        except Exception:  # the store is down: the recovery after ready reads it again
            log.exception("loading the running games failed")
        self._recovery = asyncio.create_task(self._recover_when_ready(), name="recovery")
        self._daily = asyncio.create_task(self._daily_when_ready(), name="daily-posts")

    async def _daily_when_ready(self) -> None:
        """The daily posts once the gateway is up (the channels are known then); the
        first round at once, so a post missed while the bot was down is made now."""
        await self.wait_until_ready()
        self.daily.start()
        self.role_keeper.start()  # what a restart left undone, then what comes

    async def _recover_when_ready(self) -> None:
        """Resume games once players can see the bot: a replayed round posted before the
        gateway connects would run its clock while nobody can answer."""
        await self.wait_until_ready()
        recovered = await self.service.recover()
        if recovered:
            log.info("recovered %d active game(s)", recovered)
        try:
            await self.closer.recover(self.store.games)
        except Exception:  # threads auto-archive anyway: never a reason to stop the bot
            log.exception("scheduling the finished games' threads to archive failed")

    async def _sync(self) -> None:
        """Sync the command tree only when its payload changed since the last sync (global
        command creates are limited per day, and a crash loop must not spend them)."""
        guild_id = self.settings.dev_guild_id
        guild = None if guild_id is None else discord.Object(guild_id)
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        payload = await self._payload(guild)
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        key = f"commands:{guild_id or 'global'}:{self.application_id or 0}"
        if not self.shard_plan.syncs_commands or await self.store.install.get_state(key) == digest:
            synced = await self.tree.fetch_commands(guild=guild)
            log.info("the command tree is unchanged or another shard syncs it; not synced")
        else:
            synced = await self.tree.sync(guild=guild)
            await self.store.install.set_state(key, digest)
            log.info("synced %d command(s) %s", len(synced), f"to {guild_id}" if guild_id else "")
        use_synced_commands(synced)

    async def _payload(self, guild: discord.abc.Snowflake | None) -> list[dict[str, Any]]:
        """What `tree.sync` would send, translations included."""
        translator = self.tree.translator
        commands_ = self.tree.get_commands(guild=guild)
        if translator is None:
            return [c.to_dict(self.tree) for c in commands_]
        return [await c.get_translated_payload(self.tree, translator) for c in commands_]

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """One identify per gateway bucket at a time across the processes on this database
        (`IdentifyGate`), honouring the gateway's `max_concurrency`."""
        if self.identify_gate is None:
            await super().before_identify_hook(shard_id, initial=initial)
            return
        if self._max_concurrency is None:
            try:
                limits = await self.fetch_session_start_limits()
                self._max_concurrency = max(1, limits.max_concurrency)
            except discord.HTTPException:
                log.warning("the gateway's session start limits are unknown; one at a time")
                self._max_concurrency = 1
        window = await self.identify_gate.wait_turn(shard_id or 0, self._max_concurrency)
        log.info("shard %s identifies in window %d", shard_id, window)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        if interaction.guild_id is not None and isinstance(interaction.user, discord.Member):
            self.names.saw(interaction.guild_id, interaction.user.id, interaction.user.display_name)

    async def on_guild_available(self, guild: discord.Guild) -> None:
        await self.names.server_named(guild.id, guild.name)

    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self.names.server_named(guild.id, guild.name)

    async def on_guild_update(self, before: discord.Guild, after: discord.Guild) -> None:
        await self.names.server_named(after.id, after.name)

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self.service.void_where("bot_removed", guild_id=guild.id)
        await self.daily.server_left(guild.id)
        await self.names.server_left(guild.id)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.service.void_where("thread_deleted", channel_id=payload.thread_id)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.service.void_where("channel_deleted", channel_id=channel.id)

    async def close(self) -> None:
        for task in (self._recovery, self._daily):
            if task is not None:
                task.cancel()
        self.daily.stop()
        self.role_keeper.stop()
        await self.names.close()
        await self.service.close()
        self.closer.close()
        await super().close()


def create_bot(
    settings: BotSettings | None = None,
    *,
    store: Store,
    evaluator: Evaluating,
    digits_source: DigitsSource | None = None,
    features: Sequence[Feature] = FEATURES,
    metrics: Metrics | None = None,
    revealer: Revealer | None = None,
    charts: ChartRenderer | None = None,
    closest: Closest | None = None,
    identify_gate: IdentifyGate | None = None,
    service: GameService | None = None,
) -> FormulaDartsBot:
    """The configured bot; settings come from the environment (and `.env`) when None.

    The store and the evaluator stay the caller's to close. `service`: the game engine
    `main()` built; without it, one is built here on `store` (tests).
    """
    settings = settings or BotSettings()
    if service is None:
        service = game_service(
            settings, store, evaluator, clock=discord_clock, revealer=revealer,
            digits_source=digits_source,
        )  # fmt: skip
    return FormulaDartsBot(
        settings,
        service=service,
        evaluator=evaluator,
        features=features,
        metrics=metrics,
        revealer=revealer,
        charts=charts,
        closest=closest,
        identify_gate=identify_gate,
    )
