"""Each game's events go to the face it was started from (`Faces`, the router).

A face is what shows games to players: Discord (`bot.games.Announcer`), the terminal
(`bot.terminal`), later the web. Each implements `GameEvents` (what happened) and
`Presence` (whether a player is still there) and attaches itself under its `Face`
when it is built; the flow announces through the router, which looks up the game's
stored face (`GameRecord.face`), so a game played in the terminal is never announced
by Discord. A face this process does not run announces nothing: its games are played
by the process that has it.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from bot.play._types import GameEvents, NoEvents, Posted, Presence, Via
from bot.storage import Challenge, ChallengeStatus, Face, GameRecord, RatingChange

log = logging.getLogger(__name__)


class Faces:
    """The router keyed by face: itself a `GameEvents`, so the flow's steps call it as
    they would call one face. Challenges are made in Discord only: theirs go there."""

    def __init__(
        self,
        events: Mapping[Face, GameEvents] | None = None,
        presence: Mapping[Face, Presence] | None = None,
    ) -> None:
        self._events: dict[Face, GameEvents] = dict(events or {})
        self._presence: dict[Face, Presence] = dict(presence or {})
        self._silent = NoEvents()

    def attach(self, face: Face, events: GameEvents, presence: Presence | None = None) -> None:
        """`face` announces its games with `events` (and says who left with `presence`)."""
        self._events[face] = events
        if presence is not None:
            self._presence[face] = presence

    def serves(self, face: Face) -> bool:
        """Whether this process has `face` (only its games are resumed here)."""
        return face in self._events

    def of(self, record: GameRecord) -> GameEvents:
        """The face that announces `record`: the one it was started from."""
        return self._events.get(record.face, self._silent)

    def presence_of(self, record: GameRecord) -> Presence:
        return self._presence.get(record.face, self._silent)

    # ------------------------------------------------------------ GameEvents

    async def round_started(
        self, record: GameRecord, *, replayed: bool = False, via: Via | None = None
    ) -> Posted | None:
        return await self.of(record).round_started(record, replayed=replayed, via=via)

    async def answer_received(
        self, record: GameRecord, player: int, via: Via | None = None
    ) -> None:
        await self.of(record).answer_received(record, player, via)

    async def round_resolved(self, record: GameRecord, number: int, via: Via | None = None) -> None:
        await self.of(record).round_resolved(record, number, via)

    async def round_replaced(self, record: GameRecord, message_id: int) -> None:
        await self.of(record).round_replaced(record, message_id)

    async def game_over(
        self, record: GameRecord, ratings: list[RatingChange], via: Via | None = None
    ) -> None:
        await self.of(record).game_over(record, ratings, via)

    async def challenge_closed(self, challenge: Challenge, status: ChallengeStatus) -> None:
        await self._events.get(Face.DISCORD, self._silent).challenge_closed(challenge, status)
