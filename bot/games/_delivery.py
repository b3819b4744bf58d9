"""How a game's message reaches its thread (`Delivery`, for `Announcer`).

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
from typing import Any

import discord

from bot.games._discord import RestBudget, RestBusy, with_retry
from bot.games._followups import Followups
from bot.games._riding import Carriers, InteractionVia, KeptVia, shows
from bot.play import ChannelLost, Posted, Unreachable, Via
from bot.storage import GameRecord

log = logging.getLogger(__name__)

USERS_ONLY = discord.AllowedMentions(everyone=False, roles=False, users=True)
CHART_FILE = "score.png"


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


class Delivery:
    """How a game's message goes: the answer's interaction, the game's kept one, or the
    bot token (module docstring)."""

    def __init__(self, client: discord.Client, budget: RestBudget) -> None:
        self.client = client
        self.budget = budget
        self.carriers = Carriers()
        self.followups = Followups(budget)
        """Every followup and interaction edit of the games, capped and counted."""

    def channel(self, channel_id: int, guild_id: int) -> discord.PartialMessageable:
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

    async def send(
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
            if record.meta.private and until is not None and until <= self.budget.clock():
                raise Unreachable(f"game {record.state.id}: {what}: the token is too old for it",
                                  waits=True)  # fmt: skip
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
            raise self._unreachable(record, what)
        channel = self.channel(record.channel_id, record.guild_id)
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
            raise Unreachable(f"game {record.state.id}: its interaction token is dead",
                              waits=True) from error  # fmt: skip

    def _unreachable(self, record: GameRecord, what: str) -> Unreachable:
        """A private step with no fresh token: one the game held here aged or died, so
        it was never seen and waits for the next press (`waits`); none held (a restart)."""
        had = self.carriers.get(record.state.id) is not None
        return Unreachable(f"game {record.state.id}: {what}: no fresh interaction", waits=had)

    def _carrier(self, record: GameRecord, via: Via | None) -> Via | None:
        """The answer's interaction when it can show the game, else the game's kept one
        while fresh, else None (the bot token, or nothing if private)."""
        if via is not None and shows(record, via):
            return via
        kept = self.carriers.get(record.state.id)
        return kept if kept is not None and shows(record, kept) else None

    async def edit(
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
            raise self._unreachable(record, what)
        message = self.channel(record.channel_id, record.guild_id).get_partial_message(message_id)
        await self._call(record, what, lambda: message.edit(**kwargs))

    async def edit_round(
        self, record: GameRecord, number: int, what: str, via: Via | None = None, **kwargs: Any
    ) -> bool:
        """Edit round `number`'s message; False when it has none (its post failed)."""
        message_id = record.meta.round_message_id
        if message_id is None or record.meta.round_message_of not in (None, number):
            return False
        await self.edit(record, message_id, what, via, **kwargs)
        return True
