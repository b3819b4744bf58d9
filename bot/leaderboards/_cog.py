"""/leaderboard qualification|duel, /stats, /history and /game.

Commands only parse options and pick a page; the store answers the queries and
`_render` draws them. Answers are public (a leaderboard is for showing off), and
only the asker turns a message's pages; others get their own private copy.
"""

from __future__ import annotations

import io
from dataclasses import replace
from typing import Any
from urllib.parse import urlencode

import discord
from discord import app_commands
from discord.ext import commands

import rules
from bot.achievements import stats_field
from bot.charts import GAMES_MAX, ChartRenderer, stats_chart, stats_input
from bot.common import CHOICE_NAME_MAX, CHOICES_MAX, SetsDirectory, UnknownSet, UserError
from bot.common.interactions import refuse, set_choices
from bot.config import web_address
from bot.i18n import locale_of, t
from bot.i18n.translator import cmd
from bot.leaderboards import _pages, _render_player
from bot.leaderboards._pages import (
    COG_NAME,
    DuelPages,
    GamePages,
    HistoryPages,
    PageRequest,
    QualificationPages,
)
from bot.storage import GameRecord, Store
from bot.views import BoardPeriod, version_label, voided
from rules import GameSet, Mode

Interaction = discord.Interaction[Any]
ID_MAX = 40
"""Game ids are 32 characters; the cap keeps the paging custom_id under Discord's 100."""
LEGACY_CHOICE = "old"
"""What the version option says for games stored before versions (stored as "")."""


class UnknownVersion(UserError):
    def __init__(self, set_name: str, version: str) -> None:
        super().__init__("unknown_version", set=set_name, version=version)


PERIOD_CHOICES = [
    app_commands.Choice(name=cmd("leaderboards.leaderboard.period.today", "today"), value="today"),
    app_commands.Choice(name=cmd("leaderboards.leaderboard.period.week", "week"), value="week"),
    app_commands.Choice(name=cmd("leaderboards.leaderboard.period.all", "all"), value="all"),
]
assert [c.value for c in PERIOD_CHOICES] == list(BoardPeriod), "a choice per BoardPeriod"


STATS_FILE = "stats.png"


def _counts(record: GameRecord) -> bool:
    """Finished and not voided (by the game, or later by an admin): what /stats counts."""
    return record.state.outcome is not None and not voided(record)


SHARE_NAME = cmd("details.option.share.name", "share")
SHARE = cmd("details.option.share", "post someone else's for the channel too (yours always are)")


def _private(interaction: Interaction, who: discord.abc.User, share: bool) -> bool:
    """Someone else's stats or history answer only the one who asked, unless shared."""
    return who.id != interaction.user.id and not share


async def publish(interaction: Interaction, **message: Any) -> None:
    """A public message after a private deferral: the first edit completes the private
    "thinking" reply (a followup would take its visibility), the page follows as a
    message of its own, and the private reply goes. All webhook calls, outside the
    bot token's global limit."""
    await interaction.edit_original_response(content="…")
    await interaction.followup.send(**message)
    await interaction.delete_original_response()


class LeaderboardsCog(commands.Cog, name=COG_NAME):
    leaderboard = app_commands.Group(
        name=cmd("leaderboards.leaderboard.name", "leaderboard"),
        description=cmd("leaderboards.leaderboard.description", "The server's leaderboards"),
        guild_only=True,
    )

    def __init__(
        self,
        store: Store,
        sets: SetsDirectory,
        charts: ChartRenderer | None = None,
        web_base: str | None = None,
    ) -> None:
        """`web_base`: the web pages' public address; `/game` links its replay there."""
        self.web_base = web_base
        self.store = store
        self.sets = sets
        self.charts = charts

    async def autocomplete_set(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        playable = await self.sets.playable(interaction.guild_id or 0)
        return set_choices((s.game_set for s in playable), current, locale_of(interaction))

    async def autocomplete_version(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The versions of the chosen Set that have games here, the current one first."""
        guild_id = interaction.guild_id or 0
        try:
            game_set = await self.sets.resolve(guild_id, interaction.namespace.set)
        except UnknownSet:
            return []
        played = await self.store.boards.set_versions(guild_id, game_set.name)
        numbers = await self.store.boards.set_version_numbers(guild_id, game_set.name)
        listed = [game_set.version, *(v for v in played if v != game_set.version)]
        locale = locale_of(interaction)
        needle = current.strip().lower()
        labelled = [(v, version_label(v, v == game_set.version, locale, numbers)) for v in listed]
        return [
            app_commands.Choice(name=label[:CHOICE_NAME_MAX], value=v or LEGACY_CHOICE)
            for v, label in labelled
            if needle in (v or LEGACY_CHOICE) or needle in label.lower()
        ][:CHOICES_MAX]

    async def _version(self, guild_id: int, game_set: GameSet, chosen: str | None) -> str:
        """The version a board ranks: the Set's current one unless one with games is chosen."""
        if chosen is None or not chosen.strip():
            return game_set.version
        wanted = chosen.strip().lower()
        wanted = "" if wanted == LEGACY_CHOICE else wanted
        if wanted == game_set.version or wanted in await self.store.boards.set_versions(
            guild_id, game_set.name
        ):
            return wanted
        raise UnknownVersion(game_set.name, chosen.strip())

    async def _show(
        self, interaction: Interaction, request: PageRequest, name: str = "", private: bool = False
    ) -> None:
        """Acknowledged privately before the database is read; an error stays private, a
        page is posted publicly (`publish`) unless `private` (someone else's, unshared)."""
        locale = locale_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        page = await _pages.build(self.store, interaction.guild_id or 0, request, locale, name)
        if page.private:
            await interaction.edit_original_response(embed=page.embed)
            return
        if isinstance(request.listing, GamePages):
            game_id = request.listing.game_id
            page.embed.url = await self._replay_link(interaction.guild_id or 0, game_id)
        if isinstance(request.listing, QualificationPages):
            page.embed.url = await self._board_link(
                interaction.guild_id or 0, request.listing, interaction.user.id
            )
        view = _pages.view_for(page, locale)
        if private:
            await interaction.edit_original_response(embed=page.embed, view=view)
            return
        await publish(interaction, embed=page.embed, **({"view": view} if view else {}))

    async def _replay_link(self, guild_id: int, game_id: str) -> str | None:
        """The game's replay on the server's pages, when they are on."""
        address = await self._web(guild_id)
        return None if address is None else f"{address}g/{game_id}"

    async def _board_link(
        self, guild_id: int, board: QualificationPages, user_id: int
    ) -> str | None:
        """The board on the server's pages opened at the asker's place ("my place")."""
        address = await self._web(guild_id)
        if address is None:
            return None
        wanted = {"set": board.set_name, "period": board.period.value, "me": user_id}
        if board.version:
            wanted["version"] = board.version
        return f"{address}?{urlencode(wanted)}"

    async def _web(self, guild_id: int) -> str | None:
        """The server's web address, when its pages are on and the bot has one."""
        if self.web_base is None:
            return None
        settings = await self.store.servers.settings(guild_id)
        if not settings.web_on or settings.web_key is None:
            return None
        return web_address(self.web_base, settings.web_key)

    @leaderboard.command(
        name=cmd("leaderboards.leaderboard.qualification.name", "qualification"),
        description=cmd(
            "leaderboards.leaderboard.qualification.description",
            "Best Qualification game per player",
        ),
    )
    @app_commands.rename(
        set_name=cmd("option.set.name", "set"),
        period=cmd("leaderboards.leaderboard.option.period.name", "period"),
        version=cmd("leaderboards.leaderboard.option.version.name", "version"),
    )
    @app_commands.describe(
        set_name=cmd("leaderboards.leaderboard.option.set", "the Set; darts by default"),
        period=cmd("leaderboards.leaderboard.option.period", "today, the last 7 days, or all time"),
        version=cmd(
            "leaderboards.leaderboard.option.version",
            "which version of the Set; the current one by default",
        ),
    )
    @app_commands.autocomplete(set_name=autocomplete_set, version=autocomplete_version)
    @app_commands.choices(period=PERIOD_CHOICES)
    async def qualification(
        self,
        interaction: Interaction,
        set_name: str = "darts",
        period: app_commands.Choice[str] | None = None,
        version: str | None = None,
    ) -> None:
        chosen = BoardPeriod.parse(period.value if period else None) or BoardPeriod.TODAY
        guild_id = interaction.guild_id or 0
        try:
            game_set = await self.sets.resolve(guild_id, set_name)
            ranked = await self._version(guild_id, game_set, version)
        except UserError as error:
            await refuse(interaction, error)
            return
        listing = QualificationPages(chosen, game_set.name, ranked)
        await self._show(interaction, PageRequest(listing, interaction.user.id))

    @leaderboard.command(
        name=cmd("leaderboards.leaderboard.duel.name", "duel"),
        description=cmd("leaderboards.leaderboard.duel.description", "Online Duel ratings (Elo)"),
    )
    async def duel(self, interaction: Interaction) -> None:
        await self._show(interaction, PageRequest(DuelPages(), interaction.user.id))

    @app_commands.command(
        name=cmd("leaderboards.stats.name", "stats"),
        description=cmd(
            "leaderboards.stats.description", "A player's games, checkouts and ratings here"
        ),
    )
    @app_commands.rename(user=cmd("leaderboards.option.user.name", "user"), share=SHARE_NAME)
    @app_commands.describe(
        user=cmd("leaderboards.option.user", "whose; yourself by default"), share=SHARE
    )
    @app_commands.guild_only()
    async def stats(
        self, interaction: Interaction, user: discord.Member | discord.User | None = None,
        share: bool = False,
    ) -> None:  # fmt: skip
        who = user or interaction.user
        await interaction.response.defer(ephemeral=True, thinking=True)
        guild_id = interaction.guild_id or 0
        stats = await self.store.boards.player_stats(guild_id, who.id)
        zone = (await self.store.servers.settings(guild_id)).zone
        today = rules.period_of(discord.utils.utcnow(), zone)  # the board counts the same day
        streaks = await self.store.boards.player_streaks(guild_id, who.id, today)
        locale = locale_of(interaction)
        best = stats.best
        lang = (
            await self.store.boards.set_language(guild_id, best.set_name, game_id=best.game_id)
            if best is not None
            else rules.FormulaLanguage.PHP
        )
        embed = _render_player.stats_embed(
            stats, who.display_name, locale, streaks, best_language=lang
        )
        held = await self.store.achievements.held(guild_id, who.id)
        if held:
            name, value = stats_field(held, locale)
            embed.add_field(name=name, value=value, inline=False)
        png = await self._stats_chart(guild_id, who.id, locale)
        files = []
        if png is not None:
            embed.set_image(url=f"attachment://{STATS_FILE}")
            files = [discord.File(io.BytesIO(png), STATS_FILE)]
        if _private(interaction, who, share):
            await interaction.edit_original_response(embed=embed, attachments=files)
            return
        await publish(interaction, embed=embed, **({"file": files[0]} if files else {}))

    async def _stats_chart(self, guild_id: int, user_id: int, locale: str) -> bytes | None:
        """The last GAMES_MAX finished games that count in stats (no practice, no void), or
        None: no renderer, nothing to draw, or the chart failed (the renderer logs why)."""
        if self.charts is None:
            return None
        records = await self.store.games.history(guild_id, user_id, limit=GAMES_MAX)
        counted = [r for r in records if r.state.mode is not Mode.PRACTICE and _counts(r)]
        if not counted:
            return None
        return await self.charts.render(stats_chart, stats_input(counted, user_id), locale)

    @app_commands.command(
        name=cmd("leaderboards.history.name", "history"),
        description=cmd("leaderboards.history.description", "A player's recent games here"),
    )
    @app_commands.rename(user=cmd("leaderboards.option.user.name", "user"), share=SHARE_NAME)
    @app_commands.describe(
        user=cmd("leaderboards.option.user", "whose; yourself by default"), share=SHARE
    )
    @app_commands.guild_only()
    async def history(
        self, interaction: Interaction, user: discord.Member | discord.User | None = None,
        share: bool = False,
    ) -> None:  # fmt: skip
        who = user or interaction.user
        request = PageRequest(HistoryPages(who.id), interaction.user.id)
        await self._show(interaction, request, who.display_name, _private(interaction, who, share))

    @app_commands.command(
        name=cmd("leaderboards.game.name", "game"),
        description=cmd("leaderboards.game.description", "A game round by round"),
    )
    @app_commands.rename(game_id=cmd("leaderboards.option.game_id.name", "id"))
    @app_commands.describe(
        game_id=cmd("leaderboards.option.game_id", "the game's id (the first 8 characters do)")
    )
    @app_commands.guild_only()
    async def game(self, interaction: Interaction, game_id: str) -> None:
        kept = "".join(c for c in game_id.strip() if c.isalnum() or c in "-_")
        key = kept[:ID_MAX]
        await self._show(interaction, PageRequest(GamePages(key), interaction.user.id))

    async def turn_page(self, interaction: Interaction, request: PageRequest) -> None:
        """A page button: in place for the one who asked, a private copy for anyone else;
        acknowledged (which of the two is known from the click alone) before the read."""
        locale = locale_of(interaction)
        mine = interaction.user.id == request.owner
        if mine:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
            request = replace(request, owner=interaction.user.id)
        page = await _pages.build(self.store, interaction.guild_id or 0, request, locale, "")
        view = _pages.view_for(page, locale)
        kwargs: dict[str, Any] = {"embed": page.embed}
        if view is not None:
            kwargs["view"] = view
        if mine:
            await interaction.edit_original_response(**kwargs)
            return
        await interaction.edit_original_response(
            content=t("leaderboards.not_yours", locale), **kwargs
        )
