"""`CupFace` on a discord.py client: a Cup's messages in its channel.

Every bot-token call goes through the process's `RestBudget` in its optional lane
(below the games'): a Cup's few messages never hold up a round, and stop while the
budget stops optional traffic (`RestBusy`: the schedule tries again). The
announcement mentions the qualified players; the bracket, edited in place as results
come in, mentions nobody (an edit would not ping, and a post should not ping twice).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.cup._render import announcement, bracket_text, cancelled_text, champion_text
from bot.cup._views import check_in_view
from bot.games import Lane, RestBudget, with_retry
from bot.storage import CupRecord
from rules.cup import CupState

log = logging.getLogger(__name__)
MESSAGE_MAX = 2000


class DiscordCupFace:
    def __init__(self, client: discord.Client, budget: RestBudget | None = None) -> None:
        self.client = client
        self.budget = budget

    async def _call(self, call: Callable[[], Awaitable[Any]], what: str) -> Any:
        return await with_retry(call, what, self.budget, lane=Lane.OPTIONAL)

    async def _channel(self, cup: CupRecord) -> discord.abc.Messageable | None:
        channel = self.client.get_channel(cup.channel_id)
        if channel is None:
            try:
                channel = await self._call(
                    lambda: self.client.fetch_channel(cup.channel_id), "cup: its channel"
                )
            except (discord.NotFound, discord.Forbidden):
                return None
        return channel if isinstance(channel, discord.abc.Messageable) else None

    async def _send(self, cup: CupRecord, what: str, **kwargs: Any) -> int | None:
        channel = await self._channel(cup)
        if channel is None:
            log.warning("Cup %s: its channel is gone; %s not posted", cup.id, what)
            return None
        try:
            message = await self._call(lambda: channel.send(**kwargs), f"cup {cup.id}: {what}")
        except (discord.NotFound, discord.Forbidden):
            log.warning("Cup %s: its channel refused the %s", cup.id, what)
            return None
        return int(message.id)

    async def announce(self, cup: CupRecord, qualified: list[str], version: str) -> int | None:
        del version
        return await self._send(
            cup, "announcement",
            content=announcement(cup, qualified, cup.locale)[:MESSAGE_MAX],
            view=check_in_view(cup.id, cup.locale),
            allowed_mentions=discord.AllowedMentions(users=True, everyone=False, roles=False),
        )  # fmt: skip

    async def cancelled(self, cup: CupRecord, too_few: bool) -> int | None:
        return await self._send(
            cup, "cancellation", content=cancelled_text(cup, too_few, cup.locale),
            allowed_mentions=discord.AllowedMentions.none(),
        )  # fmt: skip

    async def bracket(self, cup: CupRecord, message_id: int | None) -> int | None:
        text = bracket_text(cup, cup.locale)[:MESSAGE_MAX]
        if message_id is None:
            return await self._send(
                cup, "bracket", content=text, allowed_mentions=discord.AllowedMentions.none()
            )
        channel = await self._channel(cup)
        if not isinstance(channel, discord.TextChannel | discord.Thread):
            return None
        message = channel.get_partial_message(message_id)
        await self._call(lambda: message.edit(content=text), f"cup {cup.id}: its bracket")
        return message_id

    async def champion(self, cup: CupRecord, bracket: CupState) -> int | None:
        return await self._send(
            cup, "champion", content=champion_text(cup, bracket, cup.locale),
            allowed_mentions=discord.AllowedMentions(users=True, everyone=False, roles=False),
        )  # fmt: skip
