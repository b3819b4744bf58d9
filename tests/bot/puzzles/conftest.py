"""Puzzle suites' fixtures: a pool filled by the real solver and confirmed by real PHP or
node (`PoolFiller` through `ConfirmedSolver`, as the bot runs it), never made up."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.puzzles import PoolFiller
from bot.solving import ConfirmedSolver
from bot.storage import Puzzle, Store
from evaluator import Evaluator
from rules import GameSet
from solver.process import Lane
from tests.support.fixtures import solver  # noqa: F401

Fill = Callable[[GameSet, int], Awaitable[None]]
TRIES_PER_PUZZLE = 50
"""Draws a puzzle may take (most draws give one; a draw whose best leaves nothing to find
gives none)."""
HANG_S = 600.0


async def _no_sleep(_seconds: float) -> None:
    return None


SOLVED: dict[tuple[str, str], list[Puzzle]] = {}
"""Puzzles the solver found and PHP/node confirmed in this session, per Set: a later
test's pool takes them again instead of solving anew (the suite stays fast)."""


def filler_of(store: Store, evaluator: Evaluator, solver: Any) -> Fill:
    """`await fill(game_set, n)`: n puzzles of the Set in the pool, each solved and confirmed
    (in this session: by an earlier test, or now)."""

    async def filled(game_set: GameSet, n: int) -> None:
        await store.puzzles.want(game_set, 0.0)
        found = SOLVED.setdefault((game_set.name, game_set.version), [])
        for puzzle in found[:n]:
            await store.puzzles.add(
                game_set, puzzle.digits, puzzle.score, puzzle.best_formula,
                puzzle.best_result, puzzle.best_score, 0.0,
            )  # fmt: skip
        filler = PoolFiller(
            store, ConfirmedSolver(solver, evaluator, timeout_s=120, lane=Lane.BACKFILL),
            sleep=_no_sleep, rng=random.Random(len(found) * 7919 + len(game_set.name)),
        )  # fmt: skip
        tries = 0
        while await store.puzzles.count(game_set) < n:
            tries += 1
            assert tries <= TRIES_PER_PUZZLE * n, f"{tries - 1} draws gave too few puzzles"
            # A hang guard, not a budget: the solver's own 120 s bounds a draw. A draw that
            # outlives this one has hung (seen once in a loaded suite, never reproduced): a
            # failure with its place beats a worker waiting until CI gives up.
            if await asyncio.wait_for(filler.add_one(game_set), HANG_S):
                ids = await store.puzzles.ids(game_set)
                added = await store.puzzles.puzzle(ids[-1])
                assert added is not None
                found.append(added)

    return filled


@pytest.fixture
def fill(store: Store, evaluator: Evaluator, solver: Any) -> Fill:
    return filler_of(store, evaluator, solver)
