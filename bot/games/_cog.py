"""Slash commands and the handlers the buttons and the modal call.

Each handler reads the interaction, makes one GameService call and replies;
refusals (`GameError`) and formula errors become an ephemeral message in the
user's language. Nothing here decides anything about a game.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.common import UserError, fmt, refuse, reply, set_choices, shorten
from bot.games import _render as render
from bot.games._announce import USERS_ONLY, Announcer
from bot.games._discord import with_retry
from bot.games._service import GameService
from bot.games._types import GameError
from bot.games._views import COG_NAME, AnswerModal, challenge_view, rematch_view
from bot.i18n import cmd, describe_eval_error, locale_of, t
from bot.rules_text import rules_pages
from bot.storage import Challenge
from rules import GameSet, Mode

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]


SET_OPTION = cmd("option.set", "the Set (variant) to play; darts by default")


class GamesCog(commands.Cog, name=COG_NAME):
    """The games' commands, and the handlers of their buttons and modal (`GameControls`)."""

    def __init__(self, bot: commands.Bot, service: GameService, announcer: Announcer) -> None:
        self.bot = bot
        self.service = service
        self.announcer = announcer

    async def autocomplete_set(
        self, interaction: Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        playable = await self.service.sets.playable(interaction.guild_id or 0)
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
        self, interaction: Interaction, opponent: discord.Member, set_name: str = "darts"
    ) -> None:
        locale = locale_of(interaction)
        if not isinstance(interaction.channel, discord.TextChannel):
            await reply(interaction, t("errors.need_text_channel", locale))
            return
        try:
            challenge = await self.service.create_challenge(
                interaction.guild_id or 0,
                interaction.channel.id,
                interaction.user.id,
                opponent.id,
                opponent.bot,
                set_name,
            )
        except UserError as error:
            await refuse(interaction, error)
            return
        self.announcer.challenge_locales[challenge.id] = locale
        await interaction.response.send_message(
            render.challenge_text(challenge, locale),
            view=challenge_view(challenge.id, locale),
            allowed_mentions=USERS_ONLY,
        )
        message = await interaction.original_response()
        await self.service.challenges.attach_message(challenge, message.id)

    @app_commands.command(
        name=cmd("answer.name", "answer"),
        description=cmd("answer.description", "Answer the current round of your game"),
    )
    @app_commands.rename(formula=cmd("option.formula.name", "formula"))
    @app_commands.describe(formula=cmd("option.formula", "a PHP formula using the Digits in order"))
    @app_commands.guild_only()
    async def answer(self, interaction: Interaction, formula: str) -> None:
        record = self.service.game_in_channel(interaction.channel_id or 0)
        if record is None:
            record = await self.service.game_of(interaction.guild_id or 0, interaction.user.id)
        if record is None:
            await refuse(interaction, GameError("no_game"))
            return
        await self.handle_answer(interaction, record.state.id, None, formula)

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
    async def rules(self, interaction: Interaction) -> None:
        locale = locale_of(interaction)
        embeds = [
            discord.Embed(title=title, description=text, colour=render.COLOR_ROUND)
            for title, text in rules_pages(locale)
        ]
        await interaction.response.send_message(embeds=embeds[:10], ephemeral=True)

    # -------------------------------------------------------------- handlers

    async def _start_single(self, interaction: Interaction, mode: Mode, set_name: str) -> None:
        locale = locale_of(interaction)
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            await reply(interaction, t("errors.need_text_channel", locale))
            return

        async def open_thread(game_set: GameSet) -> int:
            await interaction.response.send_message(
                t(
                    f"games.started.{mode.value}",
                    locale,
                    player=interaction.user.mention,
                    set=game_set.name,
                    rounds=game_set.max_rounds,
                    time=game_set.time_limit,
                ),
                allowed_mentions=USERS_ONLY,
            )
            message = await interaction.original_response()
            name = render.thread_name(mode, [interaction.user.display_name], game_set.name, locale)
            thread = await with_retry(
                lambda: message.create_thread(name=name, auto_archive_duration=1440),
                "creating a game thread",
            )
            return thread.id

        try:
            await self.service.start_single(
                mode, interaction.guild_id or 0, interaction.user.id, set_name, locale, open_thread
            )
        except UserError as error:
            await refuse(interaction, error)

    async def open_answer_modal(
        self, interaction: Interaction, game_id: str, round_number: int
    ) -> None:
        locale = locale_of(interaction)
        try:
            rnd = self.service.check_can_answer(game_id, interaction.user.id, round_number)
        except UserError as error:
            await refuse(interaction, error)
            return
        timeout = max(60.0, rnd.deadline - self.service.clock() + 60.0)
        await interaction.response.send_modal(
            AnswerModal(game_id, round_number, rnd.digits, locale, timeout)
        )

    async def handle_answer(
        self, interaction: Interaction, game_id: str, round_number: int | None, formula: str
    ) -> None:
        """A formula from the modal or /answer: an error to retry, or an acknowledgement."""
        locale = locale_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        try:
            result = await self.service.submit(game_id, interaction.user.id, formula, round_number)
        except UserError as error:
            await refuse(interaction, error)
            return
        if result.error is not None:
            await reply(
                interaction,
                t(
                    "games.invalid",
                    locale,
                    formula=discord.utils.escape_mentions(shorten(formula).replace("`", "ˋ")),
                    error=describe_eval_error(result.error, locale, formula),
                ),
            )
            return
        assert result.evaluation is not None
        key = "games.accepted_secret" if result.secret else "games.accepted"
        await reply(
            interaction,
            t(
                key,
                locale,
                formula=result.evaluation.formula,
                result=fmt(result.evaluation.value),
                number=result.round_number,
            ),
        )

    async def accept_challenge(self, interaction: Interaction, challenge_id: str) -> None:
        locale = locale_of(interaction)
        await interaction.response.defer()
        source = interaction.message

        async def open_thread(challenge: Challenge, game_set: GameSet) -> int:
            if source is None:
                raise GameError("challenge_closed")
            names = [
                await self._display_name(interaction, uid)
                for uid in (challenge.challenger_id, challenge.opponent_id)
            ]
            name = render.thread_name(Mode.DUEL, names, game_set.name, locale)
            thread = await with_retry(
                lambda: source.create_thread(name=name, auto_archive_duration=1440),
                "creating a duel thread",
            )
            return thread.id

        try:
            record = await self.service.accept_challenge(
                challenge_id, interaction.user.id, locale, open_thread
            )
        except UserError as error:
            await refuse(interaction, error)
            return
        challenge = await self.service.store.load_challenge(challenge_id)
        if challenge is not None:
            text = render.challenge_text(challenge, locale) + f"\n<#{record.channel_id}>"
            await interaction.edit_original_response(
                content=text, view=None, allowed_mentions=discord.AllowedMentions.none()
            )

    @staticmethod
    async def _display_name(interaction: Interaction, user_id: int) -> str:
        if interaction.user.id == user_id:
            return interaction.user.display_name
        guild = interaction.guild
        if guild is None:
            return str(user_id)
        member = guild.get_member(user_id)
        if member is None:
            try:
                member = await guild.fetch_member(user_id)
            except discord.HTTPException:
                return str(user_id)
        return member.display_name

    async def decline_challenge(self, interaction: Interaction, challenge_id: str) -> None:
        locale = locale_of(interaction)
        try:
            challenge = await self.service.challenges.decline(challenge_id, interaction.user.id)
        except UserError as error:
            await refuse(interaction, error)
            return
        self.announcer.challenge_locales.pop(challenge_id, None)
        await interaction.response.edit_message(
            content=render.challenge_text(challenge, locale),
            view=None,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def rematch(self, interaction: Interaction, game_id: str) -> None:
        locale = locale_of(interaction)
        try:
            challenge = await self.service.rematch(game_id, interaction.user.id)
        except UserError as error:
            await refuse(interaction, error)
            return
        self.announcer.challenge_locales[challenge.id] = locale
        channel = self.bot.get_partial_messageable(
            challenge.channel_id, guild_id=challenge.guild_id
        )
        message = await with_retry(
            lambda: channel.send(
                render.challenge_text(challenge, locale),
                view=challenge_view(challenge.id, locale),
                allowed_mentions=USERS_ONLY,
            ),
            "posting a rematch challenge",
        )
        await self.service.challenges.attach_message(challenge, message.id)
        sent = t("duel.rematch_sent", locale, channel=f"<#{challenge.channel_id}>")
        try:
            await interaction.response.edit_message(
                view=rematch_view(game_id, locale, disabled=True)
            )
        except discord.HTTPException as error:
            log.warning("game %s: could not disable the Rematch button: %s", game_id, error)
        await reply(interaction, sent)

    async def report_error(self, interaction: Interaction, error: BaseException) -> None:
        """The last resort: log it, tell the user politely, never show a traceback."""
        log.error("interaction failed", exc_info=error)
        try:
            await reply(interaction, t("errors.internal", locale_of(interaction)))
        except discord.HTTPException:
            log.warning("could not even report the error to the user")
