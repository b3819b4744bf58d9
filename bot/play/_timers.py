"""Timers that call back when a moment comes: one task per key, cancelled by key.

They wait through `game_time.wait` (`asyncio.sleep`), a wait simcord (and any event
loop) understands, so virtual time in tests moves these timers exactly as real time
moves them in production.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.play._types import (
    DEADLINE_RETRY_FIRST_S,
    DEADLINE_RETRY_MAX_S,
    DEADLINE_TRIES,
    Clock,
)

log = logging.getLogger(__name__)

RoundCall = Callable[[str, int], Awaitable[None]]
"""A callback taking (game id, round number)."""


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
    """At most one pending task per key; scheduling a key again replaces its task."""

    def __init__(self, clock: Clock, name: str) -> None:
        self.clock = clock
        self.name = name
        self._tasks: dict[str, asyncio.Task[None]] = {}

    def at(self, key: str, moment: float, action: Callable[[], Awaitable[None]]) -> None:
        """Run `action` at `moment` (now if it has passed); a failure is logged."""
        self.cancel(key)
        self._tasks[key] = asyncio.create_task(
            self._run(key, moment, action), name=f"{self.name}:{key}"
        )

    def adopt(self, key: str) -> bool:
        """Make the running task the key's own; False if another task holds the key.

        A callback that goes on waiting (a retry) adopts its key again, so a new
        schedule or `close()` still cancels it.
        """
        me = asyncio.current_task()
        held = self._tasks.get(key)
        if held is not None and held is not me:
            return False
        if me is not None:
            self._tasks[key] = me
        return True

    def release(self, key: str) -> None:
        """The running task gives up its key (so what it calls may schedule the key anew)."""
        if self._tasks.get(key) is asyncio.current_task():
            del self._tasks[key]

    def armed(self, key: str) -> bool:
        return key in self._tasks

    def cancel(self, key: str) -> None:
        task = self._tasks.pop(key, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def close(self) -> None:
        for key in list(self._tasks):
            self.cancel(key)

    async def _run(self, key: str, moment: float, action: Callable[[], Awaitable[None]]) -> None:
        await game_time.wait(max(0.0, moment - self.clock()))
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
        self._timers.at(game_id, deadline, lambda: self._fire(game_id, number, failed=False))

    def later(self, game_id: str, moment: float, action: Callable[[], Awaitable[None]]) -> None:
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
