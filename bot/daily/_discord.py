"""Sending the daily post to its channel through discord.py, and finding it there.

Every bot-token call (fetching the channel, the send, reading its history) goes through
the process's `RestBudget` in `Lane.DAILY`, below the games' and the optional lane:
thousands of posts at one midnight take only what the games leave, stay under the
global limit, and stop when the budget stops optional traffic (`RestBusy`, which the
service takes as "try again later").
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime

import discord

from bot.daily._content import DailyContent
from bot.daily._render import daily_embed, daily_view, marked
from bot.games import Lane, RestBudget, with_retry
from bot.storage import ChannelGone

log = logging.getLogger(__name__)

HISTORY_LIMIT = 100
"""How many messages after a taken-over claim are read to find its post."""


def _gone(error: discord.HTTPException) -> ChannelGone:
    return ChannelGone.FORBIDDEN if isinstance(error, discord.Forbidden) else ChannelGone.NOT_FOUND


class DiscordChannel:
    """`PostChannel` on a discord.py client: a channel that is gone or closed to the
    bot is reported (a `ChannelGone`), a transient failure raises."""

    def __init__(self, client: discord.Client, budget: RestBudget | None = None) -> None:
        self.client = client
        self.budget = budget

    async def _channel(self, channel_id: int) -> discord.TextChannel | ChannelGone:
        channel = self.client.get_channel(channel_id) or await with_retry(
            lambda: self.client.fetch_channel(channel_id),
            "daily post: fetch its channel",
            self.budget,
            lane=Lane.DAILY,
        )
        return channel if isinstance(channel, discord.TextChannel) else ChannelGone.NOT_FOUND

    async def post(self, channel_id: int, content: DailyContent) -> int | ChannelGone:
        try:
            channel = await self._channel(channel_id)
            if isinstance(channel, ChannelGone):
                return channel
            text = channel
            message = await with_retry(
                lambda: text.send(
                    embed=daily_embed(content),
                    view=daily_view(content),
                    allowed_mentions=discord.AllowedMentions.none(),
                    nonce=content.nonce,  # discord.py sends enforce_nonce with it
                ),
                f"daily post {content.marker}",
                self.budget,
                lane=Lane.DAILY,
            )
        except (discord.Forbidden, discord.NotFound) as error:
            return _gone(error)
        return message.id

    async def find(self, channel_id: int, marker: str, since: float) -> int | ChannelGone | None:
        me = self.client.user
        try:
            channel = await self._channel(channel_id)
            if isinstance(channel, ChannelGone):
                return channel
            after = datetime.fromtimestamp(since, UTC)
            text = channel

            async def read() -> list[discord.Message]:  # HISTORY_LIMIT is one request
                return [m async for m in text.history(limit=HISTORY_LIMIT, after=after)]

            for message in await with_retry(
                read, f"daily post {marker}: its channel's history", self.budget, lane=Lane.DAILY
            ):
                if me is not None and message.author.id == me.id and marked(message, marker):
                    return message.id
        except discord.NotFound:
            return ChannelGone.NOT_FOUND
        except discord.Forbidden:  # no Read Message History: posting is all that is left
            log.warning("daily post %s: the channel's history cannot be read", marker)
        return None
