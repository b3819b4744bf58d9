"""An answer's interaction as the carrier of the round it ends (`Via`).

Interaction responses and followups are not under the bot token's global limit, so
the round's result is the answer's response (an edit of the message its Answer
button was on: the modal submit of a component may update that message) and the
next round, or the summary, is its followup. A followup lands in the interaction's
channel, so an answer from elsewhere (/answer outside the thread) carries nothing
there; an interaction's token lives 15 minutes, so an old one carries nothing.

Each game keeps the interaction that posted its latest message (`Carriers`): a
timeout, a resignation or the bot's Practice answer ride it while it is fresh. A
private game (`GameMeta.private`) has no bot-token path at all: its messages are
ephemeral, and only the token that made one can edit it.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord.http import handle_message_parameters
from discord.webhook.async_ import async_context

from bot.play import Clock, Posted, Via
from bot.storage import GameRecord

log = logging.getLogger(__name__)

Interaction = discord.Interaction[Any]

TOKEN_LIFE_S = 15 * 60.0
"""An interaction's token works this long after Discord took it."""
TOKEN_MARGIN_S = 60.0
"""A call this close to the token's end goes by the bot token instead."""
PRIVATE_ROUND_MAX_S = 600
"""The longest round a private game may have: its message is edited at the deadline
by the token that posted it, which lives 15 minutes (less a margin, and the wait for
the last round's best answers before the post)."""
DEAD_TOKEN = frozenset({(401, 50027), (404, 10015)})
"""(status, code) of an interaction token Discord no longer takes: Invalid Webhook Token,
Unknown Webhook. Every call through it would fail the same way (and count toward the
invalid-request ban), so it is dropped at the first (`KeptVia.dead`)."""


def dead_token(error: BaseException) -> bool:
    """Whether `error` says the interaction's token is dead (`DEAD_TOKEN`)."""
    return isinstance(error, discord.HTTPException) and (error.status, error.code) in DEAD_TOKEN


def shows(record: GameRecord, carrier: Via) -> bool:
    """Whether `carrier`'s followup shows the game: one lands in its interaction's
    channel, so a thread game's only from its thread; a private game's anywhere its
    player pressed (an ephemeral message is seen where it lands): an /answer from
    another channel brings the next round there, instead of posting it unseen in the
    game's channel with its clock running (issue 28)."""
    if carrier.can_post(record.channel_id):
        return True
    channel_id = carrier.channel_id
    return record.meta.private and channel_id is not None and carrier.can_post(channel_id)


def plays_privately(round_s: float) -> bool:
    """Whether a game with rounds of `round_s` seconds may be private (`GameMeta.private`):
    else a thread."""
    return round_s <= PRIVATE_ROUND_MAX_S


class KeptVia:
    """What a later step needs of an interaction whose handler is done: its followup
    webhook's id and token, when Discord took it, its channel, the messages it made.
    A running private game keeps one; the whole interaction holds its message, member
    and more.

    It keeps plain data, not discord.py's `Webhook`: a `Webhook` is built per call
    (`webhook`) from the id, the token and the client's shared parts (session, state,
    proxy, the bot token), as `Interaction.followup` builds one. With slots and its
    posted ids in a tuple, one is about 420 bytes where it was 730 with the `Webhook`
    and a set (`python -m bench.bench_memory --kept-via`; docs/BENCHMARKS.md "mem3")."""

    __slots__ = (
        "_auth",
        "_id",
        "_proxy",
        "_proxy_auth",
        "_session",
        "_state",
        "_type",
        "channel_id",
        "clock",
        "dead",
        "original",
        "posted",
        "taken",
        "token",
    )

    source: int | None = None

    def __init__(
        self, webhook: discord.Webhook, clock: Clock, taken: float, channel_id: int | None
    ) -> None:
        self._id = webhook.id
        self._type = webhook.type.value
        self.token = webhook.token
        """The interaction's token: a 15-minute credential, kept in memory only."""
        self._session = webhook.session
        self._proxy = webhook.proxy
        self._proxy_auth = webhook.proxy_auth
        self._auth = webhook.auth_token
        state = webhook._state
        # a partial webhook's state (discord.py's private `_WebhookState`, the one with a
        # `_parent`) holds that webhook: keep what it stands for, the client's state
        self._state = getattr(state, "_parent", state)
        self.clock = clock
        self.taken = taken
        self.channel_id = channel_id
        self.posted: tuple[int, ...] = ()
        """The messages its followups made: only this token may edit an ephemeral one."""
        self.dead = False
        """Discord refused the token (`dead_token`): nothing goes through it again."""
        self.original: int | None = None
        """The message of the component the interaction came from: its `@original`, which
        the token may edit too (a duel's round a player answered, ended at its deadline
        through that player's interaction instead of the bot token)."""

    @property
    def webhook(self) -> discord.Webhook:
        """The followup webhook, built for this call (none is kept between calls)."""
        data: Any = {"id": self._id, "type": self._type, "token": self.token}
        return discord.Webhook(
            data, self._session, token=self._auth, state=self._state, proxy=self._proxy,
            proxy_auth=self._proxy_auth,
        )  # fmt: skip

    def usable_until(self) -> float:
        """When calls through it stop: its token's life less the margin."""
        return self.taken + TOKEN_LIFE_S - TOKEN_MARGIN_S

    def fresh(self) -> bool:
        return not self.dead and self.clock() < self.usable_until()

    def can_edit(self, message_id: int | None) -> bool:
        mine = message_id in self.posted or (message_id is not None and message_id == self.original)
        return mine and self.fresh()

    def can_post(self, channel_id: int) -> bool:
        return channel_id == self.channel_id and self.fresh()

    def outlives(self, round_s: float) -> bool:
        return plays_privately(round_s)

    async def edit(self, message_id: int, **fields: Any) -> None:
        if message_id != self.original:
            await self.webhook.edit_message(message_id, **fields)
            return
        # the route of discord.py's Interaction.edit_original_response, from the token
        # alone (Webhook.edit_message would quote "@original" into the message id)
        webhook = self.webhook
        assert webhook.token is not None
        with handle_message_parameters(**fields) as params:
            await async_context.get().edit_original_interaction_response(
                webhook.id, webhook.token, session=webhook.session, proxy=webhook.proxy,
                proxy_auth=webhook.proxy_auth, payload=params.payload,
                multipart=params.multipart, files=params.files,
            )  # fmt: skip

    async def post(self, **fields: Any) -> Posted:
        message = await self.webhook.send(wait=True, **fields)
        self.posted = (*self.posted, message.id)
        return Posted(message.id, message.created_at.timestamp())


class InteractionVia:
    """`Via` over a discord.py interaction already acknowledged by its handler: its
    response edits the message of its component (`source`), its followups go through
    `kept`, what the game keeps of it for later steps (`Carriers`).

    `completes`: the text that completes a "thinking" original (a slash command's
    deferral) before the first public followup, which would otherwise become that
    private original instead of a message of its own.
    """

    def __init__(self, interaction: Interaction, clock: Clock, *, completes: str | None) -> None:
        self.interaction = interaction
        component_modal = interaction.type is discord.InteractionType.modal_submit
        message = interaction.message
        self.source = message.id if component_modal and message is not None else None
        self.kept = KeptVia(
            interaction.followup, clock, interaction.created_at.timestamp(),
            interaction.channel_id,
        )  # fmt: skip
        self.kept.original = self.source
        self._completes = completes
        self.showed_result = False
        """Whether its response turned the round's message into its result."""
        self.verdict: str | None = None
        """The answer's verdict ("✅ Round N: ..."), folded into the next post this
        interaction carries (the next round or the summary): a verdict posted on its
        own landed below the next round and cost a second followup (issue 28)."""
        self.told = False
        """Whether a post carried the verdict; if not, the handler replies with it."""

    @property
    def channel_id(self) -> int | None:
        return self.kept.channel_id

    def can_edit(self, message_id: int | None) -> bool:
        if message_id is not None and message_id == self.source:
            return self.kept.fresh()
        return self.kept.can_edit(message_id)

    def can_post(self, channel_id: int) -> bool:
        return self.kept.can_post(channel_id)

    def outlives(self, round_s: float) -> bool:
        return self.kept.outlives(round_s)

    async def edit(self, message_id: int, **fields: Any) -> None:
        if message_id != self.source:  # one of its followups
            await self.kept.edit(message_id, **fields)
            return
        self.showed_result = self.showed_result or fields.get("view", ...) is None
        response = self.interaction.response
        if not response.is_done():
            await response.edit_message(**fields)
        else:  # a deferred update: the original is the component's message
            await self.interaction.edit_original_response(**fields)

    async def post(self, **fields: Any) -> Posted:
        if self.verdict is not None and not self.told:
            fields["content"] = "\n".join(filter(None, [self.verdict, fields.get("content")]))
            self.told = True
        if self._completes is not None:
            await self.interaction.edit_original_response(content=self._completes)
            self._completes = None
        return await self.kept.post(**fields)


class Carriers:
    """Per game, the interaction that posted its latest message, which what no
    interaction brings (a timeout, /resign, the bot's Practice answer) rides while its
    token is fresh: a thread game's timed-out round costs no bot-token post, and a
    private game has no other way. Kept in memory only: a token is a 15-minute
    credential to post as the bot, not a thing to store; after a restart a thread game
    falls back to the bot token, and a private one to its next interaction (its Answer
    button, or /training again), a round nobody can be shown going the unposted way."""

    def __init__(self) -> None:
        self._by_game: dict[str, KeptVia] = {}

    def get(self, game_id: str) -> KeptVia | None:
        return self._by_game.get(game_id)

    def keep(self, game_id: str, carrier: InteractionVia | KeptVia) -> None:
        self._by_game[game_id] = carrier.kept if isinstance(carrier, InteractionVia) else carrier

    def drop(self, game_id: str) -> None:
        self._by_game.pop(game_id, None)

    def drop_if_dead(self, game_id: str, carrier: Via, error: BaseException) -> bool:
        """Whether `error` says `carrier`'s token is dead (`dead_token`); if so it is
        marked dead (an answer's interaction shares its `kept`): nothing goes through it
        again (it is never `fresh`). It stays the game's until a fresher one comes, so
        the game knows it had its player's token here, and a private round it would have
        carried waits for the next press (`Unreachable.waits`) instead of being voided."""
        if not dead_token(error):
            return False
        kept = carrier.kept if isinstance(carrier, InteractionVia) else carrier
        if isinstance(kept, KeptVia):
            kept.dead = True
        log.warning("game %s: its interaction token is dead (%r); dropped", game_id, error)
        return True
