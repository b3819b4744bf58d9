"""What a room's face must show, and the promise that it lands: a round's reveal and the
room's final table, which a REST fault must not take from the players.

The save that ends a round (or the room) stores its reveal (or final table) as owed
(`RoomRecord.owed`, `owed_by`), so neither a REST fault nor a crash loses it: it is
shown, then struck off; one Discord does not take (past the face's own retries) is tried
again after `AGAIN_AFTER_S` and every `AGAIN_EVERY_S` after that, and after a restart,
until it lands, or until its place is gone (`ChannelLost`). A reveal is an edit of its
round's message (trying it again shows it once); the final table is a post, struck off
in the save right after it lands (a crash between the two would post it again).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Protocol

import rules
from bot.play._timers import Timers
from bot.play._types import ChannelLost, Revealer
from bot.storage import TABLE, OwedShow, RoomRecord
from rules.room import Phase, RoomState
from solver.result import Candidate

log = logging.getLogger(__name__)

AGAIN_AFTER_S = (15.0, 30.0, 60.0, 120.0, 240.0)
AGAIN_EVERY_S = 300.0
"""After the first waits (about eight minutes, as a game's round post), every five
minutes while this process runs; a restart tries every owed show again."""


class RoomFace(Protocol):
    """How a face shows a room. Each call may fail (Discord took something away): a
    thread or round that cannot be shown voids the room; a reveal or table is owed."""

    async def open_thread(self, record: RoomRecord) -> int:
        """The room's own place for its rounds (a Discord thread); its id."""
        ...

    async def post_round(self, record: RoomRecord) -> tuple[int, float]:
        """Show the open round; (message id, when players could see it)."""
        ...

    async def end_round(
        self, record: RoomRecord, number: int, message_id: int, best: Sequence[Candidate | None]
    ) -> None:
        """Round `number` ended: reveal it in its message (`best` per player, None when
        unknown). It may be a round before the last (an owed reveal)."""
        ...

    async def lobby_closed(self, record: RoomRecord) -> None:
        """The lobby's deadline came: it started, or it was cancelled."""
        ...

    async def finished(self, record: RoomRecord) -> None:
        """The room is over: its final table (or why it was void)."""
        ...


def pre_round_scores(state: RoomState, number: int) -> list[rules.Number]:
    """Each player's Score before round `number`."""
    scores: list[rules.Number] = [state.game_set.start_score] * len(state.players)
    for rnd in state.rounds[: number - 1]:
        for index, answer in enumerate(rnd.answers):
            if answer is not None:
                scores[index] = answer.score
    return scores


def owed_by(record: RoomRecord, state: RoomState) -> tuple[OwedShow, ...]:
    """What the change from `record` to `state` owes its players, stored in the same save
    as the change, so a crash right after it still shows them: the reveal of the round it
    ended (when that round was shown: a round voided because its post failed has no
    message, and `round_message_id` is still the round before's), and the final table
    of a room it ended in play."""
    reveal = _ended_round(record, state)
    owed = [] if reveal is None else [reveal]
    ended = state.phase is Phase.OVER and record.state.phase is not Phase.OVER
    if ended and record.thread_id is not None:
        owed.append(OwedShow(TABLE))
    return (*record.owed, *owed)


def _ended_round(record: RoomRecord, state: RoomState) -> OwedShow | None:
    rnd, posted = record.state.current_round, record.round_message_id
    if rnd is None or rnd.shown_at is None or posted is None:
        return None  # not shown: its message is still the round before's, if any
    return OwedShow(rnd.number, posted) if state.rounds[rnd.number - 1].resolved else None


Save = Callable[[RoomRecord], Awaitable[RoomRecord]]
Locked = Callable[[str], asyncio.Lock]
Load = Callable[[str], Awaitable[RoomRecord]]


class RoomShows:
    """The reveals and final tables of the room flow (`RoomFlow`), owed ones included."""

    def __init__(
        self, face: Callable[[], RoomFace], revealer: Revealer | None, clock: Callable[[], float],
        save: Save, load: Load, lock: Locked,
    ) -> None:  # fmt: skip
        self._face = face
        self.revealer = revealer
        self._save = save
        self._load = load
        self._lock = lock
        self._timers = Timers(clock, "room-owed")
        self.clock = clock

    async def reveal(self, record: RoomRecord, number: int) -> RoomRecord:
        """Reveal round `number`, owed since the save that ended it (`owed_by`); call
        under the room's lock. Struck off once shown, else tried again later."""
        owed = next((o for o in record.owed if o.round == number), None)
        return record if owed is None else await self._show(record, owed)

    async def table(self, record: RoomRecord) -> RoomRecord:
        """The final table, owed since the save that ended the room (`owed_by`); call
        under the room's lock. Struck off once shown, else tried again later."""
        owed = next((o for o in record.owed if o.round == TABLE), None)
        return record if owed is None else await self._show(record, owed)

    async def _show(self, record: RoomRecord, owed: OwedShow) -> RoomRecord:
        if not await self._try(record, owed):
            self.arm(record.state.id, 0)
            return record
        return await self._save(replace(record, owed=tuple(o for o in record.owed if o != owed)))

    async def _try(self, record: RoomRecord, owed: OwedShow) -> bool:
        """Whether the show is done with: shown, or its place gone for good."""
        what = "its final table" if owed.round == TABLE else f"round {owed.round}'s reveal"
        try:
            if owed.round == TABLE:
                await self._face().finished(record)
            else:
                assert owed.message_id is not None
                best = await self.best(record.state, owed.round)
                await self._face().end_round(record, owed.round, owed.message_id, best)
        except ChannelLost as lost:  # nothing can ever show it: trying again only spends
            log.warning("room %s: %s cannot be shown (%s)", record.state.id, what, lost.reason)
        except Exception:
            log.exception("room %s: %s could not be shown; owed", record.state.id, what)
            return False
        return True

    def arm(self, room_id: str, tries: int) -> None:
        """Try the room's owed shows again after the `tries`th wait."""
        wait = AGAIN_AFTER_S[tries] if tries < len(AGAIN_AFTER_S) else AGAIN_EVERY_S
        self._timers.at(room_id, self.clock() + wait, lambda: self.pay(room_id, tries + 1))

    async def pay(self, room_id: str, tries: int = 0) -> None:
        """Show what the room owes, in order, striking off each that lands; what is still
        owed is tried again later (the store away counts as Discord refusing)."""
        try:
            async with self._lock(room_id):
                record = await self._load(room_id)
                for owed in record.owed:
                    if not await self._try(record, owed):
                        break
                    left = tuple(o for o in record.owed if o != owed)
                    record = await self._save(replace(record, owed=left))
        except Exception:
            log.exception("room %s: its owed shows could not be tried", room_id)
        else:
            if not record.owed:
                return
        self._timers.release(room_id)
        self.arm(room_id, tries)

    async def best(self, state: RoomState, number: int) -> list[Candidate | None]:
        """The best answer for each player's Score before the round (one search per Score)."""
        before = pre_round_scores(state, number)
        if self.revealer is None:
            return [None] * len(before)
        revealer, digits = self.revealer, state.rounds[number - 1].digits
        distinct = list(dict.fromkeys(before))
        found = await asyncio.gather(
            *(revealer.best(digits, score, state.game_set) for score in distinct),
            return_exceptions=True,
        )
        by_score = {
            s: f if isinstance(f, Candidate) else None for s, f in zip(distinct, found, strict=True)
        }
        return [by_score[score] for score in before]

    def close(self) -> None:
        self._timers.close()
