"""A Cloudflare ban: every call of the process stops, and one probe at a time asks
whether it is over (issue 28).

Cloudflare answers an IP that made too many invalid requests with a 429 that has no
Retry-After and none of Discord's rate-limit headers (often an HTML page). Pausing a
second and bursting again, as for a 429 that says nothing, hammers the ban and makes
it longer. So the first such answer stops every call, bot token and interaction
webhooks alike (`enter` is asked before each request leaves): after a backoff that
doubles with each probe still banned, one call goes as the probe while the others are
refused at once (`Banned`); a probe that is answered otherwise ends the ban.
"""

from __future__ import annotations

import logging

from bot.common import UserError
from bot.play._types import Clock

log = logging.getLogger(__name__)

FIRST_BACKOFF_S = 5.0
"""The wait before the first probe; each probe still banned doubles it."""
MAX_BACKOFF_S = 900.0
"""Probes never go further apart than this (a Cloudflare ban lasts about an hour)."""


class Banned(UserError):
    """A call refused during a ban without being sent: the player is told to try again
    in a minute (`errors.rest_wait`), nothing was posted."""

    def __init__(self) -> None:
        super().__init__("rest_wait")
        self.reason = "Cloudflare ban: calls stopped, one probe at a time"


class BanGate:
    """Whether a request may leave: always, but during a ban only one probe per backoff."""

    def __init__(
        self,
        clock: Clock,
        *,
        first_backoff_s: float = FIRST_BACKOFF_S,
        max_backoff_s: float = MAX_BACKOFF_S,
    ) -> None:
        self.clock = clock
        self.first_backoff_s = first_backoff_s
        self.max_backoff_s = max_backoff_s
        self.until = 0.0
        """No request leaves before this (0: no ban)."""
        self.backoff_s = 0.0
        self.probing = False
        self.bans = 0
        self.refused = 0
        self.banned_s = 0.0
        self._since: float | None = None

    @property
    def banned(self) -> bool:
        return self._since is not None

    def enter(self) -> bool:
        """Before a request leaves: True if it is the ban's probe; `Banned` when it may
        not go (the ban's wait is not over, or another probe is out)."""
        if not self.banned:
            return False
        if self.probing or self.clock() < self.until:
            self.refused += 1
            raise Banned
        self.probing = True
        return True

    def saw_ban(self) -> None:
        """A ban's 429 arrived: stop everything, or back off further after a probe. A
        second report of the same answer (the trace and the caller) changes nothing."""
        now = self.clock()
        self.probing = False
        if self.banned and now < self.until:
            return
        if self._since is None:
            self._since = now
            self.bans += 1
            self.backoff_s = self.first_backoff_s
            log.error(
                "Cloudflare ban (a 429 without Discord's headers): every Discord call stops; "
                "one probe at a time, the first in %.0f s", self.backoff_s,
            )  # fmt: skip
        else:
            self.backoff_s = min(self.max_backoff_s, self.backoff_s * 2)
        self.until = now + self.backoff_s

    def saw_answer(self, sent_at: float) -> None:
        """Another answer arrived to a request sent at `sent_at`: one sent during the ban
        (the probe; on a simulated Discord, any call) ends it. One sent before the ban
        began says nothing about it."""
        if self._since is None or sent_at < self._since:
            return
        lasted = self.clock() - self._since
        self.banned_s += lasted
        log.warning("the Cloudflare ban is over after %.0f s: calls resume", lasted)
        self._since = None
        self.probing = False
        self.until = 0.0
        self.backoff_s = 0.0

    def gave_up(self, probe: bool) -> None:
        """The probe got no answer (a connection error): the next call probes again."""
        if probe:
            self.probing = False
