"""The daily post: at each server's midnight, the Qualification day that just ended.

No Discord here: the service decides what is due and claims it, `PostChannel` sends it.
Exactly once per (server, Set, period): the claim row is taken before anything is sent
(`Store.servers.claim_post`) and marked done after. A process that died mid-post leaves
its claim unfinished, and another process (or this one after a restart) takes it over
once the lease has run out; a done mark that failed is retried by its own process at
once. Either way the post may already be in the channel (Discord took it, the mark did
not land), so a claim taken over first looks there for the post's marker and only posts
when it is not found; the post carries a nonce of its key as well (`enforce_nonce`: a
retry within Discord's few minutes is not posted twice). A day is posted when
`rules.seal` lifts: its end, and every game of it ended, however long. A channel
Discord refuses (403) or that is gone (404) is taken off the server's `/config` with
the reason, which `/config show` tells. Nothing is kept in memory: each look goes over every
server's ended days since its channel was set (the last `CATCH_UP`), so posts missed
during a downtime are made then, oldest first.

At one midnight thousands of servers are due: they are posted `CONCURRENCY` at a time
(each server's days in order), every call in the REST budget's daily lane, below the
games' (`PostChannel`'s job); while the budget stops optional traffic (invalid requests
near Discord's ban) nothing is claimed and the look is tried again in `RETRY_S`. The
closest formulas were solved before midnight (`DayAhead`), so the wave asks the
solver nothing the running games' reveals would wait behind.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import Enum
from urllib.parse import urlencode

import rules
from bot.common import SetsDirectory, UserError
from bot.config import web_address
from bot.daily._ahead import Closest, DayAhead
from bot.daily._content import DailyContent, DayExtras, DayWinners, PostChannel
from bot.play import game_time
from bot.storage import ChannelGone, PeriodSummary, ServerSettings, Store
from rules import FormulaLanguage, GameSet
from solver.result import Candidate

log = logging.getLogger(__name__)

LEASE_S = 300.0
"""A claim older than this without its done mark was a crash mid-post."""
RETRY_S = 60.0
"""How soon a post that had to wait (a game of that day still running, a claim held by
another process) is tried again."""
FOUND_MARGIN_S = 60.0
"""How far before a taken-over claim the channel is searched for its post (clock skew)."""
CATCH_UP = 7
"""How many ended days a look goes back: a longer downtime's older days stay unposted
(a week of late boards is news enough)."""
CONCURRENCY = 8
"""Servers posted at once. Each post's call waits in the budget's daily lane, behind
every game's call, so at most this many wait there (0.2 s of the budget's 40 calls/s);
8 keeps the lane fed while each post's own database work (~10-50 ms) runs."""
IDLE_S = 3600.0
"""The longest sleep with nothing due (a /config change in this process wakes the loop
at once; one made in another process is seen within this)."""

Key = tuple[int, str, str]


class Outcome(Enum):
    """What one post came to."""

    MADE = "made"
    DONE_BEFORE = "done_before"
    WAITING = "waiting"
    """A game of that day is still being played, or another process holds the claim."""
    CHANNEL_GONE = "channel_gone"


@dataclass
class Due:
    """One look at what is due: posts made, and whether one had to wait."""

    made: int = 0
    waiting: bool = False


def _shift(period: str, days: int) -> str:
    return (datetime.strptime(period, "%Y-%m-%d") + timedelta(days=days)).strftime("%Y-%m-%d")


def previous_period(now: datetime, settings: ServerSettings) -> str:
    """The server's Qualification day that ended last before `now`."""
    return _shift(rules.period_of(now, settings.zone), -1)


def ended_periods(now: datetime, settings: ServerSettings) -> list[str]:
    """The ended days the server's channel is owed a post for, oldest first: from the day
    running when the channel was set (none for a day that ended before) to the one that
    ended last, `CATCH_UP` at most."""
    if settings.channel_since is None:
        return []
    since = datetime.fromtimestamp(settings.channel_since, UTC)
    first = max(
        rules.period_of(since, settings.zone),
        _shift(rules.period_of(now, settings.zone), -CATCH_UP),
    )
    days: list[str] = []
    day = previous_period(now, settings)
    while day >= first:
        days.append(day)
        day = _shift(day, -1)
    return days[::-1]


def board_link(base: str | None, settings: ServerSettings, set_name: str) -> str | None:
    """A Set's board on the server's pages, or None while they are off."""
    if base is None or not settings.web_on or settings.web_key is None:
        return None
    return f"{web_address(base, settings.web_key)}?{urlencode({'set': set_name})}"


class DailyPosts:
    def __init__(
        self,
        store: Store,
        sets: SetsDirectory,
        channel: PostChannel,
        *,
        clock: Callable[[], float],
        owns: Callable[[int], bool] = lambda guild_id: True,
        closest: Closest | None = None,
        owner: str | None = None,
        web_base: str | None = None,
        may_post: Callable[[], bool] = lambda: True,
        concurrency: int = CONCURRENCY,
        winners: DayWinners | None = None,
        extras: DayExtras | None = None,
    ) -> None:
        """`web_base`: the web pages' public address; the post links its board there.
        `may_post`: whether the REST budget lets optional traffic go now
        (`RestBudget.optional_allowed`). `winners` is told each closed day's first
        (`bot.achievements.Rewards`)."""
        self.winners = winners
        self.extras = extras
        self.web_base = web_base
        self.store = store
        self.sets = sets
        self.channel = channel
        self.clock = clock
        self.owns = owns
        self.ahead = None if closest is None else DayAhead(store, closest, clock=clock, owns=owns)
        self.owner = owner or uuid.uuid4().hex
        self.may_post = may_post
        self.concurrency = max(1, concurrency)
        self._task: asyncio.Task[None] | None = None
        self._ahead_task: asyncio.Task[None] | None = None
        self._sleeping = False
        self._again = False

    async def run_due(self) -> Due:
        """Make every post that is due for this process's servers."""
        due = Due()
        now = datetime.fromtimestamp(self.clock(), UTC)
        servers = iter(
            [s for s in await self.store.servers.with_channel() if self.owns(s.guild_id)]
        )

        async def worker() -> None:
            for settings in servers:  # shared: each server is taken by one worker
                await self._server_due(settings, now, due)

        async with asyncio.TaskGroup() as group:
            for _ in range(self.concurrency):
                group.create_task(worker())
        return due

    async def _server_due(self, settings: ServerSettings, now: datetime, due: Due) -> None:
        """One server's owed posts, oldest first; a failure waits for the next look."""
        try:
            owed = await self._owed(settings, now)
        except Exception:  # one server's failure must not hold up the others
            log.exception("the daily posts owed to %s could not be read", settings.guild_id)
            due.waiting = True
            return
        for set_name, period in owed:
            if not self.may_post():  # the budget logs the stop and the resume
                due.waiting = True
                return
            try:
                outcome = await self._post(settings, set_name, period)
            except UserError as refused:  # the budget's RestBusy: too far behind, stopped
                log.warning("daily post of %s waits: %s", set_name, refused)
                outcome = Outcome.WAITING
            except Exception:
                log.exception("daily post of %s failed; tried again", set_name)
                outcome = Outcome.WAITING
            due.made += outcome is Outcome.MADE
            due.waiting = due.waiting or outcome is Outcome.WAITING
            if outcome is Outcome.CHANNEL_GONE:
                return  # its channel is cleared: nothing more is sent there

    async def server_left(self, guild_id: int) -> None:
        """The bot left (or was removed from) a server: its channel is taken off `/config`,
        and the admin is told why if the bot comes back."""
        servers = self.store.servers
        if await servers.clear_channel(guild_id, None, ChannelGone.BOT_REMOVED, self.clock()):
            log.info("server %s left: its daily-post channel is cleared", guild_id)

    async def _owed(self, settings: ServerSettings, now: datetime) -> list[tuple[str, str]]:
        """(Set, period) not posted yet, oldest day first: each ended day's Sets played,
        and for the day that ended last the server's default Set too (its Play button
        starts today's game; an unplayed day further back is not worth a post)."""
        days = ended_periods(now, settings)
        if not days:
            return []
        guild_id = settings.guild_id
        servers = self.store.servers
        played = await servers.played_between(guild_id, days[0], days[-1])
        posted = await servers.posted_between(guild_id, days[0], days[-1])
        owed = [(name, day) for day in days for name in played.get(day, [])]
        try:
            default = (await self.sets.resolve(guild_id, None)).name
        except UserError:
            default = None
        if default is not None and default not in played.get(days[-1], []):
            owed.insert(len(owed) - len(played.get(days[-1], [])), (default, days[-1]))
        return [key for key in owed if key not in posted]

    async def _post(self, settings: ServerSettings, set_name: str, period: str) -> Outcome:
        """Claim, then send, then mark done; a claim taken over looks for its post first.
        Waits while `rules.seal` holds the day (a game of it is still being played)."""
        guild_id = settings.guild_id
        key: Key = (guild_id, set_name, period)
        servers = self.store.servers
        if await servers.post_done(key):
            return Outcome.DONE_BEFORE
        now = datetime.fromtimestamp(self.clock(), UTC)
        running = await servers.running(guild_id, set_name, period)
        if rules.seal(period, now, still_played=running > 0, tz=settings.zone) is not None:
            return Outcome.WAITING  # its Digits are still secret to whoever plays it
        claim = await servers.claim_post(key, self.owner, self.clock(), LEASE_S)
        if claim is None:
            return Outcome.WAITING
        played = await servers.played_set(guild_id, set_name, period)
        if played is None:  # no game of it that day: nothing to read (most of a wave)
            summary = PeriodSummary([], 0, 0, [])
        else:
            summary = await servers.summary(guild_id, set_name, period, version=played.version)
        await self._tell_winners(guild_id, set_name, period, summary)
        content = DailyContent(
            guild_id,
            set_name,
            period,
            summary,
            await self._closest(played, summary),
            settings.language or "en",
            played.language if played is not None else await self._language(guild_id, set_name),
            board_link(self.web_base, settings, set_name),
            await self._extra(guild_id, set_name, period, settings.language or "en"),
        )
        assert settings.channel_id is not None
        sent: int | ChannelGone | None = None
        if claim.resumed_since is not None:  # the post may be there already
            since = claim.resumed_since - FOUND_MARGIN_S
            sent = await self.channel.find(settings.channel_id, content.marker, since)
            if isinstance(sent, int):
                log.info("daily post %s was made before its done mark: not made again", key)
        if sent is None:
            sent = await self.channel.post(settings.channel_id, content)
        if isinstance(sent, ChannelGone):
            log.warning("daily post %s: its channel is %s; cleared", key, sent.value)
            await servers.clear_channel(guild_id, settings.channel_id, sent, self.clock())
            await servers.finish_post(key, self.owner, None, self.clock())
            return Outcome.CHANNEL_GONE
        await servers.finish_post(key, self.owner, sent, self.clock())
        return Outcome.MADE

    async def _extra(
        self, guild_id: int, set_name: str, period: str, locale: str
    ) -> tuple[str, ...]:
        """The extras' lines; a failure leaves them out (the post matters more)."""
        if self.extras is None:
            return ()
        try:
            return tuple(await self.extras.day_lines(guild_id, set_name, period, locale))
        except Exception:
            log.exception(
                "the day's extra lines for %s/%s failed; posting without", guild_id, period
            )
            return ()

    async def _tell_winners(
        self, guild_id: int, set_name: str, period: str, summary: PeriodSummary
    ) -> None:
        """The day's first (ties share it) to `winners`, before the post: a retry of the
        post tells them again, which they take once. A failure costs the post nothing."""
        if self.winners is None:
            return
        for row in summary.board:
            if row.rank != 1:
                break
            try:
                await self.winners.day_won(guild_id, row.user_id, set_name, period, row.game_id)
            except Exception:
                log.exception("daily post %s: telling its winner failed", (guild_id, period))

    async def _language(self, guild_id: int, set_name: str) -> FormulaLanguage:
        """A day nobody played names the Set's language as the Set is now."""
        try:
            return (await self.sets.resolve(guild_id, set_name)).language
        except UserError:
            return FormulaLanguage.PHP

    async def _closest(
        self, played: GameSet | None, summary: PeriodSummary
    ) -> dict[str, Candidate | None] | None:
        """Solved under the Set as those games had it (not as edited since); a day
        nobody played has no rounds to solve."""
        if self.ahead is None:
            return None
        if played is None:
            return {}
        digits = dict.fromkeys(best.digits for best in summary.rounds)
        # mostly solved before midnight; one that was not is prepared first: everyone
        # played it, so every `/game` reveal of the day after is a query on it
        return {d: await self.ahead.closest(d, played, prepare=True) for d in digits}

    def wait_s(self, servers: list[ServerSettings], deferred: bool) -> float:
        """Until just past the next midnight of a server with a channel; `RETRY_S` while a
        post waits (a game still running, a claim held elsewhere); `IDLE_S` at most."""
        now = self.clock()
        moment = datetime.fromtimestamp(now, UTC)
        ends = [
            rules.period_end(rules.period_of(moment, s.zone), s.zone).timestamp() - now + 1.0
            for s in servers
            if self.owns(s.guild_id)
        ]
        return max(1.0, min([RETRY_S if deferred else IDLE_S, *ends]))

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="daily-posts")
        if self.ahead is not None and self._ahead_task is None:
            self._ahead_task = asyncio.create_task(self.ahead.run(), name="daily-ahead")

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None
        if self._ahead_task is not None:
            self._ahead_task.cancel()
            self._ahead_task = None

    def poke(self) -> None:
        """Look again now (a server's channel or timezone changed): a sleeping loop is
        restarted; a running one goes round once more before it sleeps."""
        if self._task is None:
            return
        if self._sleeping:  # the look ahead keeps its own schedule
            self._task.cancel()
            self._task = asyncio.create_task(self._run(), name="daily-posts")
        else:
            self._again = True

    async def _run(self) -> None:
        while True:
            self._again = False
            deferred = True
            servers: list[ServerSettings] = []
            try:
                deferred = (await self.run_due()).waiting
                servers = await self.store.servers.with_channel()
            except Exception:
                log.exception("daily posts failed; trying again later")
            if self._again:
                continue
            self._sleeping = True
            try:
                await game_time.wait(self.wait_s(servers, deferred))  # the day's, not real
            finally:
                self._sleeping = False
