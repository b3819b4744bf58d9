"""Which servers this process serves: discord.py's shards, and Discord's formula for a guild.

A game belongs to the shard of its server, `(guild_id >> 22) % shard_count`; a process
loads, recovers, sweeps and times only the games, challenges and daily posts of its own
shards, so N processes over one database run every timer exactly once. Their shards
identify one at a time per gateway bucket, through the database (`IdentifyGate`).
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Protocol

GLOBAL_SYNC_SHARD = 0
"""The process running shard 0 alone syncs the command tree (one per token is enough)."""


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's own formula (the gateway routes a guild's events to this shard)."""
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True, slots=True)
class Shards:
    """`count` and `ids` as SHARD_COUNT and SHARD_IDS say; both None: one process that
    takes Discord's recommended count and serves every shard."""

    count: int | None = None
    ids: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if self.ids is not None:
            if self.count is None:
                raise ValueError("SHARD_IDS needs SHARD_COUNT")
            if not self.ids or any(not 0 <= i < self.count for i in self.ids):
                raise ValueError(f"SHARD_IDS must be between 0 and {self.count - 1}")
            if len(set(self.ids)) != len(self.ids):
                raise ValueError("SHARD_IDS must not repeat")
        if self.count is not None and self.count < 1:
            raise ValueError("SHARD_COUNT must be 1 or more")

    @property
    def is_split(self) -> bool:
        """Whether other processes serve some of the shards (several processes, one token)."""
        return self.count is not None and self.ids is not None and len(self.ids) < self.count

    def owns(self, guild_id: int) -> bool:
        if self.count is None or self.ids is None:
            return True
        return shard_of(guild_id, self.count) in self.ids

    @property
    def processes(self) -> int:
        """How many processes share the token (each takes its share of the global limit)."""
        if not self.is_split or self.ids is None or self.count is None:
            return 1
        return math.ceil(self.count / len(self.ids))

    @property
    def syncs_commands(self) -> bool:
        return self.ids is None or GLOBAL_SYNC_SHARD in self.ids


def parse_ids(text: str | None) -> tuple[int, ...] | None:
    """`SHARD_IDS` as written: "0,1" (spaces allowed); empty or None means every shard."""
    if text is None or not text.strip():
        return None
    try:
        return tuple(int(part) for part in text.replace(" ", "").split(",") if part)
    except ValueError as exc:
        raise ValueError(f"SHARD_IDS must be numbers separated by commas, not {text!r}") from exc


IDENTIFY_WINDOW_S = 5.5
"""Discord allows one IDENTIFY per rate-limit bucket (`shard_id % max_concurrency`) every
5 s; half a second more covers the clocks of several hosts drifting a little."""


class StateClaims(Protocol):
    """The installation's insert-once rows (`Store.install`'s `claim_state`, `drop_state`)."""

    async def claim_state(self, name: str, value: str) -> bool: ...

    async def drop_state(self, name: str) -> None: ...


class IdentifyGate:
    """One IDENTIFY per bucket per window across every process on one database.

    Time is cut into windows of `window_s`; a shard about to identify claims the next
    window boundary of its bucket (`identify:<bucket>:<window>`, an insert only one
    process wins) and waits until it. Two identifies of a bucket are then always a
    window apart, whichever processes make them, so a deploy or a crash loop of many
    shard processes never trips Discord's identify limit. Nothing is held while
    waiting, a process that dies leaves only a past window's row, and each process
    drops the row of its previous claim. The clock is the host's (UTC seconds).
    """

    def __init__(
        self,
        claims: StateClaims,
        *,
        window_s: float = IDENTIFY_WINDOW_S,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.claims = claims
        self.window_s = window_s
        self.clock = clock
        self.sleep = sleep
        self._last: str | None = None

    async def wait_turn(self, shard_id: int, max_concurrency: int = 1) -> int:
        """Wait until this shard may identify; the window it got (for tests and logs)."""
        bucket = shard_id % max(1, max_concurrency)
        while True:
            window = math.ceil(self.clock() / self.window_s)
            while not await self.claims.claim_state(f"identify:{bucket}:{window}", str(shard_id)):
                window += 1
            if window * self.window_s >= self.clock():
                break
            # Its moment passed while the claim was made: another process may have dropped
            # this past window's row after identifying in it, so it is given back, unused.
            await self.claims.drop_state(f"identify:{bucket}:{window}")
        if self._last is not None:
            await self.claims.drop_state(self._last)
        self._last = f"identify:{bucket}:{window}"
        wait = window * self.window_s - self.clock()
        if wait > 0:
            await self.sleep(wait)
        return window
