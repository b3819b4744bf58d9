"""The Discord side of `GameEvents`: what the players see in the game's thread.

How each message goes (an answer's interaction, the game's kept one, or the bot token)
is `Delivery`'s (bot/games/_delivery.py); this says what: a round, its result, a duel's
"has answered", the summary with its chart and buttons. Each call runs inside the
game's voice (`Shows`), so a bot-token call here never waits out a 429's pause: it is
`Paused`, and the step waits outside the voice (issue 29).
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

import discord

from bot.charts import ChartRenderer, game_chart
from bot.common import fmt, mention
from bot.games import _render as render
from bot.games._closing import ThreadCloser
from bot.games._delivery import CHART_FILE, USERS_ONLY, Delivery
from bot.games._discord import RestBudget, RestBusy, with_retry
from bot.games._names import SeenNames, may_attach
from bot.games._riding import InteractionVia
from bot.games._summary import summary_messages
from bot.games._views import answer_view, rematch_view, summary_view
from bot.games._waits import tell_waiting
from bot.i18n import DEFAULT_LOCALE, locale_of, t
from bot.play import UNPOSTED, UNSEEN, ChannelLost, Posted, Unreachable, Via
from bot.storage import Challenge, ChallengeStatus, GameRecord, RatingChange, RoomRecord
from rules import Mode

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
VOID_NOTES = {UNPOSTED: "games.void_unposted", UNSEEN: "token.void_waited"}
"""What the summary of a game the bot voided for Discord's sake says of it."""
REPING_AFTER_S = 600.0
"""A replayed round pings its players again only if nothing pinged them this recently,
so a bot in a crash loop does not ping every player on every start."""


def record_locale(record: GameRecord) -> str:
    return record.meta.locale or DEFAULT_LOCALE


def verdict_text(record: GameRecord, number: int, via: InteractionVia) -> str | None:
    """The answering player's verdict of round `number`, in their language."""
    player = str(via.interaction.user.id)
    if player not in record.state.players:
        return None
    answer = record.state.rounds[number - 1].answers[record.state.players.index(player)]
    if answer is None:
        return None
    language = record.state.game_set.language
    return t(
        "games.accepted", locale_of(via.interaction), number=number, formula=answer.formula,
        result=fmt(answer.result, language),
    )  # fmt: skip


class SummaryLines(Protocol):
    """Lines a game's summary (or a room's final table) adds: the achievements earned."""

    async def summary_lines(self, record: GameRecord, locale: str) -> list[str]: ...

    async def room_lines(self, record: RoomRecord) -> list[str]:
        """Lines a room's final table adds (the achievements its first place earned)."""
        ...


class Announcer:
    """Posts rounds, edits them into results, posts summaries; implements `Presence` too."""

    def __init__(
        self,
        client: discord.Client,
        budget: RestBudget,
        charts: ChartRenderer | None = None,
        closer: ThreadCloser | None = None,
        achievements: SummaryLines | None = None,
    ) -> None:
        """`achievements` adds what a game earned to its summary (`bot.achievements`)."""
        self.client = client
        self.achievements = achievements
        self.budget = budget
        self.charts = charts
        self.closer = closer
        self.delivery = Delivery(client, budget)
        self.carriers = self.delivery.carriers
        self.followups = self.delivery.followups
        """Every followup and interaction edit of the games, capped and counted."""
        self.names = SeenNames(client)
        """Who interacted lately, for the charts' legends (no member cache, no REST call)."""

    async def _chart(self, record: GameRecord, locale: str) -> bytes | None:
        """The Score chart, or None: a chart that fails or is late is logged by the
        renderer, and the summary goes without it."""
        if self.charts is None or not record.state.rounds:
            return None
        return await self.charts.render(game_chart, record, locale, self.names.of(record, locale))

    @staticmethod
    def _players(record: GameRecord) -> str:
        """The players' mentions; none in a private game's messages (its one reader)."""
        if record.meta.private:
            return ""
        return " ".join(mention(p) for p in record.state.players)

    async def round_started(
        self, record: GameRecord, *, replayed: bool = False, via: Via | None = None
    ) -> Posted:
        """Only the first round (and a replayed one, unless its players were pinged lately)
        pings the players; later rounds name them without a notification."""
        locale = record_locale(record)
        rnd = record.state.rounds[-1]
        last_ping = record.meta.pinged_at
        stale = last_ping is None or rnd.started_at - last_ping > REPING_AFTER_S
        ping = (rnd.number == 1 or replayed) and stale
        lives = float(record.state.game_set.time_limit) if record.meta.private else 0.0
        try:
            posted = await self.delivery.send(
                record,
                f"round {rnd.number}",
                via=via,
                lives_s=lives,
                content=self._players(record) or None,
                embed=render.round_embed(record, locale, replayed=replayed),
                view=answer_view(record.state.id, rnd.number, locale),
                allowed_mentions=USERS_ONLY if ping else NO_PINGS,
            )
        except Unreachable as unreachable:
            if unreachable.waits:  # the player told where it is, while a token can say it
                await tell_waiting(self.carriers, self.followups, record)
            raise
        return Posted(posted.message_id, posted.at, pinged=ping)

    async def answer_received(
        self, record: GameRecord, player: int, via: Via | None = None
    ) -> None:
        """A duel's round message says who has answered (never what): an edit, not a post;
        its Answer button stays (an edit that names no view keeps it)."""
        del player
        locale = record_locale(record)
        number = len(record.state.rounds)
        embed = render.round_embed(record, locale)
        await self.delivery.edit_round(record, number, "answer received", via, embed=embed)

    async def round_resolved(self, record: GameRecord, number: int, via: Via | None = None) -> None:
        """The round's message becomes its result (and loses its Answer button)."""
        locale = record_locale(record)
        embed = render.result_embed(record, number, locale)
        what = f"result of round {number}"
        older = via.source if via is not None else None
        if via is not None and older != record.meta.round_message_id and via.can_edit(older):
            # an earlier post of this round, its Answer pressed (it was posted again after
            # a crash lost the note that it was up): it ends too, free, by the response
            assert older is not None
            await self.delivery.edit(
                record, older, f"{what} (an earlier post)", via, embed=embed, view=None
            )
        if not await self.delivery.edit_round(record, number, what, via, embed=embed, view=None):
            await self.delivery.send(record, what, via=via, embed=embed)
        if isinstance(via, InteractionVia) and via.showed_result:
            via.verdict = verdict_text(record, number, via)

    async def round_replaced(self, record: GameRecord, message_id: int) -> None:
        """The round was posted again (after downtime): its old message says so and
        loses its Answer button, so nobody answers from it (issue 21)."""
        locale = record_locale(record)
        embed = render.replaced_embed(record, locale)
        await self.delivery.edit(record, message_id, "old round message", embed=embed, view=None)

    async def game_over(
        self, record: GameRecord, ratings: list[RatingChange], via: Via | None = None
    ) -> None:
        """The summary, in as many messages as Discord needs; the end pings the players,
        the first message shows the Score chart (when the renderer drew it), and the last
        carries Share (and a duel's Rematch). A round that ended without answers (a
        timeout, a resignation, a void) first reads as ended and loses its Answer button.
        The thread's archive is scheduled whatever became of the summary."""
        try:
            await self._summary(record, ratings, via)
        finally:
            self.carriers.drop(record.state.id)
            if self.closer is not None and not record.meta.private:
                self.closer.game_over(record)

    async def _summary(
        self, record: GameRecord, ratings: list[RatingChange], via: Via | None
    ) -> None:
        locale = record_locale(record)
        last = record.state.rounds[-1] if record.state.rounds else None
        if last is not None and not all(a is not None for a in last.answers):
            embed = render.result_embed(record, last.number, locale)
            try:
                await self.delivery.edit_round(
                    record, last.number, "end of the round", via, embed=embed, view=None
                )
            except Unreachable:  # a private round no token of now can edit: the summary
                log.info("game %s: its last round's message keeps its look", record.state.id)
        earned = await self.achievements.summary_lines(record, locale) if self.achievements else []
        pages = summary_messages(record, ratings, locale, earned)
        png = await self._chart(record, locale) if may_attach(self.client, record) else None
        for index, embeds in enumerate(pages):
            kwargs: dict[str, Any] = {"embeds": embeds}
            if index == 0:
                content = self._players(record)
                note = VOID_NOTES.get(record.meta.void_reason or "")
                if note is not None:  # why, now that Discord answers
                    content = f"{content}\n{t(note, locale)}".strip()
                kwargs["content"] = content or None
            else:
                kwargs["allowed_mentions"] = NO_PINGS
            if index == len(pages) - 1:  # Share, and a duel's Rematch
                duel = record.state.mode is Mode.DUEL
                view = rematch_view if duel else summary_view
                kwargs["view"] = view(record.state.id, locale)
            what = f"summary {index + 1}/{len(pages)}"
            if index == 0 and png is not None:
                await self._with_chart(record, what, png, via, kwargs)
            else:
                await self.delivery.send(record, what, via=via, **kwargs)

    async def _with_chart(
        self, record: GameRecord, what: str, png: bytes, via: Via | None, kwargs: dict[str, Any]
    ) -> None:
        """The first summary message with its chart; without Attach Files (a 403 on the
        upload) it goes without the chart, never not at all."""
        embeds: list[discord.Embed] = kwargs["embeds"]
        embeds[0].set_image(url=f"attachment://{CHART_FILE}")
        try:
            await self.delivery.send(record, what, png, via, **kwargs)
            return
        except ChannelLost as lost:
            if lost.reason != "forbidden":
                raise
            log.warning("game %s: the chart was refused (no Attach Files?); without it",
                        record.state.id)  # fmt: skip
        embeds[0].set_image(url=None)
        await self.delivery.send(record, what, via=via, **kwargs)

    async def challenge_closed(self, challenge: Challenge, status: ChallengeStatus) -> None:
        challenge.status = status
        if not challenge.message_id:
            return
        message = self.delivery.channel(
            challenge.channel_id, challenge.guild_id
        ).get_partial_message(challenge.message_id)
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
        except (discord.HTTPException, RestBusy):
            return False  # unknown is not gone
        return False
