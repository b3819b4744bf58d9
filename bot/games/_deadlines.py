"""Round deadlines of GameService: the timers, and re-arming every game after a restart."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

import rules
from bot.games._types import Clock
from bot.storage import Challenge, GameRecord, Store

log = logging.getLogger(__name__)


class DeadlinesMixin:
    """The timer half of GameService; it provides the attributes declared here."""

    store: Store
    clock: Clock
    _timers: dict[str, asyncio.Task[None]]
    _challenge_timers: dict[str, asyncio.Task[None]]
    _active: dict[str, GameRecord]

    if TYPE_CHECKING:

        async def expire(self, game_id: str, round_number: int) -> None: ...
        async def _next_round(self, record: GameRecord) -> GameRecord: ...
        async def _commit(self, record: GameRecord, state: rules.GameState) -> GameRecord: ...
        async def _emit(self, name: str, *args: Any, **kwargs: Any) -> None: ...
        async def _expire_challenge(self, challenge_id: str) -> None: ...
        def _arm_challenge(self, challenge: Challenge) -> None: ...
        def _remember(self, record: GameRecord) -> None: ...
        def _lock(self, game_id: str) -> asyncio.Lock: ...

    # ---------------------------------------------------------------- timers

    def _arm(self, record: GameRecord) -> None:
        rnd = record.state.current_round
        game_id = record.state.id
        self._cancel(self._timers, game_id)
        if rnd is None:
            return
        self._timers[game_id] = asyncio.create_task(
            self._round_timer(game_id, rnd.number, rnd.deadline), name=f"round:{game_id}"
        )

    async def _round_timer(self, game_id: str, number: int, deadline: float) -> None:
        """asyncio.sleep is a wait simcord (and any event loop) understands."""
        await asyncio.sleep(max(0.0, deadline - self.clock()))
        if self._timers.get(game_id) is asyncio.current_task():
            del self._timers[game_id]
        try:
            await self.expire(game_id, number)
        except Exception:
            log.exception("game %s: the deadline of round %s failed", game_id, number)

    @staticmethod
    def _cancel(timers: dict[str, asyncio.Task[None]], key: str) -> None:
        task = timers.pop(key, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    # --------------------------------------------------------------- restart

    async def recover(self) -> int:
        """Re-arm every active game after a restart; returns how many were found.

        A round whose deadline passed while the bot was down is replayed with
        the same Digits and a fresh deadline (answers already given stay), so
        nobody loses a game to downtime.
        """
        now = self.clock()
        games = await self.store.active_games()
        for record in games:
            try:
                await self._recover_game(record, now)
            except Exception:
                log.exception("game %s: recovery failed", record.state.id)
        for challenge in await self.store.pending_challenges():
            if challenge.expires_at <= now:
                await self._expire_challenge(challenge.id)
            else:
                self._arm_challenge(challenge)
        return len(games)

    async def _recover_game(self, record: GameRecord, now: float) -> None:
        self._remember(record)
        async with self._lock(record.state.id):
            rnd = record.state.current_round
            if rnd is None:
                await self._next_round(record)
                return
            if rnd.deadline > now:
                self._arm(record)
                return
            state = rules.apply(record.state, rules.ReplayRound(now))
            record = await self._commit(record, state)
            self._arm(record)
            await self._emit("round_started", record, replayed=True)

    async def close(self) -> None:
        for timers in (self._timers, self._challenge_timers):
            for key in list(timers):
                self._cancel(timers, key)
