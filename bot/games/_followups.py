"""The one layer every game followup and interaction edit goes through (`Followups`).

discord.py's webhook code waits out a followup's 429 for its whole `retry_after`, with
no cap, outside the bot-token budget (issue 28: still waiting after 5 s of a 120 s
429). Here a call is made only when its buckets are free: the interaction's own
(`followups_of`, held by the 429s the trace sees or the call raises) and, after a 429
of shared scope, its channel's (`followups_in`: private games put every player's
followups there). A call whose buckets are held is refused at once, no request made
into the 429; one that is made is given up at its allowance (the cap, or less when
the game's deadline comes sooner: `until`). Either way the caller gets `RestBusy`,
with how long the hold lasts: a thread game falls back to the bot token, and a
private round waits unseen with its clock not started and is posted again when the
hold ends (`Shows`), as after any refused post. Counted, for the metrics.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import NamedTuple, TypeVar

import discord

from bot.games._discord import (
    Bucket,
    RestBudget,
    RestBusy,
    followups_in,
    followups_of,
    followups_shared,
    is_ban,
)
from bot.games._riding import KeptVia

T = TypeVar("T")

FOLLOWUP_CAP_S = 10.0
"""A followup or interaction edit still unanswered after this is given up."""
UNKNOWN_HOLD_S = 5.0
"""A followup's 429 that says nothing of how long (no Retry-After) holds it this long."""


class Buckets(NamedTuple):
    """What one interaction's calls count against."""

    token: Bucket
    shared: Bucket
    """Held while a 429 of shared scope on the token's calls lasts (`followups_shared`)."""
    channel: Bucket | None


def buckets_of(kept: KeptVia) -> Buckets:
    """The buckets `kept`'s calls count against: its token's, and its channel's."""
    token = kept.token or ""
    channel = followups_in(kept.channel_id) if kept.channel_id is not None else None
    return Buckets(followups_of(token), followups_shared(token), channel)


class Followups:
    """Capped, bucket-aware followups and interaction edits (see the module)."""

    def __init__(self, budget: RestBudget, cap_s: float = FOLLOWUP_CAP_S) -> None:
        self.budget = budget
        self.cap_s = cap_s
        self.posts = 0
        self.edits = 0
        self.late = 0
        """Calls given up at their allowance, or answered by a 429."""
        self.held = 0
        """Calls refused without a request: a bucket of theirs was held (or a ban), or
        the game's deadline had passed."""

    async def post(
        self, call: Callable[[], Awaitable[T]], what: str, kept: KeptVia | None = None,
        until: float | None = None,
    ) -> T:  # fmt: skip
        """Make `call` (a followup post of `kept`'s) unless its buckets are held;
        `until`: when it stops being of use (the game's deadline)."""
        self.posts += 1
        return await self._capped(call, what, kept, until)

    async def edit(
        self, call: Callable[[], Awaitable[T]], what: str, kept: KeptVia | None = None,
        until: float | None = None,
    ) -> T:  # fmt: skip
        self.edits += 1
        return await self._capped(call, what, kept, until)

    async def _capped(
        self, call: Callable[[], Awaitable[T]], what: str, kept: KeptVia | None, until: float | None
    ) -> T:
        buckets = buckets_of(kept) if kept is not None else None
        allowance = self.cap_s
        if until is not None:
            allowance = min(allowance, until - self.budget.clock())
        held = self._held_s(buckets)
        if held > 0 or allowance <= 0:
            self.held += 1
            raise RestBusy(
                reason=f"{what}: followups held {held:.0f} s, may wait {allowance:.0f} s",
                retry_after_s=held or None,
            )
        try:
            return await asyncio.wait_for(call(), allowance)
        except TimeoutError as late:  # discord.py is waiting out a 429 (the trace held it)
            self.late += 1
            self._shared(buckets)
            reason = f"{what}: no answer within {allowance:.0f} s"
            raise RestBusy(reason=reason, retry_after_s=self._held_s(buckets) or None) from late
        except discord.HTTPException as error:
            if not self._limited(error, buckets):
                raise
            self.late += 1
            reason = f"{what}: {error.status} {error.text or ''}".strip()
            raise RestBusy(reason=reason, retry_after_s=self._held_s(buckets) or None) from error

    def _held_s(self, buckets: Buckets | None) -> float:
        """How long these calls may not be made: a ban stops every call."""
        held = max(0.0, self.budget.ban.until - self.budget.clock())
        if buckets is None:
            return held
        return max(held, self.budget.held_s(buckets.token), self.budget.held_s(buckets.channel))

    def _limited(self, error: discord.HTTPException, buckets: Buckets | None) -> bool:
        """Whether `error` is Discord's 429 (not a ban's, which the trace reports to the
        ban gate): if so it holds these buckets for its Retry-After."""
        headers = getattr(error.response, "headers", None) or {}
        if error.status != 429:
            return False
        content_type = getattr(error.response, "content_type", "")
        if is_ban(429, headers, content_type if isinstance(content_type, str) else ""):
            return False  # the ban gate's: the trace saw it (`response_trace`)
        try:
            retry_after = float(headers.get("Retry-After", UNKNOWN_HOLD_S))
        except ValueError:
            retry_after = UNKNOWN_HOLD_S
        if buckets is not None:
            self.budget.hold(buckets.token, retry_after)
            if headers.get("X-RateLimit-Scope") == "shared":
                self.budget.hold(buckets.shared, retry_after)
            self._shared(buckets)
        return True

    def _shared(self, buckets: Buckets | None) -> None:
        """A 429 of shared scope on the interaction's calls holds its channel's too: the
        other players' followups there would meet it."""
        if buckets is None or buckets.channel is None:
            return
        shared = self.budget.held_s(buckets.shared)
        if shared > 0:
            self.budget.hold(buckets.channel, shared)
