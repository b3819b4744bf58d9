"""The rooms' Discord face for the flow (`bot.play._room_shows.RoomFace`): a thread per room,
one message per round (posted, then edited into its reveal), the final table with its
chart. Every call here is a bot-token call inside the REST budget (`with_retry`); what
rides a player's interaction (the lobby, answers, the progress line) is in `_cog`.
"""

from __future__ import annotations

import io
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any, Literal

import discord

from bot.charts import ChartRenderer
from bot.games import Announcer, Lane, RestBudget, with_retry
from bot.i18n import t
from bot.play import ChannelLost
from bot.rooms._chart import room_chart
from bot.rooms._progress import Progress
from bot.rooms._render import final_text, lobby_closed_text, reveal_embed, round_embed
from bot.rooms._views import RoomAct, buttons
from bot.storage import RoomRecord
from solver.result import Candidate

THREAD_ARCHIVE_MINUTES: Literal[1440] = 1440
NONE = discord.AllowedMentions.none()


def round_view(record: RoomRecord) -> discord.ui.View:
    rnd = record.state.rounds[-1]
    acts = [RoomAct.ANSWER, RoomAct.QUIT]
    return buttons(record.state.id, record.locale, acts, rnd.number)


def chart_file(png: bytes | None) -> list[discord.File]:
    """A new File each try (a sent one is consumed)."""
    return [] if png is None else [discord.File(io.BytesIO(png), filename="room.png")]


@asynccontextmanager
async def place_lost() -> AsyncIterator[None]:
    """Discord refusing for good (the thread or message deleted, the bot's rights taken)
    becomes `ChannelLost`: the flow stops owing what can never be shown there."""
    try:
        yield
    except discord.Forbidden:
        raise ChannelLost("forbidden") from None
    except discord.NotFound:
        raise ChannelLost("not_found") from None


MESSAGE_MAX = 2000
"""Discord's cap on a message's content."""


class DiscordRoomFace:
    def __init__(
        self, bot: discord.Client, budget: RestBudget, progress: Progress, announcer: Announcer,
        charts: ChartRenderer | None,
    ) -> None:  # fmt: skip
        self.bot = bot
        self.budget = budget
        self.progress = progress
        self.announcer = announcer
        self.charts = charts

    def _thread(self, record: RoomRecord) -> Any:
        assert record.thread_id is not None
        return self.bot.get_partial_messageable(record.thread_id, guild_id=record.guild_id)

    async def open_thread(self, record: RoomRecord) -> int:
        """A public thread on the lobby's message, so everyone in the channel may watch."""
        channel = self.bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
        assert record.lobby_message_id is not None
        message = channel.get_partial_message(record.lobby_message_id)
        name = t("rooms.thread", record.locale, set=record.state.game_set.name)[:100]
        thread = await with_retry(
            lambda: message.create_thread(name=name, auto_archive_duration=THREAD_ARCHIVE_MINUTES),
            f"room {record.state.id}: its thread",
            self.budget,
        )
        return thread.id

    async def post_round(self, record: RoomRecord) -> tuple[int, float]:
        thread = self._thread(record)
        message = await with_retry(
            lambda: thread.send(embed=round_embed(record), view=round_view(record)),
            f"room {record.state.id}: a round",
            self.budget,
        )
        return message.id, message.created_at.timestamp()

    async def end_round(
        self, record: RoomRecord, number: int, message_id: int, best: Sequence[Candidate | None]
    ) -> None:
        """Edit round `number`'s message into its reveal; the last round's progress edits
        stop first (an owed reveal of an earlier round leaves the live one's alone)."""
        room_id = record.state.id
        message = self._thread(record).get_partial_message(message_id)
        async with self.progress.lock(room_id), place_lost():
            if number == len(record.state.rounds):
                self.progress.stop(room_id)
            await with_retry(
                lambda: message.edit(embed=reveal_embed(record, best, number), view=None),
                f"room {room_id}: a reveal",
                self.budget,
            )

    async def lobby_closed(self, record: RoomRecord) -> None:
        if record.lobby_message_id is None:
            return
        channel = self.bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
        message = channel.get_partial_message(record.lobby_message_id)
        await with_retry(
            lambda: message.edit(
                content=lobby_closed_text(record), view=None, allowed_mentions=NONE
            ),
            f"room {record.state.id}: its lobby",
            self.budget,
        )

    async def _with_earned(self, record: RoomRecord, text: str) -> str:
        """The final table and what the room earned (`bot.achievements`), the lines that
        fit a message."""
        earned = self.announcer.achievements
        for line in await earned.room_lines(record) if earned is not None else []:
            if len(text) + 1 + len(line) <= MESSAGE_MAX:
                text = f"{text}\n{line}"
        return text

    async def finished(self, record: RoomRecord) -> None:
        """The final table, the chart of every player's Score (when the chart worker runs),
        and Share; nothing to chart for a void room."""
        self.progress.forget(record.state.id)
        png = None
        if self.charts is not None and record.state.standings:
            names = {  # a name seen lately, else "Player N": never a raw id
                p: self.announcer.names.seen_name(int(p))
                or t("charts.player", record.locale, number=i)
                for i, p in enumerate(record.state.players, start=1)
            }
            png = await self.charts.render(room_chart, record.state, record.locale, names)
        view = buttons(record.state.id, record.locale, [RoomAct.SHARE])
        if not record.state.standings:
            view = discord.ui.View()
        if record.thread_id is None:
            return
        thread = self._thread(record)
        text = await self._with_earned(record, final_text(record))
        async with place_lost():
            await with_retry(
                lambda: thread.send(text, files=chart_file(png), view=view, allowed_mentions=NONE),
                f"room {record.state.id}: its table",
                self.budget,
                lane=Lane.GAMES,
            )
