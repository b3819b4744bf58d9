"""Sending the daily post to its channel through discord.py."""

from __future__ import annotations

import discord

from bot.daily._render import daily_embed, daily_view
from bot.daily._service import DailyContent


class DiscordChannel:
    """`PostChannel` on a discord.py client: a channel that is gone or closed to the
    bot is reported (None), a transient failure raises."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client

    async def post(self, channel_id: int, content: DailyContent) -> int | None:
        try:
            channel = self.client.get_channel(channel_id) or await self.client.fetch_channel(
                channel_id
            )
            if not isinstance(channel, discord.TextChannel):
                return None
            message = await channel.send(
                embed=daily_embed(content),
                view=daily_view(content),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except (discord.Forbidden, discord.NotFound):
            return None
        return message.id
