"""The puzzle pool, prepared ahead (issue 32): per Set, Digits and a Score with the best
answer the solver found and real PHP (node for a JavaScript Set) confirmed, stored, so
serving a puzzle and grading an answer never wait for the solver.

`PoolFiller` runs in the background like `bot.play.BestBackfill`, with a `Revealer` in
the solver's lowest lane (`Lane.BACKFILL`), paced to `per_minute` solves; everything it
finds is a row, so a restart only goes on where the pool stands. Scores are drawn the
way real games meet them: a stored answer's Score (the Score before the player's next
move) of that Set, or the start Score; before a Set has enough stored play, the Score a
game has after zero to three auto-moves from the start (`draw_score`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence

import rules
from bot.play import Revealer
from bot.storage import Store
from rules import GameSet, Number

log = logging.getLogger(__name__)

POOL_SIZE = 300
"""Puzzles kept per Set: a Storm of 180 s meets some 30; a pool this size rarely repeats."""
PER_MINUTE = 6
"""Solves a minute at most: the pool is work ahead of need, behind every live game."""
IDLE_S = 60.0
"""Between passes when every pool is full."""
MET_ENOUGH = 50
"""Stored Scores of a Set before they are the draw (fewer: the auto-move distribution)."""
START_SHARE = 0.25
"""How often the draw is the start Score: every game meets it once in about four moves."""


def draw_score(game_set: GameSet, met: Sequence[Number], rng: random.Random) -> Number:
    """A Score a real game of this Set meets before a move: the start Score a quarter of
    the time; else one stored play met, or (too little stored) the Score after one to
    three auto-moves from the start with random Digits."""
    if rng.random() < START_SHARE:
        return game_set.start_score
    if len(met) >= MET_ENOUGH:
        return rng.choice(list(met))
    score: Number = game_set.start_score
    for _ in range(rng.randint(1, 3)):
        _formula, value = rules.auto_move(rules.random_digits(rng))
        _points, after = rules.apply_points(
            score, value, game_set.goal, game_set.bonus, numbers=game_set.language_rules
        )
        if rules.is_zero(after):
            break
        score = after
    return score


class PoolFiller:
    """Keeps every wanted Set's pool at `size`, one confirmed solve at a time."""

    def __init__(
        self,
        store: Store,
        revealer: Revealer,
        global_sets: Sequence[GameSet] = (),
        *,
        size: int = POOL_SIZE,
        per_minute: int = PER_MINUTE,
        clock: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        rng: random.Random | None = None,
        after_pass: Callable[[], Awaitable[object]] | None = None,
    ) -> None:
        self.store = store
        self.revealer = revealer
        self.global_sets = tuple(global_sets)
        self.size = size
        self.pause_s = 60.0 / per_minute
        self.clock = clock
        self.sleep = sleep
        self.rng = rng or random.Random()
        self.after_pass = after_pass
        """Called after each pass (the runs' sweep: Storms whose time ran out end)."""
        self.solved = 0

    async def run(self) -> None:
        """Pass after pass until cancelled; a failed pass is logged and tried again."""
        for game_set in self.global_sets:
            await self.store.puzzles.want(game_set, self.clock())
        while True:
            try:
                added = await self.step()
                if self.after_pass is not None:
                    await self.after_pass()
            except Exception:
                log.exception("preparing puzzles failed")
                added = 0
            if not added:
                await self.sleep(IDLE_S)

    async def step(self, limit: int = 10) -> int:
        """Up to `limit` solves for the wanted Set whose pool is shortest (so every Set
        gets its first puzzles soon); how many puzzles it added."""
        counts = [(await self.store.puzzles.count(s), s) for s in await self.store.puzzles.wanted()]
        short = [(count, s) for count, s in counts if count < self.size]
        if not short:
            return 0
        count, game_set = min(short, key=lambda pair: pair[0])
        met = await self.store.puzzles.scores_met(game_set, 2000)
        added = 0
        for _ in range(min(self.size - count, limit)):
            added += await self.add_one(game_set, met)
            await self.sleep(self.pause_s)
        return added

    async def add_one(self, game_set: GameSet, met: Sequence[Number] = ()) -> int:
        """Solve one drawn puzzle and keep it when its best answer is confirmed and
        leaves something to find (a Score lower than the puzzle's)."""
        digits = rules.random_digits(self.rng)
        score = draw_score(game_set, met, self.rng)
        found = await self.revealer.best(digits, score, game_set)
        self.solved += 1
        if found is None or float(found.score) >= float(score):
            return 0
        await self.store.puzzles.add(
            game_set, digits, score, found.formula, found.value, found.score, self.clock()
        )
        return 1


@contextlib.asynccontextmanager
async def filling(filler: PoolFiller | None) -> AsyncIterator[None]:
    """`filler.run()` in the background while the block runs (nothing for None)."""
    if filler is None:
        yield
        return
    task = asyncio.create_task(filler.run(), name="puzzle-pool")
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
