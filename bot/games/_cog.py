"""The games' slash commands: /training, /qualification, /duel, /answer, /resign, /rules.

Each command checks the bot may play in the channel (`_places`), acknowledges the
interaction before any database work or bot-token call, makes one GameService call
and replies; the buttons' and the modal's handlers are in `_controls`.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from typing import Any, Literal, assert_never

import discord
from discord import app_commands
from discord.ext import commands

from bot.common import UserError, timestamp
from bot.common.interactions import refuse, reply, set_choices
from bot.games import _render as render
from bot.games._announce import Announcer
from bot.games._controls import GameControlsCog
from bot.games._delivery import USERS_ONLY
from bot.games._discord import admit_start, threads_in
from bot.games._places import NEEDED, private_thread, public_thread, require
from bot.games._riding import InteractionVia
from bot.games._views import challenge_view
from bot.i18n import locale_of, t
from bot.i18n.translator import cmd
from bot.play import DEFAULT_LEVEL, GameError, GameService, OpenChannel, Refusal
from bot.rules_text import rules_pages
from rules import FormulaLanguage, GameSet, Mode
from solver.practice import Level

log = logging.getLogger(__name__)
OneStarts = Literal[Mode.TRAINING, Mode.QUALIFICATION, Mode.PRACTICE]
"""The modes a player starts alone (a duel starts from an accepted challenge)."""

Interaction = discord.Interaction[Any]

SET_OPTION = cmd("option.set", "the Set (variant) to play; darts by default")
LEVEL_CHOICES = [
    app_commands.Choice(name=cmd(f"practice.level.{level.value}", level.value), value=level.value)
    for level in Level
]


async def _quietly(call: Awaitable[object], what: str) -> None:
    """A clean-up that may fail (it is logged): the failure being cleaned up matters more."""
    try:
        await call
    except discord.HTTPException:
        log.warning("%s failed", what)


class GamesCog(commands.Cog, name="Games"):
    def __init__(
        self, service: GameService, announcer: Announcer, controls: GameControlsCog
    ) -> None:
        self.service = service
        self.announcer = announcer
        self.controls = controls

    async def autocomplete_set(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        playable = await self.service.playable_sets(interaction.guild_id or 0)
        return set_choices((s.game_set for s in playable), current, locale_of(interaction))

    # -------------------------------------------------------------- commands

    @app_commands.command(
        name=cmd("training.name", "training"),
        description=cmd("training.description", "Play a Training game (unranked)"),
    )
    @app_commands.rename(set_name=cmd("option.set.name", "set"))
    @app_commands.describe(set_name=SET_OPTION)
    @app_commands.autocomplete(set_name=autocomplete_set)
    @app_commands.guild_only()
    async def training(self, interaction: Interaction, set_name: str = "darts") -> None:
        await self._start_single(interaction, Mode.TRAINING, set_name)

    @app_commands.command(
        name=cmd("qualification.name", "qualification"),
        description=cmd(
            "qualification.description", "Play today's ranked Qualification (same Digits for all)"
        ),
    )
    @app_commands.rename(set_name=cmd("option.set.name", "set"))
    @app_commands.describe(set_name=SET_OPTION)
    @app_commands.autocomplete(set_name=autocomplete_set)
    @app_commands.guild_only()
    async def qualification(self, interaction: Interaction, set_name: str = "darts") -> None:
        await self._start_single(interaction, Mode.QUALIFICATION, set_name)

    @app_commands.command(
        name=cmd("practice.name", "practice"),
        description=cmd("practice.description", "A duel against Formula Darts itself (unranked)"),
    )
    @app_commands.rename(
        level=cmd("option.level.name", "level"), set_name=cmd("option.set.name", "set")
    )
    @app_commands.describe(
        level=cmd("option.level", "how well the bot plays; skilled by default"),
        set_name=SET_OPTION,
    )
    @app_commands.choices(level=LEVEL_CHOICES)
    @app_commands.autocomplete(set_name=autocomplete_set)
    @app_commands.guild_only()
    async def practice(
        self,
        interaction: Interaction,
        level: app_commands.Choice[str] | None = None,
        set_name: str = "darts",
    ) -> None:
        chosen = Level(level.value) if level is not None else DEFAULT_LEVEL
        await self._start_single(interaction, Mode.PRACTICE, set_name, chosen)

    @app_commands.command(
        name=cmd("duel.name", "duel"),
        description=cmd("duel.description", "Challenge another player to an Online Duel"),
    )
    @app_commands.rename(
        opponent=cmd("option.opponent.name", "opponent"), set_name=cmd("option.set.name", "set")
    )
    @app_commands.describe(
        opponent=cmd("option.opponent", "who you challenge"), set_name=SET_OPTION
    )
    @app_commands.autocomplete(set_name=autocomplete_set)
    @app_commands.guild_only()
    async def duel(
        self,
        interaction: Interaction,
        opponent: discord.Member | discord.User,
        set_name: str = "darts",
    ) -> None:
        locale = locale_of(interaction)
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            await reply(interaction, t("errors.need_text_channel", locale))
            return
        if not isinstance(opponent, discord.Member):
            await refuse(interaction, GameError(Refusal.NOT_ON_SERVER, user=opponent.id))
            return
        try:
            require(interaction.app_permissions, NEEDED[Mode.DUEL])
            self._admit(channel.id)
        except UserError as error:
            await refuse(interaction, error)
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            challenge = await self.service.create_challenge(
                interaction.guild_id or 0, channel.id, interaction.user.id, opponent.id,
                opponent.bot, set_name, locale,
            )  # fmt: skip
        except UserError as error:
            await refuse(interaction, error)
            return
        posted = t(
            "duel.challenge.posted",
            locale,
            opponent=opponent.mention,
            expires=timestamp(challenge.expires_at, "T"),
        )
        await interaction.edit_original_response(content=posted)  # completes "thinking"
        message = await interaction.followup.send(
            render.challenge_text(challenge, challenge.locale),  # the server's language, if set
            view=challenge_view(challenge.id, challenge.locale),
            allowed_mentions=USERS_ONLY,
            wait=True,
        )
        await self.service.challenge_posted(challenge, message.id)

    @app_commands.command(
        name=cmd("answer.name", "answer"),
        description=cmd("answer.description", "Answer the current round of your game"),
    )
    @app_commands.rename(formula=cmd("option.formula.name", "formula"))
    @app_commands.describe(formula=cmd("option.formula", "a PHP formula using the Digits in order"))
    @app_commands.guild_only()
    async def answer(self, interaction: Interaction, formula: str) -> None:
        """Acknowledged before any database work (Discord's 3 s): the game is looked up
        by the channel (memory), else by the player (the store)."""
        await interaction.response.defer(ephemeral=True, thinking=True)
        record = self.service.game_in_channel(interaction.channel_id or 0)
        if record is None:
            record = await self.service.game_of(interaction.guild_id or 0, interaction.user.id)
        if record is None:
            await refuse(interaction, GameError(Refusal.NO_GAME))
            return
        await self.controls.handle_answer(interaction, record.state.id, None, formula)

    @app_commands.command(
        name=cmd("resign.name", "resign"),
        description=cmd("resign.description", "Give up your current game"),
    )
    @app_commands.guild_only()
    async def resign(self, interaction: Interaction) -> None:
        locale = locale_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            await self.service.resign(interaction.guild_id or 0, interaction.user.id)
        except UserError as error:
            await refuse(interaction, error)
            return
        await reply(interaction, t("games.resigned", locale))

    @app_commands.command(
        name=cmd("rules.name", "rules"),
        description=cmd("rules.description", "How Formula Darts is played"),
    )
    @app_commands.rename(set_name=cmd("option.set.name", "set"))
    @app_commands.describe(set_name=cmd("option.rules_set", "whose formula rules (its language)"))
    @app_commands.autocomplete(set_name=autocomplete_set)
    async def rules(self, interaction: Interaction, set_name: str | None = None) -> None:
        """The rules; for a Set in another language than PHP, its formula page."""
        locale = locale_of(interaction)
        lang = FormulaLanguage.PHP
        if set_name is not None:
            try:
                lang = (await self.service.set_named(interaction.guild_id or 0, set_name)).language
            except UserError as error:
                await refuse(interaction, error)
                return
        embeds = [
            discord.Embed(title=title, description=text, colour=render.COLOR_ROUND)
            for title, text in rules_pages(locale, lang)
        ]
        await interaction.response.send_message(embeds=embeds[:10], ephemeral=True)

    # -------------------------------------------------------------- handlers

    def _admit(self, channel_id: int) -> None:
        """Refused when a new game's thread in `channel_id` would be late: a clear "try
        again in N minutes" instead of a game queued behind a 429 or the backlog."""
        admit_start(self.announcer.budget, threads_in(channel_id))

    async def start_qualification(self, interaction: Interaction, set_name: str) -> None:
        """The daily post's Play button: the new day's Qualification, as /qualification."""
        await self._start_single(interaction, Mode.QUALIFICATION, set_name)

    async def _start_single(
        self, interaction: Interaction, mode: OneStarts, set_name: str, level: Level = DEFAULT_LEVEL
    ) -> None:
        """Permissions first, then the acknowledgement, then the game. Training plays in a
        public thread on a public notice; Qualification in a private thread only its
        player sees (the day's Digits must not leak before the day ends). Private games
        (`SOLO_GAMES`, `/config games`, the service decides) are played in messages only
        their player sees, riding the player's interactions (no bot-token call, no
        thread: nothing a moderator could read either); a start while such a game runs
        shows its round again (an ephemeral message is gone when Discord's app reloads).
        The thread's permissions are checked only when a thread is to be made, still
        before anything is posted or an attempt used."""
        locale = locale_of(interaction)
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            await reply(interaction, t("errors.need_text_channel", locale))
            return
        await interaction.response.defer(ephemeral=True, thinking=True)
        player = interaction.user
        me = interaction.client.user
        privately = InteractionVia(interaction, self.service.clock, completes=None)
        try:
            if await self.service.show_again(interaction.guild_id or 0, player.id, privately):
                return
        except UserError as error:
            await refuse(interaction, error)
            return

        open_thread = self._thread_opener(interaction, mode, channel, locale)
        guild_id = interaction.guild_id or 0
        try:
            match mode:
                case Mode.PRACTICE:
                    bot_id = me.id if me is not None else 0
                    await self.service.start_practice(
                        guild_id, player.id, bot_id, level, set_name, locale, open_thread,
                        parent_channel_id=channel.id, privately=privately,
                    )  # fmt: skip
                case Mode.TRAINING | Mode.QUALIFICATION:
                    await self.service.start_single(
                        mode, guild_id, player.id, set_name, locale, open_thread,
                        parent_channel_id=channel.id, privately=privately,
                    )  # fmt: skip
                case _:
                    assert_never(mode)
        except UserError as error:
            await refuse(interaction, error)
            return
        await self._warn_of_the_start_limit(interaction, guild_id, locale)

    async def _warn_of_the_start_limit(
        self, interaction: Interaction, guild_id: int, locale: str
    ) -> None:
        """The start limit said before it bites: one start left, or none until a time."""
        left, free_at = await self.service.starts_left(guild_id, interaction.user.id)
        if left > 1:
            return
        key = "details.starts.last" if left == 0 else "details.starts.one_left"
        await interaction.followup.send(t(key, locale, at=int(free_at)), ephemeral=True)

    def _thread_opener(
        self, interaction: Interaction, mode: OneStarts, channel: discord.TextChannel, locale: str
    ) -> OpenChannel:
        """What opens a solo game's thread, when the service asks for one."""
        player = interaction.user
        me = interaction.client.user
        budget = self.announcer.budget
        guild_id = interaction.guild_id or 0

        async def open_thread(game_set: GameSet) -> int:
            """The first edit completes the private "thinking" reply, so the public notice
            after it is a message of its own; all of these are webhook calls, outside
            the bot token's global limit."""
            require(interaction.app_permissions, NEEDED[mode])
            self._admit(channel.id)  # only a game with a thread: a private one is never refused
            names = [player.display_name]
            if mode is Mode.PRACTICE and me is not None:
                names.append(me.display_name)
            public = await self.service.public_locale(guild_id, locale)  # /config language
            name = render.thread_name(mode, names, game_set.name, public)
            if mode is Mode.QUALIFICATION:
                thread_id = await private_thread(channel, name, player, budget)
                text = t(
                    "games.started.private", locale, set=game_set.name, thread=f"<#{thread_id}>"
                )
                await interaction.edit_original_response(content=text)
                return thread_id
            await interaction.edit_original_response(content=t("games.starting", locale))
            notice = await interaction.followup.send(
                t(
                    f"games.started.{mode.value}",
                    public,
                    player=player.mention,
                    set=game_set.name,
                    rounds=game_set.max_rounds,
                    time=game_set.time_limit,
                ),
                allowed_mentions=USERS_ONLY,
                wait=True,
            )
            try:
                thread_id = await public_thread(
                    channel.get_partial_message(notice.id), name, budget
                )
            except BaseException:  # no game without its thread: the notice goes too
                await _quietly(notice.delete(), "deleting the notice of a game that did not open")
                raise
            await interaction.edit_original_response(
                content=t("games.started.here", locale, thread=f"<#{thread_id}>")
            )
            return thread_id

        return open_thread
