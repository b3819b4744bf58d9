"""What the midnight wave (`bench_midnight`) runs the real daily posts against.

Every bot-token call counted in the second it is made (`Counts`), a channel that
renders each post and sends it as one call in the daily lane (`Channel`), the look
ahead's stand-in solver (`Instant`) and the real one behind the posts (`Real`), the
reveals asked of the real solver meanwhile (`Reveals`) and the running games' own calls
(`games_traffic`): the parts of the world the wave is measured in, apart from how it
is run and reported.
"""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from dataclasses import dataclass, field

import rules
from bot.daily import DailyContent
from bot.daily._render import daily_embed, daily_view
from bot.games import Lane, RestBudget, with_retry
from solver.process import SolverProcess
from solver.result import Candidate, SolveFailure


@dataclass
class Counts:
    """Bot-token calls per second since `origin` (loop time), by lane."""

    origin: float = 0.0
    per_second: Counter[int] = field(default_factory=Counter)
    daily: int = 0
    games: int = 0

    def call(self, now: float, lane: Lane) -> None:
        self.per_second[int(now - self.origin)] += 1
        if lane is Lane.DAILY:
            self.daily += 1
        else:
            self.games += 1


class Channel:
    """`PostChannel`: renders the post and sends it as one call in the daily lane."""

    def __init__(self, budget: RestBudget, counts: Counts) -> None:
        self.budget = budget
        self.counts = counts
        self.sent_at: list[float] = []

    async def post(self, channel_id: int, content: DailyContent) -> int:
        embed, view = daily_embed(content), daily_view(content)
        del embed, view
        loop = asyncio.get_running_loop()

        async def send() -> int:
            self.counts.call(loop.time(), Lane.DAILY)
            return channel_id

        sent = await with_retry(send, "daily post", self.budget, lane=Lane.DAILY)
        self.sent_at.append(loop.time())
        return sent

    async def find(self, channel_id: int, marker: str, since: float) -> None:
        return None


class Instant:
    """The look ahead's stand-in solver: answers at once, counts."""

    def __init__(self) -> None:
        self.calls = 0

    async def prepare(self, digits: str, game_set: rules.GameSet) -> None:
        self.calls += 1

    async def closest(self, digits: str, game_set: rules.GameSet) -> Candidate | None:
        self.calls += 1
        return Candidate(digits, int(digits), 0, 0, 4)


class Real:
    """The real solver process as the posts' `Closest` (no PHP confirmation)."""

    def __init__(self, solver: SolverProcess) -> None:
        self.solver = solver
        self.calls = 0

    async def prepare(self, digits: str, game_set: rules.GameSet) -> None:
        self.calls += 1
        await self.solver.prepare(digits, game_set, timeout_s=60)

    async def closest(self, digits: str, game_set: rules.GameSet) -> Candidate | None:
        self.calls += 1
        found = await self.solver.closest(digits, game_set, timeout_s=60)
        return None if isinstance(found, SolveFailure) else found


class Reveals:
    """A reveal every `1/rate` s on the real solver, in `game_set`; (ask time, latency ms) kept."""

    def __init__(self, solver: SolverProcess, rate: float, game_set: rules.GameSet) -> None:
        self.solver = solver
        self.rate = rate
        self.game_set = game_set
        self.done: list[tuple[float, float]] = []
        self.failed = 0
        self._rng = random.Random(3)
        self._tasks: set[asyncio.Task[None]] = set()

    async def one(self) -> None:
        loop = asyncio.get_running_loop()
        asked = loop.time()
        digits, score = str(self._rng.randint(1000, 9999)), self._rng.randint(1, 501)
        found = await self.solver.best(digits, score, self.game_set, top=3, timeout_s=60)
        if isinstance(found, SolveFailure):
            self.failed += 1
        self.done.append((asked, (loop.time() - asked) * 1000))

    async def run(self) -> None:
        while True:
            task = asyncio.create_task(self.one())
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            await asyncio.sleep(1 / self.rate)

    async def settle(self) -> None:
        """Wait for the reveals in flight (after `run` is cancelled), while the solver is
        still open: left behind, they would ask a closed one."""
        await asyncio.gather(*self._tasks)

    def between(self, start: float, end: float) -> list[float]:
        return [ms for asked, ms in self.done if start <= asked < end]


CALLS_PER_GAME_S = 0.0037
"""Bot-token calls a second per running game: the mix of `bench/bench_rest.py` with
`SOLO_GAMES=private`, the default (docs/BENCHMARKS.md, rest; docs/scaling.md): a
Qualification, a Training or a Practice answered by its players makes none, a duel
~3.4 in all (its thread, round 1, its archive)."""


async def games_traffic(budget: RestBudget, counts: Counts, rate: float) -> None:
    """The running games' calls: `rate` a second, each its own task in the games' lane;
    cancelled, it takes its calls still queued with it (they would run into the next
    wave's counts, or past the end of the run)."""
    loop = asyncio.get_running_loop()
    tasks: set[asyncio.Task[None]] = set()

    async def call() -> None:
        async def made() -> None:
            counts.call(loop.time(), Lane.GAMES)

        await with_retry(made, "a round", budget, lane=Lane.GAMES)

    try:
        while rate > 0:
            task = asyncio.create_task(call())
            tasks.add(task)
            task.add_done_callback(tasks.discard)
            await asyncio.sleep(1 / rate)
        await asyncio.Future()  # no games' calls: wait to be cancelled
    finally:  # cancelled at the wave's end: its calls still queued go with it, uncounted
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
