"""The Discord side of `GameEvents`: what the players see in the game's thread.

Sends go through a PartialMessageable, so announcing needs no cache and works
from a timer or right after a restart, before any gateway event arrived.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.common import mention
from bot.games import _render as render
from bot.games._discord import with_retry
from bot.games._summary import summary_messages
from bot.games._views import answer_view, rematch_view
from bot.i18n import DEFAULT_LOCALE, t
from bot.storage import Challenge, ChallengeStatus, GameRecord, RatingChange
from rules import Mode

log = logging.getLogger(__name__)

USERS_ONLY = discord.AllowedMentions(everyone=False, roles=False, users=True)
NO_PINGS = discord.AllowedMentions.none()


def record_locale(record: GameRecord) -> str:
    return record.meta.locale or DEFAULT_LOCALE


class Announcer:
    """Posts rounds, results and summaries; remembers a challenge's language while it waits
    and each game's live round message, whose Answer button goes when the round ends."""

    def __init__(self, client: discord.Client) -> None:
        self.client = client
        self.challenge_locales: dict[str, str] = {}
        self.round_messages: dict[str, int] = {}

    def _channel(self, channel_id: int, guild_id: int) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(channel_id, guild_id=guild_id)

    async def _send(self, record: GameRecord, what: str, **kwargs: Any) -> discord.Message:
        channel = self._channel(record.channel_id, record.guild_id)
        kwargs.setdefault("allowed_mentions", USERS_ONLY)
        return await with_retry(lambda: channel.send(**kwargs), f"game {record.state.id}: {what}")

    @staticmethod
    def _players(record: GameRecord) -> str:
        return " ".join(mention(p) for p in record.state.players)

    async def round_started(self, record: GameRecord, *, replayed: bool = False) -> None:
        """Only the first round (and one replayed after downtime) pings the players;
        later rounds name them without a notification."""
        locale = record_locale(record)
        rnd = record.state.rounds[-1]
        ping = rnd.number == 1 or replayed
        message = await self._send(
            record,
            f"round {rnd.number}",
            content=self._players(record),
            embed=render.round_embed(record, locale, replayed=replayed),
            view=answer_view(record.state.id, rnd.number, locale),
            allowed_mentions=USERS_ONLY if ping else NO_PINGS,
        )
        self.round_messages[record.state.id] = message.id

    async def _retire_answer_button(self, record: GameRecord) -> None:
        """The ended round's button would only say "too late": take it away."""
        message_id = self.round_messages.pop(record.state.id, None)
        if message_id is None:
            return
        message = self._channel(record.channel_id, record.guild_id).get_partial_message(message_id)
        try:
            await with_retry(lambda: message.edit(view=None), f"game {record.state.id}: button")
        except discord.HTTPException as error:
            log.warning("game %s: could not remove an old button: %s", record.state.id, error)

    async def answer_received(self, record: GameRecord, player: int) -> None:
        locale = record_locale(record)
        await self._send(
            record,
            "answer received",
            content=t("duel.answered", locale, player=mention(record.state.players[player])),
            allowed_mentions=NO_PINGS,
        )

    async def round_resolved(self, record: GameRecord, number: int) -> None:
        locale = record_locale(record)
        await self._retire_answer_button(record)
        await self._send(
            record,
            f"result of round {number}",
            embed=render.result_embed(record, number, locale),
            allowed_mentions=NO_PINGS,
        )

    async def game_over(self, record: GameRecord, ratings: list[RatingChange]) -> None:
        """The summary, in as many messages as Discord needs; the end pings the players,
        and a duel's Rematch button goes on the last message."""
        locale = record_locale(record)
        await self._retire_answer_button(record)
        pages = summary_messages(record, ratings, locale)
        for index, embeds in enumerate(pages):
            kwargs: dict[str, Any] = {"embeds": embeds}
            if index == 0:
                kwargs["content"] = self._players(record)
            else:
                kwargs["allowed_mentions"] = NO_PINGS
            if index == len(pages) - 1 and record.state.mode is Mode.DUEL:
                kwargs["view"] = rematch_view(record.state.id, locale)
            await self._send(record, f"summary {index + 1}/{len(pages)}", **kwargs)

    async def challenge_closed(self, challenge: Challenge, status: ChallengeStatus) -> None:
        locale = self.challenge_locales.pop(challenge.id, DEFAULT_LOCALE)
        challenge.status = status
        if not challenge.message_id:
            return
        message = self._channel(challenge.channel_id, challenge.guild_id).get_partial_message(
            challenge.message_id
        )
        await with_retry(
            lambda: message.edit(
                content=render.challenge_text(challenge, locale),
                view=None,
                allowed_mentions=discord.AllowedMentions.none(),
            ),
            f"challenge {challenge.id}: {status}",
        )
