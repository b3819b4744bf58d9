"""Bot-token REST calls that survive Discord's bad moments and stay under its limits.

discord.py only reacts to 429s, and every 429 counts toward Discord's invalid-request
limit (10,000 per 10 minutes, then a ban), so the bot spends a budget below the
global limit (~50 requests/s per token) before each call instead. 5xx and 429 are
retried with backoff; a rate-limit wait longer than discord.py's `max_ratelimit_timeout`
comes back as `RateLimited` and is waited here, logged, never silently. What the
waits cost a player is given back by timing rounds from when their post appeared
(`rules.RoundShown`). Interaction responses and webhook followups are not under the
global limit and do not go through here.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

import discord

from bot.games._types import Clock

log = logging.getLogger(__name__)

T = TypeVar("T")

ATTEMPTS = 5
BASE_DELAY = 0.5
LONGEST_WAIT_S = 30.0
"""The longest one rate-limit wait may be before the call is given up as failed."""
GLOBAL_LIMIT_PER_S = 50.0
"""Discord's global limit for one bot token."""
SHARE_OF_GLOBAL = 0.8
"""The budget stays this far below the global limit: room for what discord.py sends itself."""


class RestBudget:
    """A token bucket for this process's bot-token calls.

    `processes` shard processes share one token, so each takes its share of the
    global limit. Time is the bot's clock (virtual in tests), waits are asyncio.sleep.
    """

    def __init__(
        self,
        clock: Clock,
        *,
        processes: int = 1,
        burst: int = 10,
        on_error: Callable[[int], None] | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        """`on_error(status)` hears of every failed call (metrics count them)."""
        self.clock = clock
        self.on_error = on_error
        self.sleep = sleep
        self.rate = GLOBAL_LIMIT_PER_S * SHARE_OF_GLOBAL / max(1, processes)
        self.burst = float(burst)
        self._tokens = self.burst
        self._at: float | None = None
        self.waited_s = 0.0

    async def take(self) -> None:
        while True:
            now = self.clock()
            elapsed = 0.0 if self._at is None else max(0.0, now - self._at)  # clocks can jump
            self._tokens = min(self.burst, self._tokens + elapsed * self.rate)
            self._at = now
            if self._tokens >= 1 - 1e-9:  # a float a hair short of a token is a token
                self._tokens = max(0.0, self._tokens - 1)
                return
            wait = max((1 - self._tokens) / self.rate, 1e-3)
            self.waited_s += wait
            await self.sleep(wait)


def _retryable(error: discord.HTTPException) -> bool:
    return error.status >= 500 or error.status == 429


async def with_retry(
    call: Callable[[], Awaitable[T]], what: str, budget: RestBudget | None = None
) -> T:
    """Run `call` within the budget, retrying transient Discord failures; the last is raised."""
    for attempt in range(ATTEMPTS):
        if budget is not None:
            await budget.take()
        try:
            return await call()
        except discord.RateLimited as limited:
            if limited.retry_after > LONGEST_WAIT_S or attempt == ATTEMPTS - 1:
                raise
            log.warning("%s: rate limited for %.1f s; waiting", what, limited.retry_after)
            await asyncio.sleep(limited.retry_after)
        except discord.HTTPException as error:
            if budget is not None and budget.on_error is not None:
                budget.on_error(error.status)
            if not _retryable(error) or attempt == ATTEMPTS - 1:
                raise
            delay = BASE_DELAY * 2**attempt
            log.warning(
                "%s failed with %s %s; retry %d in %.1f s",
                what, error.status, error.text, attempt + 1, delay,
            )  # fmt: skip
            await asyncio.sleep(delay)
    raise AssertionError("unreachable")
