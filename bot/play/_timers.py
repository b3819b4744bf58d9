"""Timers that call back when a moment comes, cancelled by key; one task waits for all.

Each key's moment sits in a heap; a single waker task per `Timers` sleeps until the
earliest and starts the due callbacks, each in a short task of its own. A thousand
running games so cost one sleeping task, not a thousand (issue 28: memory per game);
none at all when nothing is pending.

They wait through `game_time.wait` (`asyncio.sleep`), a wait simcord (and any event
loop) understands, so virtual time in tests moves these timers exactly as real time
moves them in production.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import math
from collections.abc import Awaitable, Callable
from functools import partial

from bot.play._types import (
    DEADLINE_RETRY_FIRST_S,
    DEADLINE_RETRY_MAX_S,
    DEADLINE_TRIES,
    Clock,
)

log = logging.getLogger(__name__)

RoundCall = Callable[[str, int], Awaitable[None]]
"""A callback taking (game id, round number)."""
Action = Callable[[], Awaitable[None]]


class GameTime:
    """How every game timer waits: `wait(seconds)` of the game's time.

    In production that is `asyncio.sleep`. A simulated Discord sets its own (the suites'
    `RealWorkEnv`) to declare these waits to its virtual clock, which then moves them
    only when the test moves time, never while the bot's real work (a solve, PHP) takes
    real seconds on a loaded machine."""

    def __init__(self) -> None:
        self.wait: Callable[[float], Awaitable[None]] = asyncio.sleep


game_time = GameTime()


class Timers:
    """At most one pending callback per key; scheduling a key again replaces it.

    A key is `armed` from `at` until its callback starts (or, for a callback that
    `adopt`s its key to wait again, until it `release`s it). A pending key costs a heap
    entry and a dict slot; the one waker task exists only while some key is pending.
    """

    def __init__(self, clock: Clock, name: str) -> None:
        self.clock = clock
        self.name = name
        self._due: dict[str, tuple[int, Action]] = {}
        """Pending keys: the sequence number of their heap entry, and the callback."""
        self._heap: list[tuple[float, int, str]] = []
        """(moment, sequence, key); an entry whose sequence is not the key's is stale."""
        self._held: dict[str, asyncio.Task[None]] = {}
        """Keys held by a task: a callback started but not yet running, or adopted."""
        self._running: set[asyncio.Task[None]] = set()
        """Started callbacks, kept referenced until they end (the loop holds tasks weakly)."""
        self._order = itertools.count()
        self._waker: asyncio.Task[None] | None = None
        self._sleeping_until = -math.inf
        """The moment the waker sleeps until; -inf while it is not asleep (it reads the
        heap before it sleeps, so only an earlier moment than its sleep's must wake it)."""

    def at(self, key: str, moment: float, action: Action) -> None:
        """Run `action` at `moment` (now if it has passed); a failure is logged."""
        self.cancel(key)
        order = next(self._order)
        self._due[key] = (order, action)
        heapq.heappush(self._heap, (moment, order, key))
        if self._waker is None or moment < self._sleeping_until:
            self._stop_waker()
            self._waker = asyncio.create_task(self._wake(), name=f"{self.name}:wake")

    def adopt(self, key: str) -> bool:
        """Make the running task the key's own; False if another schedule holds the key.

        A callback that goes on waiting (a retry) adopts its key again, so a new
        schedule or `close()` still cancels it.
        """
        me = asyncio.current_task()
        held = self._held.get(key)
        if key in self._due or (held is not None and held is not me):
            return False
        if me is not None:
            self._held[key] = me
        return True

    def release(self, key: str) -> None:
        """The running task gives up its key (so what it calls may schedule the key anew)."""
        if self._held.get(key) is asyncio.current_task():
            del self._held[key]

    def armed(self, key: str) -> bool:
        return key in self._due or key in self._held

    def cancel(self, key: str) -> None:
        if self._due.pop(key, None) is not None:
            if not self._due:
                self._stop_waker()  # nothing left to wait for: no task stays behind
            elif len(self._heap) > 2 * len(self._due) + 64:
                self._heap = [e for e in self._heap if self._due.get(e[2], (None,))[0] == e[1]]
                heapq.heapify(self._heap)
        task = self._held.pop(key, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def close(self) -> None:
        for key in [*self._due, *self._held]:
            self.cancel(key)
        self._stop_waker()

    def _stop_waker(self) -> None:
        waker, self._waker, self._sleeping_until = self._waker, None, -math.inf
        if not self._due:
            self._heap.clear()
        if waker is not None and waker is not asyncio.current_task():
            waker.cancel()

    async def _wake(self) -> None:
        """Sleep until the earliest pending moment, start what is due, and again."""
        me = asyncio.current_task()
        try:
            while self._heap and self._waker is me:
                moment, order, key = self._heap[0]
                pending = self._due.get(key)
                if pending is None or pending[0] != order:
                    heapq.heappop(self._heap)  # replaced or cancelled
                    continue
                wait = moment - self.clock()
                if wait > 0:
                    self._sleeping_until = moment
                    await game_time.wait(wait)
                    self._sleeping_until = -math.inf
                    self._start_due(max(moment, self.clock()))
                else:
                    self._start_due(self.clock())
        finally:
            if self._waker is me:
                self._waker, self._sleeping_until = None, -math.inf

    def _start_due(self, now: float) -> None:
        """Start every callback due by `now`, each in its own task holding its key until
        it begins (as a timer's own task did once its wait was over)."""
        while self._heap and self._heap[0][0] <= now:
            _, order, key = heapq.heappop(self._heap)
            pending = self._due.get(key)
            if pending is None or pending[0] != order:
                continue
            del self._due[key]
            task = asyncio.create_task(self._run(key, pending[1]), name=f"{self.name}:{key}")
            self._held[key] = task
            self._running.add(task)
            task.add_done_callback(self._running.discard)

    async def _run(self, key: str, action: Action) -> None:
        self.release(key)
        try:
            await action()
        except Exception:
            log.exception("%s %s failed", self.name, key)


class RoundTimers:
    """A game's round deadline, and the retries of a deadline that failed.

    `on_deadline(game, number)` runs at the deadline. If it raises (a save that did
    not go through), `on_retry(game, number)` -- go on from what the store holds --
    runs after 1, 2, 4 ... 60 s until it succeeds or the tries are spent, so one
    hiccup never leaves a game without a timer.
    """

    def __init__(
        self,
        clock: Clock,
        on_deadline: RoundCall,
        on_retry: RoundCall,
        *,
        first_retry_s: float = DEADLINE_RETRY_FIRST_S,
        max_retry_s: float = DEADLINE_RETRY_MAX_S,
        tries: int = DEADLINE_TRIES,
    ) -> None:
        self.clock = clock
        self.on_deadline = on_deadline
        self.on_retry = on_retry
        self.first_retry_s = first_retry_s
        self.max_retry_s = max_retry_s
        self.tries = tries
        self._timers = Timers(clock, "round")

    def arm(self, game_id: str, number: int, deadline: float) -> None:
        # a partial, not a lambda: half the bytes, and one is kept per running game
        self._timers.at(game_id, deadline, partial(self._deadline, game_id, number))

    def later(self, game_id: str, moment: float, action: Action) -> None:
        """Hold the game's timer for another step at `moment` (a round's post tried
        again): no deadline runs meanwhile, and the sweep sees the game as timed."""
        self._timers.at(game_id, moment, action)

    def retry_soon(self, game_id: str, number: int) -> None:
        """A step failed after the round's timer was cancelled: go on from the store soon."""
        self._timers.at(game_id, self.clock(), lambda: self._fire(game_id, number, failed=True))

    def armed(self, game_id: str) -> bool:
        return self._timers.armed(game_id)

    def cancel(self, game_id: str) -> None:
        self._timers.cancel(game_id)

    def close(self) -> None:
        self._timers.close()

    async def _deadline(self, game_id: str, number: int) -> None:
        await self._fire(game_id, number, failed=False)

    async def _fire(self, game_id: str, number: int, *, failed: bool) -> None:
        delay = self.first_retry_s
        for attempt in range(1, self.tries + 1):
            if failed:
                if not self._timers.adopt(game_id):
                    return  # the game went on meanwhile, with its own timer
                await game_time.wait(delay)
                delay = min(delay * 2, self.max_retry_s)
                self._timers.release(game_id)
            try:
                await (self.on_retry if failed else self.on_deadline)(game_id, number)
                return
            except Exception:
                failed = True
                log.exception(
                    "game %s: the deadline of round %s failed (try %d of %d)",
                    game_id, number, attempt, self.tries,
                )  # fmt: skip
        log.error(
            "game %s: round %s could not be ended; it stays active until the next restart",
            game_id, number,
        )  # fmt: skip
