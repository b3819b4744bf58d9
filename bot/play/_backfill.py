"""Best answers for finished games that lack them, found once and kept (issue 29).

A game keeps the best answers found while its rounds were played (`GameMeta.best`);
a Qualification's are not solved while its day runs (everyone plays those Digits), a
solve may be late, and games older than this job kept none. A replay used to solve
them on every view, so a few visitors could take the solver from the live games. Now
this job finds them in the background, with a `Revealer` in the solver's lowest lane
(`solver.process.Lane.BACKFILL`), at most `per_minute` solves a minute, and keeps
each in the store as it is found (`Store.best`); every view reads them.

Restart-safe: what it has reached is two cursors in the store (the games finished since
its first pass first, then the backlog, newest first) and the games it still owes are
rows (`best_pending`), so a restart resumes where it stopped, and a best answer found is
never solved again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime

import rules
from bot.play._reveals import reveal
from bot.play._types import Revealer
from bot.storage import GameRecord, PendingBest, Store
from rules.modes import declared

log = logging.getLogger(__name__)

PER_MINUTE = 12
"""Solves a minute at most: the live games' reveals keep the solver (~0.2 s a cold solve)."""
SETTLE_S = 120.0
"""A game finished this recently may still be getting its last round's best answers
from its own flow: it is queued after."""
BATCH = 50
"""Games queued or looked at per pass."""
TRIES = 3
"""Passes over a game whose solves failed (late, busy) before it is left as it is."""
RETRY_S = 3600.0
"""Until the next pass over such a game (doubling with each try)."""
SEALED_S = 1800.0
"""At least this long until a sealed Qualification is looked at again."""
IDLE_S = 60.0
"""Between passes when nothing was owed."""


async def seal_of(store: Store, record: GameRecord, now: datetime) -> rules.Seal | None:
    """The seal on a Qualification game's Digits and formulas (`rules.seal`): its period
    runs, or a game of that period (the same server and Set: the same Digits) is still
    being played, however long; None when they may be shown."""
    if not declared(record.state.mode).sealed or record.period is None:
        return None
    zone = (await store.servers.settings(record.guild_id)).zone
    running = await store.servers.running(
        record.guild_id, record.state.game_set.name, record.period
    )
    return rules.seal(record.period, now, still_played=running > 0, tz=zone)


def owed(record: GameRecord) -> list[tuple[int, int]]:
    """(round, seat) of every resolved round's best answer the game has not kept."""
    have = {(b.round, b.seat) for b in record.meta.best}
    seats = range(len(record.state.players))
    return [
        (rnd.number, seat)
        for rnd in record.state.rounds
        if rnd.resolved
        for seat in seats
        if (rnd.number, seat) not in have
    ]


BestKept = Callable[[GameRecord], Awaitable[object]]
"""Told a game after each pass that looked for its best answers, with all kept so far
(`Rewards.game_finished`: a Qualification's "as good as the solver's best" is earned
once its best answers are known, after its day ends). Told again after a crash before
the game settled, so it must be idempotent; its failure is the game's try."""


class BestBackfill:
    """Finds and keeps the best answers finished games lack, paced to `per_minute`."""

    def __init__(
        self,
        store: Store,
        revealer: Revealer,
        *,
        clock: Callable[[], float] = time.time,
        per_minute: int = PER_MINUTE,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        kept: BestKept | None = None,
    ) -> None:
        self.store = store
        self.kept = kept
        self.revealer = revealer
        self.clock = clock
        self.pause_s = 60.0 / per_minute
        self.sleep = sleep
        self.solved = 0
        """Solves asked of the solver (for the logs and the tests)."""

    async def run(self) -> None:
        """Pass after pass until cancelled; a failed pass is logged and tried again."""
        while True:
            try:
                asked = await self.step()
            except Exception:
                log.exception("finding finished games' best answers failed")
                asked = 0
            if not asked:
                await self.sleep(IDLE_S)

    async def step(self) -> int:
        """One pass: queue the games finished since the last, then look at every owed
        game that is due; how many solves it asked."""
        now = self.clock()
        await self.store.best.queue_finished(now - SETTLE_S, BATCH)
        asked = 0
        for pending in await self.store.best.due(now, BATCH):
            try:
                asked += await self._fill(pending)
            except Exception:  # one game's failure is a try of its own, not the others'
                log.exception("game %s: finding its best answers failed", pending.game_id)
                await self._tried(pending, missed=1)
        return asked

    async def _fill(self, pending: PendingBest) -> int:
        game_id = pending.game_id
        record = await self.store.games.load_game(game_id)
        if record is None:
            await self.store.best.settled(game_id)
            return 0
        now = self.clock()
        sealed = await seal_of(self.store, record, datetime.fromtimestamp(now, UTC))
        if sealed is not None:
            due = max(sealed.ends.timestamp(), now + SEALED_S)
            await self.store.best.later(game_id, pending.tries, due)
            return 0
        record = await self.store.best.with_found(record)
        wanted = owed(record)
        missed = 0
        for number, seat in wanted:
            found = await reveal(self.revealer, record, number, seat)
            self.solved += 1
            if found is None:
                missed += 1
            else:
                await self.store.best.keep(game_id, found)
            await self.sleep(self.pause_s)
        if self.kept is not None:  # before it settles: a crash tells it again
            await self.kept(await self.store.best.with_found(record))
        await self._tried(pending, missed)
        return len(wanted)

    async def _tried(self, pending: PendingBest, missed: int) -> None:
        """After a try: settled, or again later while tries are left for what it missed."""
        game_id, tries = pending.game_id, pending.tries + 1
        if missed and tries < TRIES:
            await self.store.best.later(game_id, tries, self.clock() + RETRY_S * 2**pending.tries)
            return
        if missed:
            log.info("game %s: %d best answer(s) not found in %d tries", game_id, missed, tries)
        await self.store.best.settled(game_id)


@contextlib.asynccontextmanager
async def backfilling(backfill: BestBackfill | None) -> AsyncIterator[None]:
    """`backfill.run()` in the background while the block runs (nothing for None)."""
    if backfill is None:
        yield
        return
    task = asyncio.create_task(backfill.run(), name="best-backfill")
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
