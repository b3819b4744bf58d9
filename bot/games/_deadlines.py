"""Round deadlines of GameService: the timers, answers still in PHP at the deadline,
retries of a deadline whose save failed, and re-arming every game after a restart."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import rules
from bot.games._types import (
    DEADLINE_RETRY_FIRST_S,
    DEADLINE_RETRY_MAX_S,
    DEADLINE_TRIES,
    Clock,
    GameError,
)
from bot.storage import Challenge, GameRecord, Store

log = logging.getLogger(__name__)


@dataclass(eq=False)
class InFlight:
    """A formula received for `round_number` at `received`, now being checked by PHP."""

    player: int
    round_number: int
    received: float
    done: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class DeadlinesMixin:
    """The timer half of GameService; it provides the attributes declared here."""

    store: Store
    clock: Clock
    answer_grace: float
    _timers: dict[str, asyncio.Task[None]]
    _challenge_timers: dict[str, asyncio.Task[None]]
    _active: dict[str, GameRecord]
    _in_flight: dict[str, list[InFlight]]

    if TYPE_CHECKING:

        async def expire(self, game_id: str, round_number: int) -> None: ...
        async def _next_round(self, record: GameRecord) -> GameRecord: ...
        async def _finish(self, record: GameRecord) -> None: ...
        async def _commit(self, record: GameRecord, state: rules.GameState) -> GameRecord: ...
        async def _emit(self, name: str, *args: Any, **kwargs: Any) -> None: ...
        async def _expire_challenge(self, challenge_id: str) -> None: ...
        def _arm_challenge(self, challenge: Challenge) -> None: ...
        def _remember(self, record: GameRecord) -> None: ...
        def _lock(self, game_id: str) -> asyncio.Lock: ...

    # ------------------------------------------------------ answers in PHP

    @contextlib.contextmanager
    def _answer_in_flight(
        self, game_id: str, player: int, round_number: int, received: float
    ) -> Iterator[None]:
        """Mark a formula as being checked, so the round's deadline waits for it.

        One formula per player at a time: a second one sent while the first is in
        PHP is refused, so the first valid formula really is the first one sent,
        and one player cannot flood the shared pool.
        """
        if any(
            f.player == player and f.round_number == round_number
            for f in self._in_flight.get(game_id, [])
        ):
            raise GameError("answer_in_flight")
        entry = InFlight(player, round_number, received)
        self._in_flight.setdefault(game_id, []).append(entry)
        try:
            yield
        finally:
            entries = self._in_flight.get(game_id, [])
            if entry in entries:
                entries.remove(entry)
            if not entries:
                self._in_flight.pop(game_id, None)
            if not entry.done.done():
                entry.done.set_result(None)

    async def _answers_in_flight(self, game_id: str, round_number: int) -> None:
        """Wait (at most `answer_grace` s) for formulas received by the round's deadline.

        Their time is their receipt, so PHP's answer must not lose to the timer; the
        wait ends when PHP answers, which is also when simcord's settling ends.
        """
        record = self._active.get(game_id)
        rnd = record.state.current_round if record else None
        if rnd is None or rnd.number != round_number:
            return
        waits = [
            entry.done
            for entry in self._in_flight.get(game_id, [])
            if entry.round_number == round_number and entry.received <= rnd.deadline
        ]
        if waits:
            _done, pending = await asyncio.wait(waits, timeout=self.answer_grace)
            if pending:
                log.warning(
                    "game %s: %d answer(s) to round %s still in PHP after %g s; expiring it",
                    game_id, len(pending), round_number, self.answer_grace,
                )  # fmt: skip

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

    def _retry_later(self, game_id: str, number: int) -> None:
        """A save failed after the round's timer was cancelled: go on from the store soon."""
        self._cancel(self._timers, game_id)
        self._timers[game_id] = asyncio.create_task(
            self._round_timer(game_id, number, self.clock(), failed=True), name=f"retry:{game_id}"
        )

    async def _round_timer(
        self, game_id: str, number: int, deadline: float, *, failed: bool = False
    ) -> None:
        """asyncio.sleep is a wait simcord (and any event loop) understands.

        A failed deadline (a save that did not go through) is retried from what the
        store holds after 1, 2, 4 ... s, so one hiccup never leaves a game without a timer.
        """
        await asyncio.sleep(max(0.0, deadline - self.clock()))
        me = asyncio.current_task()
        delay = DEADLINE_RETRY_FIRST_S
        for attempt in range(1, DEADLINE_TRIES + 1):
            if failed:
                if self._timers.get(game_id, me) is not me:
                    return  # the game went on meanwhile, with its own timer
                if me is not None:
                    self._timers[game_id] = me  # so close() and a new round cancel the retry
                await asyncio.sleep(delay)
                delay = min(delay * 2, DEADLINE_RETRY_MAX_S)
            if self._timers.get(game_id) is me:
                del self._timers[game_id]
            try:
                if failed:
                    await self._resume(game_id, number)
                else:
                    await self.expire(game_id, number)
                return
            except Exception:
                failed = True
                log.exception(
                    "game %s: the deadline of round %s failed (try %d of %d)",
                    game_id, number, attempt, DEADLINE_TRIES,
                )  # fmt: skip
        log.error(
            "game %s: round %s could not be ended; it stays active until the next restart",
            game_id, number,
        )  # fmt: skip

    async def _resume(self, game_id: str, number: int) -> None:
        """Go on from the stored game after a failure: the failed save may have landed."""
        async with self._lock(game_id):
            stored = await self.store.load_game(game_id)
            if stored is None:
                return
            if not stored.active:
                if game_id in self._active:  # finished in the store, never announced
                    await self._finish(stored)
                return
            self._remember(stored)
            rnd = stored.state.current_round
            if rnd is None:  # the round was resolved, the next one never started
                await self._next_round(stored)
                return
            if rnd.number != number:
                if game_id not in self._timers:
                    self._arm(stored)
                return
        await self.expire(game_id, number)

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
