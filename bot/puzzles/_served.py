"""Serving puzzles from the stored pool without a query per answer: the pool's ids per
Set (read again once they are `REFRESH_S` old, so new puzzles come in) and the puzzles
themselves (rows that never change) are read once and kept. A cache of stored rows only:
a restart reads them again and loses nothing.

A run meets the pool in an order of its own (the ids shuffled by the run's id), so it
sees no puzzle twice until it has seen them all, and choosing the next one needs no
look at what it answered before.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from collections.abc import Callable

from bot.storage import Puzzle, Store
from rules import GameSet

REFRESH_S = 60.0
"""How old a Set's list of pool ids may be before it is read again."""
PUZZLES_KEPT = 20_000
"""Puzzles kept in memory (about 200 bytes each): every Set's whole pool many times over."""


class PoolCache:
    def __init__(self, store: Store, clock: Callable[[], float]) -> None:
        self.store = store
        self.clock = clock
        self._ids: dict[tuple[str, str], tuple[float, list[int]]] = {}
        self._puzzles: OrderedDict[int, Puzzle] = OrderedDict()

    async def ids(self, game_set: GameSet) -> list[int]:
        key = (game_set.name, game_set.version)
        now = self.clock()
        kept = self._ids.get(key)
        if kept is None or now - kept[0] >= REFRESH_S or not kept[1]:
            kept = (now, await self.store.puzzles.ids(game_set))
            self._ids[key] = kept
        return kept[1]

    async def puzzle(self, puzzle_id: int) -> Puzzle | None:
        found = self._puzzles.get(puzzle_id)
        if found is not None:
            self._puzzles.move_to_end(puzzle_id)
            return found
        found = await self.store.puzzles.puzzle(puzzle_id)
        if found is not None:
            self._puzzles[puzzle_id] = found
            if len(self._puzzles) > PUZZLES_KEPT:
                self._puzzles.popitem(last=False)
        return found

    async def nth(self, game_set: GameSet, key: str, index: int) -> Puzzle | None:
        """The `index`-th puzzle (from 0) of the order `key` gives the Set's pool; None
        when the pool is empty."""
        ids = await self.ids(game_set)
        if not ids:
            return None
        order = list(ids)
        random.Random(key).shuffle(order)
        return await self.puzzle(order[index % len(order)])
