"""Discord calls that survive Discord's bad moments: 5xx and 429 are retried with backoff.

discord.py already retries some failures inside its HTTP client; this is the
game's own last line, so a flaky send never loses an announced round.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

import discord

log = logging.getLogger(__name__)

T = TypeVar("T")

ATTEMPTS = 5
BASE_DELAY = 0.5


def _retryable(error: discord.HTTPException) -> bool:
    return error.status >= 500 or error.status == 429


async def with_retry(call: Callable[[], Awaitable[T]], what: str) -> T:
    """Run `call`, retrying transient Discord failures; the last one is raised."""
    for attempt in range(ATTEMPTS):
        try:
            return await call()
        except discord.HTTPException as error:
            if not _retryable(error) or attempt == ATTEMPTS - 1:
                raise
            delay = BASE_DELAY * 2**attempt
            log.warning(
                "%s failed with %s %s; retry %d in %.1f s",
                what, error.status, error.text, attempt + 1, delay,
            )  # fmt: skip
            await asyncio.sleep(delay)
    raise AssertionError("unreachable")
