"""The day's closest formulas, solved before its midnight (issue 20, the midnight wave).

A daily post names, for each round's Digits, the formula nearest the Goal. That needs
no player's Score: only the Digits and the Set. And a Qualification day's Digits are
known from its start: they come from the server's seed (`rules.qualification_seed` of
the server, the Set's version and the day; round n is `rules.seeded_digits(seed, n)`),
the same for everyone's first attempt. So in the last `AHEAD_S` before a server's
midnight, once someone has played its day, those Digits are solved (and confirmed by
real PHP) one at a time, each followed by an idle pause as long as it took: the solver
process, which also serves the running games' reveals, is never given more than one of
these calls at once and is left idle at least half the time. At midnight the posts of
thousands of servers read the answers here instead of queueing ~7 solver calls each
in front of every reveal.

What a post needs that is not here (a replay's own Digits, a Set edited after the last
look, a solve that failed, a process started after midnight) is solved when the post is
made, under the same one-at-a-time lock. Only a cache: kept in memory, rebuilt on
demand; losing it costs time, never a post.

A look solves each Digits cold (~0.2 s), it does not prepare it (`Solver.prepare`,
~0.4 s, three cold solves): the solver process keeps 8 prepared Digits, and a day of
thousands of servers would evict each long before its `/game` reveals asked. A small
midnight (at most `SMALL` Digits wanted) is not solved ahead at all: its posts prepare
their Digits and query them, a few seconds of the solver, and the `/game` reveals of
the day after are queries on prepared Digits.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Protocol

import rules
from bot.storage import ServerSettings, Store
from rules import GameSet
from solver.result import Candidate

log = logging.getLogger(__name__)

AHEAD_S = 3 * 3600.0
"""How long before a server's midnight its day's Digits are solved: room for ~9,000
distinct Digits (all there are) at ~0.2 s each and as much idle after each."""
LOOK_S = 600.0
"""How often, within that window, the servers are looked at again (some begin to play
their day late)."""
SMALL = 8
"""A look wanting at most this many Digits leaves them to the posts (the solver process
keeps 8 prepared)."""
IDLE_FACTOR = 1.0
"""After a solve that took t seconds, the look waits t * IDLE_FACTOR: the solver is
given at most half its time."""
IDLE_MIN_S = 0.1
"""And at least this long (a reveal asked meanwhile goes first)."""
KEPT = 30_000
"""Closest formulas kept (oldest dropped first): every Digits of three Sets."""


class Closest(Protocol):
    """The formula nearest the Goal for some Digits (`bot.solving.ConfirmedSolver`)."""

    async def prepare(self, digits: str, game_set: GameSet) -> None: ...

    async def closest(self, digits: str, game_set: GameSet) -> Candidate | None: ...


class DayAhead:
    """Closest formulas by (Digits, Set): solved ahead of midnight, or on demand."""

    def __init__(
        self,
        store: Store,
        solver: Closest,
        *,
        clock: Callable[[], float],
        owns: Callable[[int], bool] = lambda guild_id: True,
        timer: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        """`clock` is the bot's (the servers' midnights); `timer` measures a solve's
        own duration for the pause after it."""
        self.store = store
        self.solver = solver
        self.clock = clock
        self.owns = owns
        self.timer = timer
        self.sleep = sleep
        self._found: OrderedDict[tuple[str, GameSet], Candidate | None] = OrderedDict()
        self._lock = asyncio.Lock()
        self.solved_ahead = 0
        """Digits solved by `look` (for the logs and the benchmark)."""

    def known(self, digits: str, game_set: GameSet) -> bool:
        return (digits, game_set) in self._found

    async def closest(self, digits: str, game_set: GameSet, *, prepare: bool) -> Candidate | None:
        """The closest formula, solved now (alone: one daily call in the solver at a
        time) unless it is known; `prepare` first when later queries will follow."""
        key = (digits, game_set)
        if key in self._found:
            return self._found[key]
        async with self._lock:
            if key not in self._found:
                if prepare:
                    await self.solver.prepare(digits, game_set)
                self._keep(key, await self.solver.closest(digits, game_set))
        return self._found[key]

    def _keep(self, key: tuple[str, GameSet], found: Candidate | None) -> None:
        self._found[key] = found
        while len(self._found) > KEPT:
            self._found.popitem(last=False)

    def windows(self, servers: list[ServerSettings]) -> list[tuple[float, float]]:
        """(start, end) of each owned server's solving window for its running day."""
        moment = datetime.fromtimestamp(self.clock(), UTC)
        spans = []
        for settings in servers:
            if self.owns(settings.guild_id) and settings.channel_id is not None:
                end = rules.period_end(rules.period_of(moment, settings.zone), settings.zone)
                spans.append((end.timestamp() - AHEAD_S, end.timestamp()))
        return spans

    def wait_s(self, servers: list[ServerSettings]) -> float:
        """Until the next look: `LOOK_S` inside a window, else its start; an hour at most."""
        now = self.clock()
        waits = [LOOK_S if start <= now else start - now for start, _ in self.windows(servers)]
        return max(1.0, min([3600.0, *waits]))

    async def wanted(self, servers: list[ServerSettings]) -> list[tuple[str, GameSet]]:
        """The Digits of each played day whose midnight is within `AHEAD_S`: every
        round the Set can have, of its version the day's last game was played with."""
        now = self.clock()
        moment = datetime.fromtimestamp(now, UTC)
        secret: str | None = None
        wanted: dict[tuple[str, GameSet], None] = {}
        for settings in servers:
            if not self.owns(settings.guild_id) or settings.channel_id is None:
                continue
            day = rules.period_of(moment, settings.zone)
            if rules.period_end(day, settings.zone).timestamp() - now > AHEAD_S:
                continue
            guild_id = settings.guild_id
            played = await self.store.servers.played_between(guild_id, day, day)
            for name in played.get(day, []):
                game_set = await self.store.servers.played_set(guild_id, name, day)
                if game_set is None:
                    continue
                secret = secret or await self.store.install.secret("qualification")
                seed = rules.qualification_seed(
                    guild_id, name, day, secret=secret, version=game_set.version
                )
                for number in range(1, game_set.max_rounds + 1):
                    wanted[(rules.seeded_digits(seed, number), game_set)] = None
        return list(wanted)

    async def look(self, servers: list[ServerSettings]) -> int:
        """Solve what the coming midnights want and is not known yet; how many."""
        wanted = await self.wanted(servers)
        if len(wanted) <= SMALL:
            return 0
        solved = 0
        for digits, game_set in wanted:
            if self.known(digits, game_set):
                continue
            began = self.timer()
            async with self._lock:
                found = await self.solver.closest(digits, game_set)
            if found is not None:  # a failed solve is tried again at the post
                self._keep((digits, game_set), found)
            solved += 1
            await self.sleep(max(IDLE_MIN_S, (self.timer() - began) * IDLE_FACTOR))
        self.solved_ahead += solved
        if solved:
            log.info("solved %d Digits ahead of midnight (%d wanted)", solved, len(wanted))
        return solved

    async def run(self) -> None:
        """Look, sleep until the next look, for ever (a failure is logged, not fatal)."""
        while True:
            servers: list[ServerSettings] = []
            try:
                servers = await self.store.servers.with_channel()
                await self.look(servers)
            except Exception:
                log.exception("solving the day's Digits ahead failed; trying again later")
            await asyncio.sleep(self.wait_s(servers))
