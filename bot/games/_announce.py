"""The Discord side of `GameEvents`: what the players see in the game's thread.

A round costs as few bot-token calls as the design allows (Discord's global limit is
per token): its message is posted once, edited when a duel player has answered, and
edited again into the round's result, so a single-player round is two calls (the
result edit and the next round's post) and a duel round three. Sends go through a
PartialMessageable, so announcing needs no cache and works from a timer or right
after a restart. A 403 or 404 on the game's channel is `ChannelLost`: the game is void.
"""

from __future__ import annotations

import io
import logging
import secrets
from collections import OrderedDict
from typing import Any

import discord

from bot.charts import ChartRenderer, game_chart
from bot.common import mention
from bot.games import _render as render
from bot.games._closing import ThreadCloser
from bot.games._discord import RestBudget, with_retry
from bot.games._summary import summary_messages
from bot.games._types import ChannelLost, Posted
from bot.games._views import answer_view, rematch_view, summary_view
from bot.i18n import DEFAULT_LOCALE, t
from bot.storage import Challenge, ChallengeStatus, GameRecord, RatingChange
from rules import Mode

log = logging.getLogger(__name__)

USERS_ONLY = discord.AllowedMentions(everyone=False, roles=False, users=True)
NO_PINGS = discord.AllowedMentions.none()
CHART_FILE = "score.png"
REPING_AFTER_S = 600.0
SEEN_NAMES_MAX = 10_000
"""Names kept for chart legends (about 1 MiB)."""
"""A replayed round pings its players again only if nothing pinged them this recently,
so a bot in a crash loop does not ping every player on every start."""


def record_locale(record: GameRecord) -> str:
    return record.meta.locale or DEFAULT_LOCALE


def _lost(error: discord.HTTPException) -> ChannelLost | None:
    if isinstance(error, discord.Forbidden):
        return ChannelLost("forbidden")
    if isinstance(error, discord.NotFound):
        return ChannelLost("not_found")
    return None


class Announcer:
    """Posts rounds, edits them into results, posts summaries; implements `Presence` too."""

    def __init__(
        self,
        client: discord.Client,
        budget: RestBudget,
        charts: ChartRenderer | None = None,
        closer: ThreadCloser | None = None,
    ) -> None:
        self.client = client
        self.budget = budget
        self.charts = charts
        self.closer = closer
        self._seen: OrderedDict[int, str] = OrderedDict()

    def _channel(self, channel_id: int, guild_id: int) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(channel_id, guild_id=guild_id)

    async def _call(self, record: GameRecord, what: str, call: Any) -> Any:
        try:
            return await with_retry(call, f"game {record.state.id}: {what}", self.budget)
        except discord.HTTPException as error:
            lost = _lost(error)
            if lost is not None:
                raise lost from error
            raise

    async def _send(
        self, record: GameRecord, what: str, png: bytes | None = None, **kwargs: Any
    ) -> discord.Message:
        """Post once: a retry after a 5xx that in fact went through carries the same nonce,
        so Discord does not post it twice (discord.py sets enforce_nonce with a nonce).
        `png` goes as CHART_FILE, a new File per try (a sent File is closed)."""
        channel = self._channel(record.channel_id, record.guild_id)
        kwargs.setdefault("allowed_mentions", USERS_ONLY)
        kwargs.setdefault("nonce", secrets.token_hex(12))

        def send() -> Any:
            if png is None:
                return channel.send(**kwargs)
            return channel.send(**kwargs, file=discord.File(io.BytesIO(png), CHART_FILE))

        message: discord.Message = await self._call(record, what, send)
        return message

    def saw(self, user: discord.abc.User) -> None:
        """Remember the name of a user who just interacted (the bot has no member cache:
        guilds intent only), for the chart's legend; the oldest are forgotten."""
        self._seen.pop(user.id, None)
        self._seen[user.id] = user.display_name
        while len(self._seen) > SEEN_NAMES_MAX:
            self._seen.popitem(last=False)

    def _names(self, record: GameRecord, locale: str) -> dict[str, str]:
        """The players' names the client knows or saw interact lately (no REST call for a
        picture); "Player N" for the others (a restart forgets), never a raw id."""
        guild = self.client.get_guild(record.guild_id)
        names = {}
        for index, player in enumerate(record.state.players):
            known: str | None = None
            if player.isdigit():
                user_id = int(player)
                member = (guild.get_member(user_id) if guild else None) or self.client.get_user(
                    user_id
                )
                known = member.display_name if member else self._seen.get(user_id)
            names[player] = known or t("charts.player", locale, number=index + 1)
        return names

    async def _chart(self, record: GameRecord, locale: str) -> bytes | None:
        """The Score chart, or None: a chart that fails or is late is logged by the
        renderer, and the summary goes without it."""
        if self.charts is None or not record.state.rounds:
            return None
        return await self.charts.render(game_chart, record, locale, self._names(record, locale))

    async def _edit_round(self, record: GameRecord, what: str, **kwargs: Any) -> bool:
        """Edit the live round's message; False when there is none to edit."""
        message_id = record.meta.round_message_id
        if message_id is None:
            return False
        channel = self._channel(record.channel_id, record.guild_id)
        message = channel.get_partial_message(message_id)
        await self._call(record, what, lambda: message.edit(**kwargs))
        return True

    @staticmethod
    def _players(record: GameRecord) -> str:
        return " ".join(mention(p) for p in record.state.players)

    async def round_started(self, record: GameRecord, *, replayed: bool = False) -> Posted:
        """Only the first round (and a replayed one, unless its players were pinged lately)
        pings the players; later rounds name them without a notification."""
        locale = record_locale(record)
        rnd = record.state.rounds[-1]
        last_ping = record.meta.pinged_at
        stale = last_ping is None or rnd.started_at - last_ping > REPING_AFTER_S
        ping = (rnd.number == 1 or replayed) and stale
        message = await self._send(
            record,
            f"round {rnd.number}",
            content=self._players(record),
            embed=render.round_embed(record, locale, replayed=replayed),
            view=answer_view(record.state.id, rnd.number, locale),
            allowed_mentions=USERS_ONLY if ping else NO_PINGS,
        )
        return Posted(message.id, message.created_at.timestamp(), pinged=ping)

    async def answer_received(self, record: GameRecord, player: int) -> None:
        """A duel's round message says who has answered (never what): an edit, not a post."""
        del player
        locale = record_locale(record)
        await self._edit_round(record, "answer received", embed=render.round_embed(record, locale))

    async def round_resolved(self, record: GameRecord, number: int) -> None:
        """The round's message becomes its result (and loses its Answer button)."""
        locale = record_locale(record)
        embed = render.result_embed(record, number, locale)
        if not await self._edit_round(record, f"result of round {number}", embed=embed, view=None):
            await self._send(record, f"result of round {number}", embed=embed)

    async def game_over(self, record: GameRecord, ratings: list[RatingChange]) -> None:
        """The summary, in as many messages as Discord needs; the end pings the players,
        the first message shows the Score chart (when the renderer drew it), and the last
        carries Share (and a duel's Rematch). A round that ended without
        answers (a timeout, a resignation) loses its Answer button first."""
        locale = record_locale(record)
        last = record.state.rounds[-1] if record.state.rounds else None
        if last is not None and not all(a is not None for a in last.answers):
            await self._edit_round(
                record, "end of the round", embed=render.round_embed(record, locale), view=None
            )
        pages = summary_messages(record, ratings, locale)
        png = await self._chart(record, locale)
        for index, embeds in enumerate(pages):
            kwargs: dict[str, Any] = {"embeds": embeds}
            if index == 0:
                kwargs["content"] = self._players(record)
                if png is not None:
                    embeds[0].set_image(url=f"attachment://{CHART_FILE}")
                    kwargs["png"] = png
            else:
                kwargs["allowed_mentions"] = NO_PINGS
            if index == len(pages) - 1:  # Share, and a duel's Rematch
                duel = record.state.mode is Mode.DUEL
                view = rematch_view if duel else summary_view
                kwargs["view"] = view(record.state.id, locale)
            await self._send(record, f"summary {index + 1}/{len(pages)}", **kwargs)
        if self.closer is not None:
            self.closer.game_over(record)

    async def challenge_closed(self, challenge: Challenge, status: ChallengeStatus) -> None:
        challenge.status = status
        if not challenge.message_id:
            return
        message = self._channel(challenge.channel_id, challenge.guild_id).get_partial_message(
            challenge.message_id
        )
        await with_retry(
            lambda: message.edit(
                content=render.challenge_text(challenge, challenge.locale),
                view=None,
                allowed_mentions=discord.AllowedMentions.none(),
            ),
            f"challenge {challenge.id}: {status}",
            self.budget,
        )

    async def has_left(self, guild_id: int, user_id: str) -> bool:
        """Whether the player is gone from the server: asked only when they missed a
        deadline (the members intent, which would tell it for free, is privileged)."""
        guild = self.client.get_guild(guild_id)
        if guild is None:
            return True
        if guild.get_member(int(user_id)) is not None:
            return False
        try:
            await with_retry(lambda: guild.fetch_member(int(user_id)), "member check", self.budget)
        except discord.NotFound:
            return True
        except discord.HTTPException:
            return False  # unknown is not gone
        return False
