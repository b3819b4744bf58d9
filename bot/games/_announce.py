"""The Discord side of `GameEvents`: what the players see in the game's thread.

Discord's global limit is per bot token, and interaction responses and followups are
outside it. So a round answered through an interaction rides it (`Via`): the result
is the response's edit of the round's message, the next round (or the summary) its
followup, a duel's "has answered" the answering player's edit: no bot-token call.
What no interaction carries (a timeout, a start's first round, a replay, an answer
from elsewhere) goes with the bot token through a PartialMessageable, so announcing
needs no cache and works from a timer or right after a restart; a carrier that fails
falls back to it. A 403 or 404 on the game's channel is `ChannelLost`: the game is void.
A private game's messages (ephemeral) have no bot-token path: they ride the answer's
interaction or the game's kept one (`Carriers`), and with neither fresh the post
fails as a 5xx would, so the round waits unseen, its clock not started (`Shows`).
"""

from __future__ import annotations

import io
import logging
import secrets
from collections import OrderedDict
from typing import Any, Protocol

import discord

from bot.charts import ChartRenderer, game_chart
from bot.common import fmt, mention
from bot.games import _render as render
from bot.games._closing import ThreadCloser
from bot.games._discord import RestBudget, RestBusy, with_retry
from bot.games._followups import Followups
from bot.games._riding import Carriers, InteractionVia, KeptVia, shows
from bot.games._summary import summary_messages
from bot.games._views import answer_view, rematch_view, summary_view
from bot.i18n import DEFAULT_LOCALE, locale_of, t
from bot.play import UNPOSTED, ChannelLost, Posted, Unreachable, Via
from bot.storage import Challenge, ChallengeStatus, GameRecord, RatingChange, RoomRecord
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


def _kept(carrier: Via) -> KeptVia | None:
    """What a carrier keeps of its interaction (its token, its channel), if it has one."""
    if isinstance(carrier, InteractionVia):
        return carrier.kept
    return carrier if isinstance(carrier, KeptVia) else None


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
        self.carriers = Carriers()
        self.followups = Followups(budget)
        """Every followup and interaction edit of the games, capped and counted."""
        self._seen: OrderedDict[int, str] = OrderedDict()

    def _channel(self, channel_id: int, guild_id: int) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(channel_id, guild_id=guild_id)

    async def _call(self, record: GameRecord, what: str, call: Any) -> Any:
        try:
            return await with_retry(  # under the game's voice: a 429's pause is `Paused`
                call, f"game {record.state.id}: {what}", self.budget, through_pause=False
            )
        except discord.HTTPException as error:
            lost = _lost(error)
            if lost is not None:
                raise lost from error
            raise

    async def _send(
        self,
        record: GameRecord,
        what: str,
        png: bytes | None = None,
        via: Via | None = None,
        lives_s: float = 0.0,
        **kwargs: Any,
    ) -> Posted:
        """Post once: through the answer's interaction when it can carry the post (a
        followup, off the global limit), or the game's kept one, else with the bot
        token, where a retry after a 5xx that in fact went through carries the same
        nonce, so Discord does not post it twice (discord.py sets enforce_nonce). `png` goes as
        CHART_FILE, a new File per try (a sent File is closed). `lives_s`: how long the
        carrier's token must still work after the post (a private round's time, its
        message edited at its deadline by that token): a followup too late for that is
        not made (`Followups`)."""
        kwargs.setdefault("allowed_mentions", USERS_ONLY)

        def chart() -> dict[str, Any]:
            return {} if png is None else {"file": discord.File(io.BytesIO(png), CHART_FILE)}

        carrier = self._carrier(record, via)
        if carrier is not None:
            private = {"ephemeral": True} if record.meta.private else {}
            kept = _kept(carrier)
            until = kept.usable_until() - lives_s if kept is not None else None
            try:
                posted = await self.followups.post(
                    lambda: carrier.post(**kwargs, **private, **chart()),
                    f"game {record.state.id}: {what}", kept, until,
                )  # fmt: skip
            except (discord.HTTPException, RestBusy) as error:
                self._drop_if_dead(record, carrier, error)
                if record.meta.private:
                    raise  # no bot token can post an ephemeral message
                log.warning(
                    "game %s: %s through the interaction failed (%r); by the bot token",
                    record.state.id, what, error,
                )  # fmt: skip
            else:
                if isinstance(carrier, InteractionVia | KeptVia):
                    self.carriers.keep(record.state.id, carrier)
                return posted
        if record.meta.private:
            raise Unreachable(f"game {record.state.id}: {what}: no fresh interaction")
        channel = self._channel(record.channel_id, record.guild_id)
        kwargs.setdefault("nonce", secrets.token_hex(12))
        message: discord.Message = await self._call(
            record, what, lambda: channel.send(**kwargs, **chart())
        )
        return Posted(message.id, message.created_at.timestamp())

    def _drop_if_dead(self, record: GameRecord, carrier: Via, error: Exception) -> None:
        """A dead token is dropped (`Carriers.drop_if_dead`); a private game's step then
        waits for its player's next press, as after a restart (a thread game's goes by
        the bot token)."""
        if self.carriers.drop_if_dead(record.state.id, carrier, error) and record.meta.private:
            raise Unreachable(f"game {record.state.id}: its interaction token is dead") from error

    def _carrier(self, record: GameRecord, via: Via | None) -> Via | None:
        """The answer's interaction when it can show the game, else the game's kept one
        while fresh, else None (the bot token, or nothing if private)."""
        if via is not None and shows(record, via):
            return via
        kept = self.carriers.get(record.state.id)
        return kept if kept is not None and shows(record, kept) else None

    def saw(self, user: discord.abc.User) -> None:
        """Remember the name of a user who just interacted (the bot has no member cache:
        guilds intent only), for the chart's legend; the oldest are forgotten."""
        self._seen.pop(user.id, None)
        self._seen[user.id] = user.display_name
        while len(self._seen) > SEEN_NAMES_MAX:
            self._seen.popitem(last=False)

    def seen_name(self, user_id: int) -> str | None:
        """The name of a user who interacted lately (no REST call), if still remembered."""
        return self._seen.get(user_id)

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

    async def _edit(
        self,
        record: GameRecord,
        message_id: int,
        what: str,
        via: Via | None = None,
        **kwargs: Any,
    ) -> None:
        """Edit a round's message: through the answer's response when that is the message
        its Answer button was on, or the kept interaction that posted it, else with the
        bot token (a private game has none: `Unreachable`)."""
        kept = self.carriers.get(record.state.id)
        editors = (v for v in (via, kept) if v is not None and v.can_edit(message_id))
        editor = next(editors, None)
        if editor is not None:
            try:
                kept = _kept(editor)
                await self.followups.edit(
                    lambda: editor.edit(message_id, **kwargs), f"game {record.state.id}: {what}",
                    kept, kept.usable_until() if kept is not None else None,
                )  # fmt: skip
                if isinstance(editor, InteractionVia):  # the freshest token carries what follows
                    self.carriers.keep(record.state.id, editor)
                return
            except (discord.HTTPException, RestBusy) as error:
                self._drop_if_dead(record, editor, error)
                if record.meta.private:
                    raise
                log.warning(
                    "game %s: %s through the interaction failed (%r); by the bot token",
                    record.state.id, what, error,
                )  # fmt: skip
        if record.meta.private:
            raise Unreachable(f"game {record.state.id}: {what}: no fresh interaction")
        message = self._channel(record.channel_id, record.guild_id).get_partial_message(message_id)
        await self._call(record, what, lambda: message.edit(**kwargs))

    async def _edit_round(
        self, record: GameRecord, number: int, what: str, via: Via | None = None, **kwargs: Any
    ) -> bool:
        """Edit round `number`'s message; False when it has none (its post failed)."""
        message_id = record.meta.round_message_id
        if message_id is None or record.meta.round_message_of not in (None, number):
            return False
        await self._edit(record, message_id, what, via, **kwargs)
        return True

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
        posted = await self._send(
            record,
            f"round {rnd.number}",
            via=via,
            lives_s=lives,
            content=self._players(record) or None,
            embed=render.round_embed(record, locale, replayed=replayed),
            view=answer_view(record.state.id, rnd.number, locale),
            allowed_mentions=USERS_ONLY if ping else NO_PINGS,
        )
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
        await self._edit_round(record, number, "answer received", via, embed=embed)

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
            await self._edit(
                record, older, f"{what} (an earlier post)", via, embed=embed, view=None
            )
        if not await self._edit_round(record, number, what, via, embed=embed, view=None):
            await self._send(record, what, via=via, embed=embed)
        if isinstance(via, InteractionVia) and via.showed_result:
            via.verdict = verdict_text(record, number, via)

    async def round_replaced(self, record: GameRecord, message_id: int) -> None:
        """The round was posted again (after downtime): its old message says so and
        loses its Answer button, so nobody answers from it (issue 21)."""
        locale = record_locale(record)
        embed = render.replaced_embed(record, locale)
        await self._edit(record, message_id, "old round message", embed=embed, view=None)

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
                await self._edit_round(
                    record, last.number, "end of the round", via, embed=embed, view=None
                )
            except Unreachable:  # a private round no token of now can edit: the summary
                log.info("game %s: its last round's message keeps its look", record.state.id)
        earned = await self.achievements.summary_lines(record, locale) if self.achievements else []
        pages = summary_messages(record, ratings, locale, earned)
        png = await self._chart(record, locale) if self._may_attach(record) else None
        for index, embeds in enumerate(pages):
            kwargs: dict[str, Any] = {"embeds": embeds}
            if index == 0:
                content = self._players(record)
                if record.meta.void_reason == UNPOSTED:  # why, now that Discord answers
                    content = f"{content}\n{t('games.void_unposted', locale)}".strip()
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
                await self._send(record, what, via=via, **kwargs)

    def _may_attach(self, record: GameRecord) -> bool:
        """Whether the bot has Attach Files in the game's thread, as the gateway's cache
        knows (unknown: try, and a 403 on the upload still sends it without): an upload
        that 403s on every game counts toward Discord's invalid-request ban."""
        guild = self.client.get_guild(record.guild_id)
        me = guild.me if guild is not None else None
        place = guild.get_channel_or_thread(record.channel_id) if guild is not None else None
        if me is None or place is None:
            return True
        if place.permissions_for(me).attach_files:
            return True
        log.info("game %s: no Attach Files in its thread; the summary goes without its chart",
                 record.state.id)  # fmt: skip
        return False

    async def _with_chart(
        self, record: GameRecord, what: str, png: bytes, via: Via | None, kwargs: dict[str, Any]
    ) -> None:
        """The first summary message with its chart; without Attach Files (a 403 on the
        upload) it goes without the chart, never not at all."""
        embeds: list[discord.Embed] = kwargs["embeds"]
        embeds[0].set_image(url=f"attachment://{CHART_FILE}")
        try:
            await self._send(record, what, png, via, **kwargs)
            return
        except ChannelLost as lost:
            if lost.reason != "forbidden":
                raise
            log.warning("game %s: the chart was refused (no Attach Files?); without it",
                        record.state.id)  # fmt: skip
        embeds[0].set_image(url=None)
        await self._send(record, what, via=via, **kwargs)

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
        except (discord.HTTPException, RestBusy):
            return False  # unknown is not gone
        return False
