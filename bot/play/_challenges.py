"""Duel challenges: posting, declining, expiring, rematches, and taking one to accept.

One pending challenge per challenger, one rematch per duel. Accepting opens a game,
so the service does it with `take` and `close_accepted` from here.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable

from bot.common import SetsDirectory
from bot.i18n import DEFAULT_LOCALE
from bot.play._refusals import Refusal
from bot.play._seats import Seats
from bot.play._timers import Timers
from bot.play._types import CHALLENGE_TTL, Clock, GameError, GameEvents, announce
from bot.storage import Challenge, ChallengeStatus, GameRecord, RematchTaken, Store
from rules import Mode

log = logging.getLogger(__name__)


def duel_locale(server: str | None, challenger: str, opponent: str) -> str:
    """The language of a duel's thread and its public messages: the server's (`/config
    language`) when it has one, else the players' when both speak it, else English.

    Each player's private replies stay in their own client's language; only what both
    read is chosen here, and never the challenger's alone over the opponent's."""
    if server:
        return server
    return challenger if challenger == opponent else DEFAULT_LOCALE


class Challenges:
    def __init__(
        self,
        store: Store,
        clock: Clock,
        seats: Seats,
        sets: SetsDirectory,
        events: GameEvents,
        owns: Callable[[int], bool] = lambda guild_id: True,
    ) -> None:
        self.store = store
        self.owns = owns
        self.clock = clock
        self.seats = seats
        self.sets = sets
        self.events = events
        self._timers = Timers(clock, "challenge")

    async def pending_of(self, guild_id: int, user_id: int) -> Challenge | None:
        """The open challenge `user_id` has posted on this server, if any."""
        now = self.clock()
        for challenge in await self.store.challenges.pending_challenges():
            if (
                challenge.guild_id == guild_id
                and challenge.challenger_id == user_id
                and challenge.expires_at > now
            ):
                return challenge
        return None

    async def ensure_none_pending(self, guild_id: int, user_id: int) -> None:
        """A player waiting for an answer to a challenge starts nothing else meanwhile."""
        pending = await self.pending_of(guild_id, user_id)
        if pending is not None:
            raise GameError(
                Refusal.CHALLENGE_PENDING, opponent=pending.opponent_id, expires=pending.expires_at
            )

    async def create(
        self, guild_id: int, channel_id: int, challenger_id: int, opponent_id: int,
        opponent_is_bot: bool, set_name: str | None, locale: str = "en",
        rematch_of: str | None = None,
    ) -> Challenge:  # fmt: skip
        if opponent_id == challenger_id:
            raise GameError(Refusal.DUEL_SELF)
        if opponent_is_bot:
            raise GameError(Refusal.DUEL_BOT)
        game_set = await self.sets.resolve(guild_id, set_name)
        async with self.seats.reserve(guild_id, [challenger_id]):
            await self.seats.ensure_free(guild_id, challenger_id, Refusal.BUSY)
            await self.seats.ensure_free(guild_id, opponent_id, Refusal.OPPONENT_BUSY)
            await self.seats.ensure_may_rank(guild_id, challenger_id)
            await self.seats.ensure_may_rank(guild_id, opponent_id, other=True)
            await self.ensure_none_pending(guild_id, challenger_id)
            challenge = Challenge(
                id=uuid.uuid4().hex,
                guild_id=guild_id,
                channel_id=channel_id,
                challenger_id=challenger_id,
                opponent_id=opponent_id,
                set_name=game_set.name,
                expires_at=self.clock() + CHALLENGE_TTL,
                locale=locale,
                rematch_of=rematch_of,
            )
            try:
                await self.store.challenges.save_challenge(challenge)
            except RematchTaken as exc:
                raise GameError(Refusal.REMATCH_SENT, channel=channel_id) from exc
        self._arm(challenge)
        return challenge

    async def attach_message(self, challenge: Challenge, message_id: int) -> None:
        challenge.message_id = message_id
        await self.store.challenges.save_challenge(challenge)

    async def take(self, challenge_id: str, user_id: int) -> Challenge:
        """The pending challenge `user_id` may answer; GameError if there is none."""
        challenge = await self.store.challenges.load_challenge(challenge_id)
        if challenge is None or challenge.status is not ChallengeStatus.PENDING:
            raise GameError(Refusal.CHALLENGE_CLOSED)
        if user_id != challenge.opponent_id:
            raise GameError(Refusal.CHALLENGE_NOT_YOURS)
        if self.clock() >= challenge.expires_at:
            await self.expire(challenge.id)
            raise GameError(Refusal.CHALLENGE_CLOSED)
        return challenge

    async def close_accepted(self, challenge: Challenge) -> None:
        """Mark a taken challenge accepted; GameError if it closed meanwhile."""
        await self._close(challenge, ChallengeStatus.ACCEPTED)

    async def decline(self, challenge_id: str, user_id: int) -> Challenge:
        challenge = await self.take(challenge_id, user_id)
        await self._close(challenge, ChallengeStatus.DECLINED)
        return challenge

    async def cancel(self, challenge_id: str, user_id: int) -> Challenge:
        """The challenger takes the challenge back (and is free to start something else)."""
        challenge = await self.store.challenges.load_challenge(challenge_id)
        if challenge is None or challenge.status is not ChallengeStatus.PENDING:
            raise GameError(Refusal.CHALLENGE_CLOSED)
        if user_id != challenge.challenger_id:
            raise GameError(Refusal.CHALLENGE_NOT_YOURS_TO_CANCEL)
        await self._close(challenge, ChallengeStatus.CANCELLED)
        return challenge

    async def _close(self, challenge: Challenge, status: ChallengeStatus) -> None:
        if not await self.store.challenges.set_challenge_status(challenge.id, status):
            raise GameError(Refusal.CHALLENGE_CLOSED)
        self._timers.cancel(challenge.id)
        challenge.status = status

    async def rematch(self, record: GameRecord, user_id: int, locale: str) -> Challenge:
        """A new challenge to the same opponent, in the channel the duel came from.

        Once per duel: a second click (by either player, in any process, before or
        after a restart) is told where the first went -- the store's unique key on
        `rematch_of` decides, not this process's memory.
        """
        if record.state.mode is not Mode.DUEL:
            raise GameError(Refusal.NO_GAME)
        if str(user_id) not in record.state.players:
            raise GameError(Refusal.REMATCH_NOT_A_PLAYER)
        if record.state.outcome is None:
            raise GameError(Refusal.STILL_PLAYING)
        parent = record.meta.parent_channel_id or record.channel_id
        if await self.store.challenges.rematch_of(record.state.id) is not None:
            raise GameError(Refusal.REMATCH_SENT, channel=parent)
        other = next(int(p) for p in record.state.players if p != str(user_id))
        return await self.create(
            record.guild_id, parent, user_id, other, False, record.state.game_set.name,
            locale, rematch_of=record.state.id,
        )  # fmt: skip

    async def expire(self, challenge_id: str) -> None:
        """Close a challenge whose time is up, and say so where it was posted."""
        if await self.store.challenges.set_challenge_status(challenge_id, ChallengeStatus.EXPIRED):
            self._timers.cancel(challenge_id)
            challenge = await self.store.challenges.load_challenge(challenge_id)
            if challenge is not None:
                await announce(
                    f"challenge {challenge_id} expired",
                    self.events.challenge_closed(challenge, ChallengeStatus.EXPIRED),
                )

    async def recover(self) -> None:
        """After a restart: expire what expired while down, re-arm the rest (of this
        process's shards: another process times its own)."""
        now = self.clock()
        for challenge in await self.store.challenges.pending_challenges():
            if not self.owns(challenge.guild_id):
                continue
            if challenge.expires_at <= now:
                await self.expire(challenge.id)
            else:
                self._arm(challenge)

    def close(self) -> None:
        self._timers.close()

    def _arm(self, challenge: Challenge) -> None:
        challenge_id = challenge.id
        self._timers.at(challenge_id, challenge.expires_at, lambda: self.expire(challenge_id))
