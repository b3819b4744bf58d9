"""Duel challenges: posting, declining, expiring and rematches (accepting opens a game,
so it stays in GameService). One pending challenge per challenger, one rematch per duel."""

from __future__ import annotations

import asyncio
import logging
import uuid
from contextlib import AbstractAsyncContextManager
from typing import TYPE_CHECKING, Any

from bot.games._types import CHALLENGE_TTL, Clock, GameError
from bot.storage import Challenge, GameRecord, Store
from rules import GameSet, Mode

log = logging.getLogger(__name__)


class ChallengesMixin:
    """The challenge half of GameService; it provides the attributes declared here."""

    store: Store
    clock: Clock
    _challenge_timers: dict[str, asyncio.Task[None]]
    _rematches: dict[str, str]

    if TYPE_CHECKING:

        async def resolve_set(self, guild_id: int, name: str | None) -> GameSet: ...
        async def load(self, game_id: str) -> GameRecord | None: ...
        async def _ensure_free(self, guild_id: int, user_id: int, code: str) -> None: ...
        async def _emit(self, name: str, *args: Any, **kwargs: Any) -> None: ...
        def _reserve(
            self, guild_id: int, user_ids: list[int]
        ) -> AbstractAsyncContextManager[None]: ...
        @staticmethod
        def _cancel(timers: dict[str, asyncio.Task[None]], key: str) -> None: ...

    async def pending_challenge_of(self, guild_id: int, user_id: int) -> Challenge | None:
        """The open challenge `user_id` has posted on this server, if any."""
        now = self.clock()
        for challenge in await self.store.pending_challenges():
            if (
                challenge.guild_id == guild_id
                and challenge.challenger_id == user_id
                and challenge.expires_at > now
            ):
                return challenge
        return None

    async def ensure_no_pending_challenge(self, guild_id: int, user_id: int) -> None:
        """A player waiting for an answer to a challenge starts nothing else meanwhile."""
        pending = await self.pending_challenge_of(guild_id, user_id)
        if pending is not None:
            raise GameError(
                "challenge_pending", opponent=pending.opponent_id, expires=pending.expires_at
            )

    async def create_challenge(
        self, guild_id: int, channel_id: int, challenger_id: int, opponent_id: int,
        opponent_is_bot: bool, set_name: str | None,
    ) -> Challenge:  # fmt: skip
        if opponent_id == challenger_id:
            raise GameError("duel_self")
        if opponent_is_bot:
            raise GameError("duel_bot")
        game_set = await self.resolve_set(guild_id, set_name)
        async with self._reserve(guild_id, [challenger_id]):
            await self._ensure_free(guild_id, challenger_id, "busy")
            await self._ensure_free(guild_id, opponent_id, "opponent_busy")
            await self.ensure_no_pending_challenge(guild_id, challenger_id)
            challenge = Challenge(
                id=uuid.uuid4().hex,
                guild_id=guild_id,
                channel_id=channel_id,
                challenger_id=challenger_id,
                opponent_id=opponent_id,
                set_name=game_set.name,
                expires_at=self.clock() + CHALLENGE_TTL,
            )
            await self.store.save_challenge(challenge)
        self._arm_challenge(challenge)
        return challenge

    async def attach_message(self, challenge: Challenge, message_id: int) -> None:
        challenge.message_id = message_id
        await self.store.save_challenge(challenge)

    async def _pending_challenge(self, challenge_id: str, user_id: int) -> Challenge:
        challenge = await self.store.load_challenge(challenge_id)
        if challenge is None or challenge.status != "pending":
            raise GameError("challenge_closed")
        if user_id != challenge.opponent_id:
            raise GameError("challenge_not_yours")
        if self.clock() >= challenge.expires_at:
            await self._expire_challenge(challenge.id)
            raise GameError("challenge_closed")
        return challenge

    async def decline_challenge(self, challenge_id: str, user_id: int) -> Challenge:
        challenge = await self._pending_challenge(challenge_id, user_id)
        if not await self.store.set_challenge_status(challenge.id, "declined"):
            raise GameError("challenge_closed")
        self._cancel(self._challenge_timers, challenge.id)
        challenge.status = "declined"
        return challenge

    async def rematch(self, game_id: str, user_id: int) -> Challenge:
        """A new challenge to the same opponent, in the channel the duel came from.

        Once per duel: a second click (by either player) is told where the first went.
        """
        record = await self.load(game_id)
        if record is None or record.state.mode is not Mode.DUEL:
            raise GameError("no_game")
        if str(user_id) not in record.state.players:
            raise GameError("rematch_not_a_player")
        if record.state.outcome is None:
            raise GameError("still_playing")
        parent = int(record.meta.get("parent_channel_id", record.channel_id))
        if game_id in self._rematches:
            raise GameError("rematch_sent", channel=f"<#{parent}>")
        self._rematches[game_id] = ""
        other = next(int(p) for p in record.state.players if p != str(user_id))
        try:
            challenge = await self.create_challenge(
                record.guild_id, parent, user_id, other, False, record.state.game_set.name
            )
        except BaseException:
            self._rematches.pop(game_id, None)
            raise
        self._rematches[game_id] = challenge.id
        return challenge

    # ---------------------------------------------------------------- timers

    def _arm_challenge(self, challenge: Challenge) -> None:
        self._cancel(self._challenge_timers, challenge.id)
        self._challenge_timers[challenge.id] = asyncio.create_task(
            self._challenge_timer(challenge.id, challenge.expires_at),
            name=f"challenge:{challenge.id}",
        )

    async def _challenge_timer(self, challenge_id: str, expires_at: float) -> None:
        await asyncio.sleep(max(0.0, expires_at - self.clock()))
        self._challenge_timers.pop(challenge_id, None)
        try:
            await self._expire_challenge(challenge_id)
        except Exception:
            log.exception("challenge %s: expiring failed", challenge_id)

    async def _expire_challenge(self, challenge_id: str) -> None:
        if await self.store.set_challenge_status(challenge_id, "expired"):
            self._cancel(self._challenge_timers, challenge_id)
            challenge = await self.store.load_challenge(challenge_id)
            if challenge is not None:
                await self._emit("challenge_closed", challenge, "expired")
