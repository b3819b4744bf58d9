"""Slowing down whoever keeps ending workers, and nobody else.

A formula that ends its worker (a fatal error, a timeout, a worker left
dirty) costs a replacement; an honest formula never does. Each caller (`who`,
the bot's player id) has a token bucket: `free_kills` are free, then every
kill puts the caller further in debt, and while in debt each request of theirs
waits until it is paid back, at one token per `refill_s`. The wait happens before
the request is queued, so it holds no worker and delays no one else.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass


@dataclass(slots=True)
class _Bucket:
    tokens: float
    updated: float


class PenaltyBox:
    """Per-caller kill budget; time is passed in (`now`, the event loop's clock)."""

    def __init__(
        self,
        free_kills: int = 3,
        refill_s: float = 10.0,
        *,
        max_debt: int = 30,
        max_callers: int = 10_000,
    ) -> None:
        """`max_debt` caps a caller's wait at about `max_debt * refill_s`; at most
        `max_callers` are remembered (the least recently charged go first)."""
        self.free_kills = free_kills
        self.refill_s = refill_s
        self.max_debt = max_debt
        self.max_callers = max_callers
        self._buckets: OrderedDict[str, _Bucket] = OrderedDict()

    @property
    def tracked(self) -> int:
        """Callers remembered now (only those still paying back)."""
        return len(self._buckets)

    def _refilled(self, who: str, now: float) -> _Bucket | None:
        bucket = self._buckets.get(who)
        if bucket is None:
            return None
        bucket.tokens = min(
            float(self.free_kills), bucket.tokens + (now - bucket.updated) / self.refill_s
        )
        bucket.updated = now
        if bucket.tokens >= self.free_kills:
            del self._buckets[who]  # paid back in full: forget the caller
            return None
        return bucket

    def tokens(self, who: str, now: float) -> float:
        """Kills `who` may still make before waiting (negative: in debt)."""
        bucket = self._refilled(who, now)
        return float(self.free_kills) if bucket is None else bucket.tokens

    def delay(self, who: str | None, now: float) -> float:
        """Seconds `who` must wait before their next request may be queued."""
        if who is None:
            return 0.0
        bucket = self._refilled(who, now)
        if bucket is None or bucket.tokens >= 0:
            return 0.0
        return -bucket.tokens * self.refill_s

    def charge(self, who: str | None, now: float) -> None:
        """`who`'s request ended a worker."""
        if who is None:
            return
        bucket = self._refilled(who, now) or _Bucket(float(self.free_kills), now)
        bucket.tokens = max(-float(self.max_debt), bucket.tokens - 1)
        self._buckets[who] = bucket
        self._buckets.move_to_end(who)
        while len(self._buckets) > self.max_callers:
            self._buckets.popitem(last=False)
