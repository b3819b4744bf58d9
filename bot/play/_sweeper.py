"""The periodic sweep: a failure path for games whose deadline passed with no timer left.

The round timer and its retries resolve a game in time unless the database stays down
longer than they wait; then a game would stay stuck once it is back. Every
SWEEP_EVERY_S while this process holds games (never while idle), the sweep resolves
each of its overdue games; every third time it also asks the store, for an overdue
game this process does not hold (one whose recovery failed). Only this process's
shards: another's overdue game waits for its owner's recovery, so it is timed once.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from bot.play._active import ActiveGames
from bot.play._timers import RoundTimers, Timers
from bot.play._types import Clock
from bot.play._waiting import waits_for_player
from bot.storage import GameRecord, Store

log = logging.getLogger(__name__)

SWEEP_EVERY_S = 300.0
"""How often this process looks for games stuck past their deadline."""
STORE_SWEEP_EVERY = 3
"""Every third sweep (a quarter of an hour) also asks the store for overdue games."""
SWEEP_MARGIN_S = 30.0
"""A sweep picks up games whose deadline passed this long ago (their timer failed)."""


def _overdue(record: GameRecord, before: float) -> bool:
    """Past its deadline; a round waiting unseen for its player's press has none."""
    rnd = record.state.current_round
    return rnd is not None and rnd.answer_deadline < before and not waits_for_player(record)


class Sweeper:
    def __init__(
        self,
        clock: Clock,
        active: ActiveGames,
        store: Store,
        timers: RoundTimers,
        owns: Callable[[int], bool],
        *,
        resume: Callable[[str, int], Awaitable[None]],
    ) -> None:
        self.clock = clock
        self.active = active
        self.store = store
        self.timers = timers
        self.owns = owns
        self.resume = resume
        self._ticks = Timers(clock, "sweep")
        self._count = 0

    async def sweep(self, *, from_store: bool = False) -> int:
        """Resolve every game whose deadline passed and whose timer is gone; how many."""
        before = self.clock() - SWEEP_MARGIN_S
        overdue = [r for r in self.active if _overdue(r, before)]
        if from_store:
            known = {r.state.id for r in overdue}
            overdue += [
                r
                for r in await self.store.games.overdue_games(before)
                if r.state.id not in known and self.owns(r.guild_id) and _overdue(r, before)
            ]
        found = 0
        for record in overdue:
            game_id = record.state.id
            rnd = record.state.current_round
            if rnd is None or self.timers.armed(game_id):
                continue
            found += 1
            log.warning("game %s: round %s overdue; resolving it now", game_id, rnd.number)
            if game_id not in self.active:
                self.active.remember(record)
            try:
                await self.resume(game_id, rnd.number)
            except Exception:
                log.exception("game %s: the sweep could not resolve it", game_id)
        return found

    def keep_sweeping(self) -> None:
        """A sweep comes every SWEEP_EVERY_S while this process has games; none when idle."""
        if not self._ticks.armed("sweep"):
            self._ticks.at("sweep", self.clock() + SWEEP_EVERY_S, self._tick)

    async def _tick(self) -> None:
        self._count += 1
        try:
            await self.sweep(from_store=self._count % STORE_SWEEP_EVERY == 0)
        finally:
            if len(self.active):
                self.keep_sweeping()

    def close(self) -> None:
        self._ticks.close()
