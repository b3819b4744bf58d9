"""The bot-token budget: one token bucket per process below Discord's global limit,
FIFO lanes (the games' first), pauses on a 429, admission of new games, and the
invalid-request window. `with_retry` (`_discord`) spends it; docs/DISCORD.md says why.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from bot.common import UserError
from bot.play._ban import FIRST_BACKOFF_S, BanGate
from bot.play._holds import Bucket, BucketBusy, BucketHolds, RestBusy
from bot.play._types import Clock, Paused

log = logging.getLogger(__name__)

GLOBAL_LIMIT_PER_S = 50.0
"""Discord's global limit for one bot token."""
SHARE_OF_GLOBAL = 0.8
"""The budget stays this far below the global limit: room for what discord.py sends itself."""
START_DELAY_S = 10.0
"""A new game is refused when the backlog would post its first round later than this."""
START_CALLS = 3
"""Bot-token calls before a new game's first round shows: its thread (and, private, the
player added to it) and the round's post."""
INVALID = frozenset({401, 403, 429})
"""What Discord counts toward the invalid-request ban (a 429 of a shared scope excepted)."""
INVALID_WINDOW_S = 600.0
INVALID_LIMIT = 2_000
"""Invalid requests in INVALID_WINDOW_S past which optional traffic stops: a fifth of
Discord's 10,000, so games keep going well before a ban is near."""
DEMAND_WINDOW_S = 60.0
ADMIT_SHARE = 0.9
"""New games are refused while the games' lane asked more than this share of the rate
over the last DEMAND_WINDOW_S: the running games alone would grow the backlog, and
admitting more only makes every running game's rounds late."""
WAITS_KEPT = 1024
"""Recent waits per lane kept for the p99 gauge."""


class Lane(StrEnum):
    """Who a call is for, served in this order. The games' lane first; the optional
    lane (shares, archives, rematch posts) waits for it, and the daily posts' lane
    (thousands at one midnight) for both; the last two stop when invalid requests
    pile up."""

    GAMES = "games"
    OPTIONAL = "optional"
    DAILY = "daily"


class PauseKind(StrEnum):
    GLOBAL = "global"
    """A global 429 discord.py waits out itself (seen in the response trace)."""
    LONG = "long"
    """A long stop of every call set by hand (an operator, a test): a long 429 of one
    bucket holds that bucket alone (BUCKET), a global one is GLOBAL."""
    CLOUDFLARE = "cloudflare"
    """A 429 without Discord's headers: Cloudflare's."""
    BUCKET = "bucket"
    """A 429 of one bucket (user or shared scope): only that bucket waits (`hold`)."""


class StartRefused(RestBusy):
    """A new game refused at its start (`RestBudget.admit_start`): `errors.rest_busy`."""

    def __init__(self, *, reason: str) -> None:
        UserError.__init__(self, "rest_busy")
        self.reason = reason


@dataclass(frozen=True, slots=True)
class BudgetStats:
    """What the metrics read at a scrape (`bot.observability.RestStats`)."""

    queued: Mapping[str, int]
    backlog_s: Mapping[str, float]
    wait_p99_s: Mapping[str, float]
    refused_calls: Mapping[str, int]
    refused_starts: int
    pauses: Mapping[str, int]
    paused_s: float
    invalid_recent: int
    optional_allowed: bool
    banned: bool = False
    ban_refused: int = 0


class RestBudget:
    """This process's bot-token calls: a token bucket, FIFO lanes, pauses, admission.

    `processes` shard processes share one token, so each takes its share of the
    global limit. Time is the bot's clock (virtual in tests), waits are `sleep`.
    """

    def __init__(
        self,
        clock: Clock,
        *,
        processes: int = 1,
        burst: int = 10,
        on_error: Callable[[int], None] | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        global_limit: float = GLOBAL_LIMIT_PER_S,
        start_delay_s: float = START_DELAY_S,
        invalid_limit: int = INVALID_LIMIT,
        ban_backoff_s: float = FIRST_BACKOFF_S,
    ) -> None:
        """`on_error(status)` hears of every failed call (metrics count them);
        `global_limit` is Discord's (a test's server may be faster); `ban_backoff_s`:
        the first wait of a Cloudflare ban (`BanGate`)."""
        self.clock = clock
        self.on_error = on_error
        self.sleep = sleep
        self.rate = global_limit * SHARE_OF_GLOBAL / max(1, processes)
        self.burst = float(burst)
        self.start_delay_s = start_delay_s
        self.invalid_limit = invalid_limit
        self._tokens = self.burst
        self._at: float | None = None
        self._queues: dict[Lane, deque[_Ticket]] = {lane: deque() for lane in Lane}
        self._paused_until = 0.0
        self.holds = BucketHolds(clock)
        """The buckets a 429 of user or shared scope holds (`hold`), apart from the rest."""
        self.ban = BanGate(clock, first_backoff_s=ban_backoff_s)
        """Every call of the process, bot token and webhooks, during a Cloudflare ban."""
        self._invalid = _Window(INVALID_WINDOW_S)
        self._asked = _Window(DEMAND_WINDOW_S)
        self._refusal_logged = -DEMAND_WINDOW_S
        self._optional_stopped = False
        self._waits: dict[Lane, deque[float]] = {lane: deque(maxlen=WAITS_KEPT) for lane in Lane}
        self._refused_calls = dict.fromkeys(Lane, 0)
        self._pauses = dict.fromkeys(PauseKind, 0)
        self.refused_starts = 0
        self.paused_s = 0.0
        self.waited_s = 0.0

    # ----------------------------------------------------------- the bucket

    def _refill(self, now: float) -> None:
        elapsed = 0.0 if self._at is None else max(0.0, now - self._at)  # clocks can jump
        self._tokens = min(self.burst, self._tokens + elapsed * self.rate)
        self._at = now

    def _need(self, lane: Lane) -> float:
        """Tokens the bucket must hold for a call of `lane` to go: the daily posts take
        only what would overflow a full bucket, never the burst the games may need (a
        wave of them alone stays at the rate in every second)."""
        return self.burst if lane is Lane.DAILY else 1.0

    def _ahead(self, lane: Lane) -> int:
        """Calls queued in `lane` and in the lanes served before it."""
        return sum(len(self._queues[other]) for other in _up_to(lane))

    def delay_s(self, lane: Lane = Lane.GAMES) -> float:
        """How long a call taken now in `lane` would wait (the backlog, in seconds)."""
        now = self.clock()
        self._refill(now)
        deficit = max(0.0, self._ahead(lane) + self._need(lane) - self._tokens)
        return max(0.0, self._paused_until - now) + deficit / self.rate

    async def take(
        self,
        lane: Lane = Lane.GAMES,
        *,
        within: float | None = None,
        bucket: Bucket | None = None,
        through_pause: bool = True,
    ) -> None:
        """Wait for this call's turn; `RestBusy` at once when it would come later than
        `within` seconds from now, or when the optional lane is stopped; `BucketBusy`
        when its `bucket` is held longer than that. Not `through_pause`: `Paused` at
        once while a 429 pauses the process or holds `bucket` for `within` or less (a
        caller holding a lock others wait for waits it out after letting go:
        `Shows.show`); a longer one is refused as before, its post tried again later.

        A waiter sleeps (`sleep`, a wait simcord's virtual clock recognizes) until its
        turn is due, then looks again: in order, it wakes about once.
        """
        if lane is not Lane.GAMES and not self.optional_allowed():
            self._refused_calls[lane] += 1
            raise RestBusy(reason="optional traffic stopped: too many invalid requests")
        held = self.held_s(bucket)
        if not through_pause:
            paused = max(held, self._paused_until - self.clock())
            if paused > 0 and (within is None or paused <= within):  # longer: refused below
                raise Paused(paused, f"the {lane} lane is paused by a 429")
        if bucket is not None and held > 0:
            if within is not None and held > within:
                self._refused_calls[lane] += 1
                raise BucketBusy(bucket, held)
            await self.sleep(held)
            if within is not None:
                within -= held
        if lane is Lane.GAMES:
            self._asked.add(self.clock())
        if within is not None and self.delay_s(lane) > within:
            self._refused_calls[lane] += 1
            raise RestBusy(reason=f"the {lane} lane is {self.delay_s(lane):.1f} s behind")
        now = self.clock()
        self._refill(now)
        need = self._need(lane)
        if not self._ahead(lane) and now >= self._paused_until and self._tokens >= need - 1e-9:
            self._tokens = max(0.0, self._tokens - 1)  # a float a hair short of a token is one
            self._waits[lane].append(0.0)
            return
        queue = self._queues[lane]
        ticket = _Ticket(queue[-1].seq + 1 if queue else 0)
        queue.append(ticket)
        try:
            while not self._grant(ticket):
                wait = self._due_in(ticket, lane)
                self.waited_s += wait
                await self.sleep(wait)
        except BaseException:
            ticket.dropped = True
            if ticket.granted:
                self._tokens += 1  # cancelled between its grant and its call: give it back
            raise
        self._waits[lane].append(max(0.0, self.clock() - now))

    def _grant(self, mine: _Ticket) -> bool:
        """Hand the tokens there are to the queues' heads, games first; True once `mine`
        has one. A lower lane gets nothing while a higher one still waits."""
        now = self.clock()
        self._refill(now)
        if now >= self._paused_until:
            for lane, queue in self._queues.items():
                need = self._need(lane)
                while queue and (queue[0].dropped or self._tokens >= need - 1e-9):
                    head = queue.popleft()
                    if not head.dropped:
                        head.granted = True
                        self._tokens = max(0.0, self._tokens - 1)
                if queue:
                    break
        return mine.granted

    def _due_in(self, ticket: _Ticket, lane: Lane) -> float:
        """When `ticket`'s token should be there, if nothing jumps the queue."""
        queue = self._queues[lane]
        ahead = ticket.seq - queue[0].seq if queue else 0
        ahead += sum(len(self._queues[other]) for other in _up_to(lane) if other is not lane)
        paused = max(0.0, self._paused_until - self.clock())
        return max(paused + (ahead + self._need(lane) - self._tokens) / self.rate, 1e-3)

    # ------------------------------------------------------ admission, pauses

    def admit_start(self) -> bool:
        """Whether a new game's first round would be posted within `start_delay_s`, and
        the running games leave room for it (ADMIT_SHARE); a refusal is counted."""
        now = self.clock()
        first_round = self.delay_s(Lane.GAMES) + (START_CALLS - 1) / self.rate
        asked = self.demand_per_s()
        if first_round <= self.start_delay_s and asked < self.rate * ADMIT_SHARE:
            return True
        self.refused_starts += 1
        if now - self._refusal_logged >= DEMAND_WINDOW_S:  # once a minute, not per start
            self._refusal_logged = now
            log.warning(
                "game starts refused: the first round would wait %.1f s, the games ask "
                "%.1f calls/s of %.1f", first_round, asked, self.rate,
            )  # fmt: skip
        return False

    def demand_per_s(self) -> float:
        """Calls the games' lane asked for per second over the last DEMAND_WINDOW_S."""
        return self._asked.total(self.clock()) / DEMAND_WINDOW_S

    def pause(self, seconds: float, kind: PauseKind) -> None:
        """Stop every bot-token call of this process for `seconds` (a 429 said so)."""
        now = self.clock()
        until = now + max(0.0, seconds)
        self._pauses[kind] += 1
        if until > self._paused_until:
            self.paused_s += until - max(now, self._paused_until)
            self._paused_until = until
        log.warning("bot-token calls paused for %.1f s (%s 429)", seconds, kind)

    def hold(self, bucket: Bucket, seconds: float) -> None:
        """Hold the calls of `bucket` alone for `seconds` (`BucketHolds`): every other
        bucket, and every other channel's game, goes on."""
        if self.holds.hold(bucket, seconds):
            self._pauses[PauseKind.BUCKET] += 1

    def held_s(self, bucket: Bucket | None) -> float:
        """How long calls of `bucket` still wait for its 429 (0: they may go)."""
        return self.holds.held_s(bucket)

    # ------------------------------------------------------ invalid requests

    def saw_ban(self) -> None:
        """A Cloudflare ban's 429: every call stops (`ban`), the bot-token lanes wait too."""
        was = self.ban.until
        self.ban.saw_ban()
        if self.ban.until > was:
            self._pauses[PauseKind.CLOUDFLARE] += 1
            now = self.clock()
            self.paused_s += max(0.0, self.ban.until - max(now, self._paused_until))
            self._paused_until = max(self._paused_until, self.ban.until)

    def saw_status(self, status: int, *, shared_scope: bool = False) -> None:
        """A response arrived; 401, 403 and 429 count toward Discord's ban."""
        if status not in INVALID or (status == 429 and shared_scope):
            return
        self._invalid.add(self.clock())
        self.optional_allowed()

    def invalid_recent(self) -> int:
        """Invalid requests seen in the last INVALID_WINDOW_S."""
        return self._invalid.total(self.clock())

    def optional_allowed(self) -> bool:
        """Whether optional traffic (daily posts, shares, archives) may go now: not while
        invalid requests near Discord's ban. Ask it before optional work that would
        cost more than its one call; `take` in the optional or daily lane asks it too."""
        recent = self.invalid_recent()
        stopped = recent >= self.invalid_limit
        if stopped and not self._optional_stopped:
            log.error(
                "%d invalid Discord requests (401/403/429) in 10 minutes: optional traffic "
                "stops (Discord bans an IP past 10,000)", recent,
            )  # fmt: skip
        elif self._optional_stopped and not stopped:
            log.warning(
                "invalid requests down to %d in 10 minutes: optional traffic resumes", recent
            )
        self._optional_stopped = stopped
        return not stopped

    def stats(self) -> BudgetStats:
        return BudgetStats(
            queued={lane: len(self._queues[lane]) for lane in Lane},
            backlog_s={lane: self.delay_s(lane) for lane in Lane},
            wait_p99_s={lane: _p99(self._waits[lane]) for lane in Lane},
            refused_calls={str(lane): n for lane, n in self._refused_calls.items()},
            refused_starts=self.refused_starts,
            pauses={str(kind): n for kind, n in self._pauses.items()},
            paused_s=self.paused_s,
            invalid_recent=self.invalid_recent(),
            optional_allowed=not self._optional_stopped,
            banned=self.ban.banned,
            ban_refused=self.ban.refused,
        )


def _up_to(lane: Lane) -> list[Lane]:
    lanes = list(Lane)
    return lanes[: lanes.index(lane) + 1]


class _Window:
    """Counts per second over the last `span_s` seconds."""

    def __init__(self, span_s: float) -> None:
        self.span_s = span_s
        self._counts: deque[list[int]] = deque()  # [second, count], oldest first

    def add(self, now: float) -> None:
        second = int(now)
        if self._counts and self._counts[-1][0] == second:
            self._counts[-1][1] += 1
        else:
            self._counts.append([second, 1])

    def total(self, now: float) -> int:
        while self._counts and self._counts[0][0] < now - self.span_s:
            self._counts.popleft()
        return sum(count for _, count in self._counts)


@dataclass(eq=False, slots=True)
class _Ticket:
    """A queued call: `seq` orders its lane; granted once a token is its."""

    seq: int
    granted: bool = False
    dropped: bool = False


def _p99(waits: deque[float]) -> float:
    if not waits:
        return 0.0
    ordered = sorted(waits)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
