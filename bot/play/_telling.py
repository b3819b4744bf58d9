"""A game's summary, told once: at its end, again until Discord takes it, and after a
restart the ones still owed (`Tells`, the telling half of `Shows`).

A game over must be told once: a 5xx that reaches the bot is final for that call
(discord.py tried it already), so a summary Discord refused is tried again later with
its count stored (`Untold`), and a private game's, which no bot token can post, waits
for its player's next press (`tell_owed`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol

from bot.play._active import ActiveGames
from bot.play._timers import RoundTimers
from bot.play._types import ChannelLost, Clock, GameEvents, Unreachable, Via
from bot.storage import GameRecord, RatingChange, Store, Untold
from rules import Mode, Termination

log = logging.getLogger(__name__)

TELL_AGAIN_S = 300.0
TELL_TRIES = 12
"""A void game's summary that Discord did not take is tried again every five minutes
for an hour: the player learns why when Discord answers again."""


class Telling(Protocol):
    """What telling needs of the game flow (`RoundFlow`, through `Shows`' `Steps`)."""

    active: ActiveGames
    events: GameEvents
    store: Store
    owns: Callable[[int], bool]
    clock: Clock
    timers: RoundTimers


class Tells:
    """The summaries of games over: told, told again, owed."""

    def __init__(self, steps: Telling) -> None:
        self.steps = steps
        self.ratings: dict[str, list[RatingChange]] = {}
        """A duel's rating changes, from `RoundFlow.finish` (under the lock) to its summary."""

    async def over(self, record: GameRecord, via: Via | None) -> bool:
        """The summary; whether Discord took it (a game whose channel is gone: yes)."""
        ratings = self.ratings.get(record.state.id, [])
        try:
            await self.steps.events.game_over(record, ratings, via)
        except ChannelLost as lost:
            log.info("game %s: over, but its channel is gone (%s)", record.state.id, lost.reason)
        except Unreachable as unreachable:
            log.info("game %s: over, untold for now: %s", record.state.id, unreachable)
            return False
        except Exception:
            log.exception("announcing game %s over failed", record.state.id)
            return False  # its ratings stay for the next try
        self.ratings.pop(record.state.id, None)
        return True

    async def tell(self, record: GameRecord, tries: int) -> None:
        """The summary of a game over (voided because Discord would not show it, or
        whose summary failed), tried until it lands or TELL_TRIES have passed."""
        async with self.steps.active.voice(record.state.id):
            told = await self.over(record, None)
        if not told and tries < TELL_TRIES:
            await self.later(record, tries + 1, TELL_AGAIN_S)
            return
        if not told:
            log.error("game %s: its summary was refused %d times; given up", record.state.id,
                      tries)  # fmt: skip
        try:
            await self.steps.store.untold.told(record.state.id)
        except Exception:  # told twice after a restart at worst
            log.warning("game %s: clearing its owed summary failed", record.state.id)

    async def later(self, record: GameRecord, tries: int, after_s: float) -> None:
        """Try the summary again: a game over must be told once, and a 5xx that reaches
        the bot is final for that call (discord.py tried it already). Stored with its
        count, so a restart tries it by the same bound (`recover_untold`)."""
        moment = self.steps.clock() + after_s
        owed = Untold(record.state.id, record.guild_id, tries, moment)
        try:
            await self.steps.store.untold.keep(owed)
        except Exception:  # the timer below still tries it while this process runs
            log.warning("game %s: storing its owed summary failed", record.state.id)
        self._at(record, tries, moment)

    def _at(self, record: GameRecord, tries: int, moment: float) -> None:
        self.steps.timers.later(record.state.id, moment, lambda: self.tell(record, tries))

    async def recover_untold(self) -> int:
        """After a restart: every summary still owed on this process's servers is tried
        at its time, with its count (a duel's rating changes read again: rated once)."""
        owed = [u for u in await self.steps.store.untold.all() if self.steps.owns(u.guild_id)]
        for untold in owed:
            record = await self.steps.store.games.load_game(untold.game_id)
            if record is None or record.state.outcome is None:
                await self.steps.store.untold.told(untold.game_id)
                continue
            result = record.state.outcome
            if record.state.mode is Mode.DUEL and result.termination is not Termination.VOID:
                try:
                    self.ratings[untold.game_id] = await self.steps.store.boards.record_duel_result(
                        record
                    )
                except Exception:
                    log.exception("game %s: reading its rating changes failed", untold.game_id)
            self._at(record, untold.tries, max(untold.due, self.steps.clock()))
        return len(owed)

    async def tell_owed(self, guild_id: int, user_id: int, via: Via) -> bool:
        """The player's private game over and untold (voided after a crash left its round
        unshowable: no token can post an ephemeral message), told through `via`, their
        next press: that it did not count and the attempt is theirs again. Whether one
        was told."""
        told = False
        for owed in await self.steps.store.untold.all():
            if owed.guild_id != guild_id:
                continue
            record = await self.steps.store.games.load_game(owed.game_id)
            if record is None or not record.meta.private or record.state.outcome is None:
                continue
            if str(user_id) not in record.state.players:
                continue
            async with self.steps.active.voice(record.state.id):
                if not await self.over(record, via):
                    continue
            self.steps.timers.cancel(record.state.id)  # its next try, due later
            try:
                await self.steps.store.untold.told(record.state.id)
            except Exception:  # told again at its next due at worst
                log.warning("game %s: clearing its owed summary failed", record.state.id)
            told = True
        return told
