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

from bot.cup._render import (
    announcement,
    bracket_text,
    cancelled_text,
    champion_text,
    decided_text,
    leg_text,
    match_title,
)
from bot.cup._views import check_in_view, ready_id, ready_view
from bot.games import Lane, RestBudget, with_retry
from bot.play import GameService
from bot.storage import Challenge, CupRecord
from rules import GameSet
from rules.cup import CupState, Match

log = logging.getLogger(__name__)
MESSAGE_MAX = 2000
HISTORY_LIMIT = 100
"""Messages of a match's thread read for a leg's call (one request): the call is the
newest of the bot's messages until its leg starts."""


class DiscordCupFace:
    def __init__(
        self, client: discord.Client, games: GameService, budget: RestBudget | None = None
    ) -> None:
        """`games`: the duel machinery a leg is played on, through its public API."""
        self.client = client
        self.games = games
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

    async def _thread(self, thread_id: int) -> discord.Thread | None:
        found = self.client.get_channel(thread_id)
        if found is None:
            try:
                found = await self._call(
                    lambda: self.client.fetch_channel(thread_id), "cup: a match's thread"
                )
            except (discord.NotFound, discord.Forbidden):
                return None
        return found if isinstance(found, discord.Thread) else None

    async def match_opened(
        self, cup: CupRecord, match: Match, players: tuple[int, int]
    ) -> int | None:
        channel = await self._channel(cup)
        if not isinstance(channel, discord.TextChannel):
            return None
        name = match_title(cup, match, cup.locale)[:100]
        thread = await self._call(
            lambda: channel.create_thread(
                name=name, type=discord.ChannelType.public_thread, auto_archive_duration=1440
            ),
            f"cup {cup.id}: a match's thread",
        )
        return int(thread.id)

    async def match_thread(self, cup: CupRecord, match: Match) -> int | None:
        """Found by its name among the guild's active threads of the Cup's channel that the
        bot made: Discord may have made it just before the process died."""
        me, guild = self.client.user, self.client.get_guild(cup.guild_id)
        if me is None or guild is None:
            return None
        name = match_title(cup, match, cup.locale)[:100]

        def ours(thread: discord.Thread) -> bool:
            return (thread.parent_id, thread.owner_id, thread.name) == (cup.channel_id, me.id, name)

        cached = [t for t in guild.threads if ours(t)]
        if not cached:
            try:
                active = await self._call(guild.active_threads, f"cup {cup.id}: active threads")
            except discord.Forbidden:
                return None
            cached = [t for t in active if ours(t)]
        return min(t.id for t in cached) if cached else None

    async def leg_call_seen(self, cup: CupRecord, thread_id: int, match: Match, leg: int) -> bool:
        me, thread = self.client.user, await self._thread(thread_id)
        if me is None or thread is None:
            return True
        wanted = ready_id(cup.id, match.round, match.slot, leg)

        async def read() -> list[discord.Message]:
            return [m async for m in thread.history(limit=HISTORY_LIMIT)]

        try:
            messages = await self._call(read, f"cup {cup.id}: a match's thread history")
        except (discord.NotFound, discord.Forbidden):
            return True
        return any(
            getattr(item, "custom_id", None) == wanted
            for message in messages if message.author.id == me.id
            for row in message.components for item in getattr(row, "children", ())
        )  # fmt: skip

    async def leg_called(
        self, cup: CupRecord, thread_id: int, match: Match, leg: int, players: tuple[int, int]
    ) -> None:
        thread = await self._thread(thread_id)
        if thread is None:
            return
        text = leg_text(cup, match, leg, players, cup.locale)
        view = ready_view(cup.id, match.round, match.slot, leg, cup.locale)
        mentions = discord.AllowedMentions(users=True, everyone=False, roles=False)
        await self._call(
            lambda: thread.send(content=text, view=view, allowed_mentions=mentions),
            f"cup {cup.id}: leg {leg} called",
        )

    async def match_decided(self, cup: CupRecord, thread_id: int, match: Match) -> None:
        thread = await self._thread(thread_id)
        if thread is None:
            return
        text = decided_text(cup, match, cup.locale)
        none = discord.AllowedMentions.none()
        await self._call(
            lambda: thread.send(content=text, allowed_mentions=none), f"cup {cup.id}: a result"
        )
        try:  # Discord keeps 1,000 active threads a server: a finished match's goes
            await self._call(lambda: thread.edit(archived=True), f"cup {cup.id}: archive")
        except discord.HTTPException:
            log.warning("Cup %s: a finished match's thread could not be archived", cup.id)

    async def start_leg(self, cup: CupRecord, thread_id: int, players: tuple[int, int]) -> str:
        first, second = players
        challenge = await self.games.create_challenge(
            cup.guild_id, thread_id, first, second, False, cup.set_name, cup.locale
        )

        async def in_the_match_thread(accepted: Challenge, game_set: GameSet) -> int:
            del accepted, game_set
            thread = await self._thread(thread_id)
            if thread is not None and thread.archived:
                await self._call(lambda: thread.edit(archived=False), "cup: reopen a thread")
            return thread_id

        record = await self.games.accept_challenge(
            challenge.id, second, cup.locale, in_the_match_thread
        )
        return record.state.id
