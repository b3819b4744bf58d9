"""`/room` and the rooms' buttons and modal: Discord interactions into `RoomFlow` calls.

What a player does rides their own interaction: the lobby's message is the command's
response and each Join, Leave or Start edits it through the presser's token; an answer's
modal is acknowledged as an update of the round's message, its verdict is a private
followup, and "who has answered" is that same message edited through the answering
players' tokens (`Progress`). The bot token is left for what no player did: the thread,
each round's post and reveal, the lobby's deadline, the final table (`_face`).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.charts import ChartRenderer
from bot.common import UserError, fmt
from bot.common.interactions import echo_formula, refuse, reply, report_unexpected
from bot.games import Announcer, Lane, RestBudget, with_retry
from bot.i18n import describe_eval_error, locale_of, t
from bot.i18n.translator import cmd
from bot.play.rooms import Clock, RoomFlow
from bot.rooms._face import DiscordRoomFace, round_view
from bot.rooms._progress import Progress
from bot.rooms._render import lobby_closed_text, lobby_text, round_embed
from bot.rooms._share import room_card
from bot.rooms._views import (
    COG_NAME,
    RoomAct,
    RoomAnswerModal,
    RoomButton,
    buttons,
    parse_room_answer,
)
from bot.storage import RoomRecord
from rules.room import MAX_PLAYERS, MIN_PLAYERS, Phase

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
LOBBY_ACTS = [RoomAct.JOIN, RoomAct.LEAVE, RoomAct.START]


class RoomsCog(commands.Cog, name=COG_NAME):
    def __init__(
        self, bot: commands.Bot | commands.AutoShardedBot, flow: RoomFlow, budget: RestBudget,
        announcer: Announcer, charts: ChartRenderer | None, clock: Clock,
    ) -> None:  # fmt: skip
        self.bot = bot
        self.flow = flow
        self.budget = budget
        self.progress = Progress(clock)
        flow.face = DiscordRoomFace(bot, budget, self.progress, announcer, charts)
        self._recovery: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(RoomButton)
        self._recovery = asyncio.create_task(self._recover_when_ready(), name="rooms-recovery")

    async def cog_unload(self) -> None:
        if self._recovery is not None:
            self._recovery.cancel()
        self.flow.close()
        self.progress.close()

    async def _recover_when_ready(self) -> None:
        await self.bot.wait_until_ready()
        try:
            count = await self.flow.recover()
        except Exception:
            log.exception("resuming the rooms failed")
            return
        if count:
            log.info("resumed %d room(s)", count)

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.flow.void_where(thread_id=payload.thread_id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        await self.flow.void_where(guild_id=guild.id)

    # ------------------------------------------------------------------ /room

    @app_commands.command(
        name=cmd("rooms.name", "room"),
        description=cmd("rooms.description", "Open a room: 2 to 20 players, one game (unranked)"),
    )
    @app_commands.rename(
        set_name=cmd("option.set.name", "set"), size=cmd("rooms.size.name", "size")
    )
    @app_commands.describe(size=cmd("rooms.size", "how many players at most (2-20)"))
    @app_commands.guild_only()
    async def room(
        self,
        interaction: Interaction,
        set_name: str | None = None,
        size: app_commands.Range[int, MIN_PLAYERS, MAX_PLAYERS] = MAX_PLAYERS,
    ) -> None:
        locale = locale_of(interaction)
        if interaction.guild_id is None or interaction.channel_id is None:
            return
        try:
            public = (await self.flow.store.servers.settings(interaction.guild_id)).language
            record = await self.flow.open(
                interaction.guild_id, interaction.channel_id, interaction.user.id, set_name, size,
                public or locale,
            )  # fmt: skip
        except UserError as error:
            await refuse(interaction, error)
            return
        await interaction.response.send_message(
            lobby_text(record),
            view=buttons(record.state.id, record.locale, LOBBY_ACTS),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        message = await interaction.original_response()
        await self.flow.lobby_posted(record.state.id, message.id)

    # ------------------------------------------------------------------ buttons

    async def on_room_button(
        self, interaction: Interaction, act: RoomAct, room_id: str, round_number: int
    ) -> None:
        user = interaction.user.id
        try:
            match act:
                case RoomAct.ANSWER:
                    await self._open_modal(interaction, room_id, round_number)
                case RoomAct.SHARE:
                    await self._share(interaction, room_id)
                case RoomAct.QUIT:
                    await interaction.response.defer()
                    record = await self.flow.leave(room_id, user)
                    await reply(interaction, t("rooms.left", locale_of(interaction)))
                    await self._show_progress(interaction, record)
                case _:
                    await interaction.response.defer()
                    record = await self._lobby(act, room_id, user)
                    await self._show_lobby(interaction, record)
        except UserError as error:
            await refuse(interaction, error)

    async def _lobby(self, act: RoomAct, room_id: str, user: int) -> RoomRecord:
        if act is RoomAct.JOIN:
            return await self.flow.join(room_id, user)
        if act is RoomAct.START:
            return await self.flow.begin(room_id, user)
        return await self.flow.leave(room_id, user)

    @staticmethod
    async def _show_lobby(interaction: Interaction, record: RoomRecord) -> None:
        none = discord.AllowedMentions.none()
        if record.state.phase is Phase.LOBBY:
            view = buttons(record.state.id, record.locale, LOBBY_ACTS)
            await interaction.edit_original_response(
                content=lobby_text(record), view=view, allowed_mentions=none
            )
        else:
            await interaction.edit_original_response(
                content=lobby_closed_text(record), view=None, allowed_mentions=none
            )

    async def _open_modal(self, interaction: Interaction, room_id: str, round_number: int) -> None:
        """The modal must be the first response: checked on the cached room when it has one."""
        rnd = await self.flow.can_answer(room_id, interaction.user.id, round_number)
        modal = RoomAnswerModal(room_id, round_number, rnd.digits, locale_of(interaction))
        await interaction.response.send_modal(modal)

    async def _share(self, interaction: Interaction, room_id: str) -> None:
        locale = locale_of(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)
        record = await self.flow.store.rooms.load(room_id)
        if record is None or str(interaction.user.id) not in record.state.players:
            await reply(interaction, t("rooms.error.not_a_player", locale))
            return
        key = f"rshare:{room_id}:{interaction.user.id}"  # once per player, as a game's
        if not await self.flow.store.install.claim_state(key, str(self.flow.clock())):
            await reply(interaction, t("errors.share_done", locale))
            return
        channel = self.bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
        text = t("share.posted", record.locale, user=interaction.user.mention)
        text += "\n" + room_card(record, str(interaction.user.id), record.locale)
        try:
            await with_retry(
                lambda: channel.send(text, allowed_mentions=discord.AllowedMentions.none()),
                f"room {room_id}: share", self.budget, lane=Lane.OPTIONAL,
            )  # fmt: skip
        except BaseException:  # not posted: it may be pressed again
            await self.flow.store.install.drop_state(key)
            raise
        await reply(interaction, t("share.sent", locale, channel=f"<#{record.channel_id}>"))

    # ------------------------------------------------------------------ answers

    @commands.Cog.listener()
    async def on_interaction(self, interaction: Interaction) -> None:
        submitted = parse_room_answer(interaction)
        if submitted is None:
            return
        try:
            await self._answer(interaction, *submitted)
        except UserError as error:
            await refuse(interaction, error)
        except Exception as error:
            await report_unexpected(interaction, error)

    async def _answer(
        self, interaction: Interaction, room_id: str, round_number: int, formula: str
    ) -> None:
        """Counted when Discord took it; acknowledged as an update of the round's message,
        so the verdict is private and the progress line rides this same token."""
        locale = locale_of(interaction)
        received = interaction.created_at.timestamp()
        await interaction.response.defer()
        answered = await self.flow.submit(
            room_id, interaction.user.id, formula, round_number, received
        )
        lang = answered.record.state.game_set.language
        if answered.error is not None:
            text = describe_eval_error(answered.error, locale, formula, lang=lang)
            await reply(interaction, t("games.invalid", locale, formula=echo_formula(formula),
                                       error=text))  # fmt: skip
            return
        assert answered.evaluation is not None
        await reply(
            interaction,
            t("rooms.accepted", locale, formula=answered.evaluation.formula,
              result=fmt(answered.evaluation.value, lang), number=round_number),
        )  # fmt: skip
        if answered.round_open:
            await self._show_progress(interaction, answered.record)

    async def _show_progress(self, interaction: Interaction, record: RoomRecord) -> None:
        rnd = record.state.current_round
        shown = interaction.message
        if rnd is None or shown is None or shown.id != record.round_message_id:
            return  # a round played again has a new message; the old one is left as it was
        room_id, number = record.state.id, rnd.number

        def render() -> tuple[discord.Embed, discord.ui.View] | None:
            latest = self.flow.latest.get(room_id)
            now = None if latest is None else latest.state.current_round
            if latest is None or now is None or now.number != number:
                return None
            return round_embed(latest), round_view(latest)

        await self.progress.touch(room_id, interaction, render)
