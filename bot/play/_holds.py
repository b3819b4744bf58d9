"""What a 429 holds: one bucket as Discord keys it (`Bucket`), for as long as its
Retry-After said (`BucketHolds`); the whole process only for a global 429 or a
Cloudflare ban (`RestBudget.pause`, `BanGate`). Apart from the budget's token bucket
and lanes, which never look at a bucket (issue 28: one channel's long 429 stopped every
game of the process)."""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass
from typing import ClassVar

from bot.common import UserError
from bot.play._types import Clock

log = logging.getLogger(__name__)

HELD_KEPT = 4096
"""Held buckets past which the expired ones are forgotten (each is a few hundred bytes)."""


@dataclass(frozen=True, slots=True)
class Bucket:
    """A rate limit as Discord keys it: a route and its major parameter (a channel, a
    guild, a webhook). A 429 of user or shared scope holds this alone, never the process."""

    route: str
    """The route's template, e.g. "POST /channels/{channel_id}/messages"."""
    major: int

    def __str__(self) -> str:
        return f"{self.route} ({self.major})"


class RestBusy(UserError):
    """A bot-token call the budget would not queue, or that ran past its deadline.

    A UserError, so a player whose press it refused is told, in their language, to try
    again in a minute (`errors.rest_wait`).
    """

    def __init__(self, *, reason: str, retry_after_s: float | None = None) -> None:
        super().__init__("rest_wait")
        self.reason = reason
        self.retry_after_s = retry_after_s
        """How long until the call may go, when a 429 said so: a refused round's post
        is tried again then (`Shows`), not on its fixed schedule."""


class BucketBusy(RestBusy):
    """A call whose bucket a 429 holds for longer than the caller may wait: the player is
    told how many minutes to wait (`limits.busy_here`), nothing was used."""

    prefix: ClassVar[str] = "limits."

    def __init__(self, bucket: Bucket, retry_after_s: float) -> None:
        UserError.__init__(self, "busy_here", minutes=max(1, math.ceil(retry_after_s / 60)))
        self.bucket = bucket
        self.retry_after_s = retry_after_s
        self.reason = f"{bucket} is rate limited for {retry_after_s:.0f} s"


class BucketHolds:
    """Until when each held bucket's calls wait; every other bucket goes on."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._held: dict[Bucket, float] = {}
        self.holds = 0
        """Holds begun or lengthened (a metric: `PauseKind.BUCKET`)."""

    def hold(self, bucket: Bucket, seconds: float) -> bool:
        """Hold `bucket`'s calls for `seconds` (a 429 of user or shared scope said so);
        False when an earlier hold already lasts longer."""
        now = self.clock()
        until = now + max(0.0, seconds)
        if until <= self._held.get(bucket, 0.0):
            return False
        if len(self._held) >= HELD_KEPT:
            self._held = {b: end for b, end in self._held.items() if end > now}
        self._held[bucket] = until
        self.holds += 1
        log.warning("%s held for %.0f s (a 429 of its bucket); other calls go on", bucket, seconds)
        return True

    def held_s(self, bucket: Bucket | None) -> float:
        """How long calls of `bucket` still wait for its 429 (0: they may go)."""
        if bucket is None:
            return 0.0
        return max(0.0, self._held.get(bucket, 0.0) - self.clock())
