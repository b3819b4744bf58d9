"""The handlers of the games' buttons and of the answer modal (`GameControls`).

Each handler acknowledges the interaction first (Discord fails an interaction not
answered within 3 s, and a slow database or a rate limit must not do that), then
makes one GameService call and replies; refusals and formula errors become an
ephemeral message in the user's language. The answer modal is handled by its
custom_id (`on_interaction`), so a modal opened before a restart is answered after it.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import discord
from discord.ext import commands

from bot.common import UserError, fmt
from bot.common.interactions import echo_formula, refuse, reply
from bot.games import _render as render
from bot.games._announce import Announcer
from bot.games._discord import Lane, RestBusy, admit_start, threads_in, with_retry
from bot.games._places import POSTING, missing, public_thread
from bot.games._riding import InteractionVia
from bot.games._views import (
    COG_NAME,
    AnswerModal,
    challenge_view,
    parse_answer_submit,
    rematch_view,
)
from bot.i18n import describe_eval_error, formula_texts, locale_of, t
from bot.observability import Metrics, log_context
from bot.play import GameError, GameService, Refusal
from bot.storage import Challenge, GameRecord
from rules import GameSet, Mode

log = logging.getLogger(__name__)
STALE = (Refusal.GAME_OVER, Refusal.ROUND_OVER)
"""What an Answer button's round past its time is refused with: that copy is old."""

Interaction = discord.Interaction[Any]
CLOCK_SKEW_S = 2.0
"""Discord's timestamps and this host's clock should agree this closely; more is logged."""


def next_round_elsewhere(
    record: GameRecord, channel_id: int | None, number: int
) -> dict[str, object] | None:
    """An answer from outside a thread game's thread that started its next round there,
    where the player is not looking: what the reply says of it (the round, its place),
    its clock already running (issue 28). A private game's next round rides the answer."""
    rnd = record.state.current_round
    if record.meta.private or rnd is None or rnd.number <= number:
        return None
    if channel_id is None or channel_id == record.channel_id:
        return None
    return {"number": rnd.number, "thread": f"<#{record.channel_id}>"}


class GameControlsCog(commands.Cog, name=COG_NAME):
    def __init__(
        self,
        bot: commands.Bot | commands.AutoShardedBot,
        service: GameService,
        announcer: Announcer,
        metrics: Metrics,
    ) -> None:
        self.bot = bot
        self.service = service
        self.announcer = announcer
        self.metrics = metrics

    # ------------------------------------------------------------ answering

    async def open_answer_modal(
        self, interaction: Interaction, game_id: str, round_number: int
    ) -> None:
        """The modal must be the first response: checked from the in-memory game alone."""
        locale = locale_of(interaction)
        try:
            rnd = self.service.check_can_answer(game_id, interaction.user.id, round_number)
        except UserError as error:
            waiting = self.service.waits_for(game_id, interaction.user.id)
            if error.code in STALE or waiting:  # an old copy of a round: its button goes
                note = t("details.round.stale", locale)
                await interaction.response.edit_message(content=note, view=None)
                if waiting:
                    await self._show_waiting(interaction, None)
                return
            await refuse(interaction, error)
            return
        timeout = max(60.0, rnd.answer_deadline - self.service.clock() + 60.0)
        lang = self.service.language_of(game_id)  # check_can_answer found it in memory
        await interaction.response.send_modal(
            AnswerModal(game_id, round_number, rnd.digits, locale, timeout, formula_texts(lang))
        )

    async def _show_waiting(self, interaction: Interaction, note: str | None) -> None:
        """The private round that waits unseen for this player (its token aged or died,
        issue 28) shown through this press, its clock starting now: the same as their
        next /training would do. `note` heads the round's message."""
        via = InteractionVia(interaction, self.service.clock, completes=None)
        via.verdict = note
        try:
            await self.service.show_again(interaction.guild_id or 0, interaction.user.id, via)
        except UserError as error:  # a followup: the response was the stale note
            await refuse(interaction, error)
            return
        if note is not None and not via.told:  # shown by nothing: the note alone
            await reply(interaction, note)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        """Every interaction: its user's name for the charts; an answer modal's submit is
        handled here by its custom_id (so one opened before a restart still counts)."""
        self.announcer.names.saw(interaction.user)
        submitted = parse_answer_submit(interaction)
        if submitted is None:
            return
        game_id, round_number, formula = submitted
        try:
            await self.handle_answer(interaction, game_id, round_number, formula)
        except Exception as error:
            await self.report_error(interaction, error)

    async def handle_answer(
        self, interaction: Interaction, game_id: str, round_number: int | None, formula: str
    ) -> None:
        """A formula from the modal or /answer: an error to retry, or an acknowledgement.

        It counts at the moment Discord took it (`interaction.created_at`), not when
        this handler got to it. The Answer button's modal is acknowledged as a deferred
        update, so its response may edit the round's message into its result and its
        followup post the next round (`InteractionVia`); /answer thinks privately
        (it is acknowledged before any database work, by the command).
        """
        locale = locale_of(interaction)
        received = interaction.created_at.timestamp()
        skew = self.service.clock() - received
        if abs(skew) > CLOCK_SKEW_S:
            log.warning("clock skew: this host is %+.1f s from Discord's timestamps", skew)
        component = (
            interaction.type is discord.InteractionType.modal_submit
            and interaction.message is not None
        )
        if not interaction.response.is_done():
            if component:
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)
        if self.service.waits_for(game_id, interaction.user.id):  # typed for no round seen
            await self._show_waiting(interaction, t("token.answer_not_taken", locale))
            return
        taken = None if component else t("games.answer_taken", locale)
        via = InteractionVia(interaction, self.service.clock, completes=taken)
        started = time.perf_counter()
        try:
            with log_context(game_id=game_id, guild_id=interaction.guild_id):
                result = await self.service.submit(
                    game_id, interaction.user.id, formula, round_number, received=received,
                    via=via,
                )  # fmt: skip
        except UserError as error:
            self.metrics.answer_refused(error.code, time.perf_counter() - started)
            await refuse(interaction, error)
            return
        if result.error is None:
            self.metrics.answer_ok(time.perf_counter() - started)
        else:
            self.metrics.answer_error(result.error.code, time.perf_counter() - started)
        if result.error is not None:
            echo = echo_formula(formula)
            lang = result.record.state.game_set.language
            error_text = describe_eval_error(result.error, locale, formula, lang=lang)
            await reply(interaction, t("games.invalid", locale, formula=echo, error=error_text))
            return
        assert result.evaluation is not None
        key = "games.accepted_secret" if result.secret else "games.accepted"
        text = t(
            key,
            locale,
            formula=result.evaluation.formula,
            result=fmt(result.evaluation.value, result.record.state.game_set.language),
            number=result.round_number,
        )
        elsewhere = next_round_elsewhere(result.record, interaction.channel_id, result.round_number)
        if elsewhere is not None:
            text = f"{text}\n{t('token.next_round_there', locale, **elsewhere)}"
        if component:
            if not via.told:  # else it heads the next round's message (or the summary)
                await self._verdict(interaction, via, text)
        else:  # the private original, which a followup of the next round may have completed
            await interaction.edit_original_response(content=text)

    async def _verdict(self, interaction: Interaction, via: InteractionVia, text: str) -> None:
        """The verdict on its own, a followup like the rounds' (`Followups`): under its
        channel's 429 it is not made (the round's message already shows the result),
        where discord.py would hold this handler for the whole Retry-After."""
        try:
            await self.announcer.followups.post(
                lambda: reply(interaction, text), f"verdict of {interaction.user.id}", via.kept
            )
        except RestBusy as busy:
            log.info("a verdict not sent: %s", busy.reason)

    # ----------------------------------------------------------- challenges

    async def accept_challenge(self, interaction: Interaction, challenge_id: str) -> None:
        locale = locale_of(interaction)
        await interaction.response.defer()
        channel, message = interaction.channel, interaction.message

        async def open_thread(challenge: Challenge, game_set: GameSet) -> int:
            if not isinstance(channel, discord.TextChannel) or message is None:
                raise GameError(Refusal.CHALLENGE_CLOSED)
            source = channel.get_partial_message(message.id)
            names = [
                await self._display_name(interaction, uid, self.announcer.names.seen_name(uid))
                for uid in (challenge.challenger_id, challenge.opponent_id)
            ]
            name = render.thread_name(Mode.DUEL, names, game_set.name, challenge.locale)
            return await public_thread(source, name, self.announcer.budget)

        try:
            self._admit(interaction.channel_id or 0)
            record = await self.service.accept_challenge(
                challenge_id, interaction.user.id, locale, open_thread
            )
        except UserError as error:
            await refuse(interaction, error)
            return
        challenge = await self.service.challenge(challenge_id)
        if challenge is not None:
            text = render.challenge_text(challenge, challenge.locale) + f"\n<#{record.channel_id}>"
            await interaction.edit_original_response(
                content=text, view=None, allowed_mentions=discord.AllowedMentions.none()
            )

    def _admit(self, channel_id: int) -> None:
        """An accepted challenge starts a game: refused ("try again in N minutes") while
        its thread in `channel_id` is held by a 429 or the bot-token backlog would show
        its first round late, the challenge left open."""
        admit_start(self.announcer.budget, threads_in(channel_id))

    async def decline_challenge(self, interaction: Interaction, challenge_id: str) -> None:
        await interaction.response.defer()
        try:
            challenge = await self.service.decline_challenge(challenge_id, interaction.user.id)
        except UserError as error:
            await refuse(interaction, error)
            return
        await self._show_closed(interaction, challenge)

    async def cancel_challenge(self, interaction: Interaction, challenge_id: str) -> None:
        await interaction.response.defer()
        try:
            challenge = await self.service.cancel_challenge(challenge_id, interaction.user.id)
        except UserError as error:
            await refuse(interaction, error)
            return
        await self._show_closed(interaction, challenge)

    @staticmethod
    async def _show_closed(interaction: Interaction, challenge: Challenge) -> None:
        await interaction.edit_original_response(
            content=render.challenge_text(challenge, challenge.locale),
            view=None,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def rematch(self, interaction: Interaction, game_id: str) -> None:
        """The first response disables the button (free: an interaction callback); the
        challenge goes to the channel the duel came from, if the bot may post there."""
        locale = locale_of(interaction)
        await interaction.response.edit_message(view=rematch_view(game_id, locale, disabled=True))
        try:
            challenge = await self._post_rematch(interaction, game_id, locale)
        except UserError as error:
            await interaction.edit_original_response(view=rematch_view(game_id, locale))
            await refuse(interaction, error)
            return
        sent = t("duel.rematch_sent", locale, channel=f"<#{challenge.channel_id}>")
        await reply(interaction, sent)

    async def _post_rematch(self, interaction: Interaction, game_id: str, locale: str) -> Challenge:
        record = await self.service.load(game_id)
        guild = interaction.guild
        parent_id = record.meta.parent_channel_id if record is not None else None
        parent = guild.get_channel(parent_id) if guild and parent_id else None
        if guild is not None and isinstance(parent, discord.TextChannel):
            lacking = missing(parent.permissions_for(guild.me), POSTING)
            if lacking:
                raise GameError(
                    Refusal.MISSING_PERMISSIONS_IN, channel=parent.mention, permissions=lacking
                )
        # before the Rematch is taken: a refused one can be pressed again
        self._admit(parent_id or interaction.channel_id or 0)
        challenge = await self.service.rematch(game_id, interaction.user.id, locale)
        channel = self.bot.get_partial_messageable(
            challenge.channel_id, guild_id=challenge.guild_id
        )
        message = await with_retry(
            lambda: channel.send(
                render.challenge_text(challenge, challenge.locale),
                view=challenge_view(challenge.id, challenge.locale),
                allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
            ),
            "posting a rematch challenge",
            self.announcer.budget,
        )
        await self.service.challenge_posted(challenge, message.id)
        return challenge

    async def share(self, interaction: Interaction, game_id: str) -> None:
        """The presser's card, posted once in the server's channel (or the one the game's
        thread hangs off), in the game's language; the presser alone hears back."""
        locale = locale_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        user_id = interaction.user.id
        try:
            share = await self.service.share(game_id, interaction.guild_id or 0, user_id, locale)
        except UserError as error:
            await refuse(interaction, error)
            return
        channel = self.bot.get_partial_messageable(share.channel_id, guild_id=share.guild_id)
        text = t("share.posted", share.locale, user=interaction.user.mention)
        text += "\n" + share.card.text()
        try:
            await with_retry(
                lambda: channel.send(text, allowed_mentions=discord.AllowedMentions.none()),
                f"game {game_id}: share",
                self.announcer.budget,
                lane=Lane.OPTIONAL,
            )
        except BaseException as error:  # a long 429, the network, a cancel: press again
            await self.service.unshare(game_id, user_id)
            if isinstance(error, UserError):  # RestBusy: optional traffic stopped
                await refuse(interaction, error)
                return
            raise
        await reply(interaction, t("share.sent", locale, channel=f"<#{share.channel_id}>"))

    @staticmethod
    async def _display_name(interaction: Interaction, user_id: int, seen: str | None) -> str:
        """A name for the thread: the presser's, a cached member's, one seen lately (the
        challenger posted the challenge minutes ago), else asked of Discord (a bot-token
        call: the members intent, which would tell it for free, is privileged)."""
        if interaction.user.id == user_id:
            return interaction.user.display_name
        if seen is not None:
            return seen
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

    async def report_error(self, interaction: Interaction, error: BaseException) -> None:
        """The last resort: log it, tell the user politely, never show a traceback. A
        refusal of the REST layer's (a Cloudflare ban's `Banned` on the press's own
        response, `RestBusy`) is no fault: the player is told to wait, if anything can
        tell them."""
        try:
            if isinstance(error, UserError):
                log.info("interaction refused: %s", getattr(error, "reason", error.code))
                await refuse(interaction, error)
                return
            log.error("interaction failed", exc_info=error)
            await reply(interaction, t("errors.internal", locale_of(interaction)))
        except (discord.HTTPException, UserError):
            log.warning("could not even report the error to the user")
