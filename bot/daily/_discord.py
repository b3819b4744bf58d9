"""Sending the daily post to its channel through discord.py, and finding it there."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

import discord

from bot.daily._render import daily_embed, daily_view, marked
from bot.daily._service import DailyContent
from bot.storage import ChannelGone

log = logging.getLogger(__name__)

HISTORY_LIMIT = 100
"""How many messages after a taken-over claim are read to find its post."""


def _gone(error: discord.HTTPException) -> ChannelGone:
    return ChannelGone.FORBIDDEN if isinstance(error, discord.Forbidden) else ChannelGone.NOT_FOUND


class DiscordChannel:
    """`PostChannel` on a discord.py client: a channel that is gone or closed to the
    bot is reported (a `ChannelGone`), a transient failure raises."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def _channel(self, channel_id: int) -> discord.TextChannel | ChannelGone:
        channel = self.client.get_channel(channel_id) or await self.client.fetch_channel(channel_id)
        return channel if isinstance(channel, discord.TextChannel) else ChannelGone.NOT_FOUND

    async def post(self, channel_id: int, content: DailyContent) -> int | ChannelGone:
        try:
            channel = await self._channel(channel_id)
            if isinstance(channel, ChannelGone):
                return channel
            message = await channel.send(
                embed=daily_embed(content),
                view=daily_view(content),
                allowed_mentions=discord.AllowedMentions.none(),
                nonce=content.nonce,  # discord.py sends enforce_nonce with it
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
            async for message in channel.history(limit=HISTORY_LIMIT, after=after):
                if me is not None and message.author.id == me.id and marked(message, marker):
                    return message.id
        except discord.NotFound:
            return ChannelGone.NOT_FOUND
        except discord.Forbidden:  # no Read Message History: posting is all that is left
            log.warning("daily post %s: the channel's history cannot be read", marker)
        return None
