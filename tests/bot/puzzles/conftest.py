"""Puzzle suites' fixtures: a pool filled by the real solver and confirmed by real PHP or
node (`PoolFiller` through `ConfirmedSolver`, as the bot runs it), never made up."""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.puzzles import PoolFiller
from bot.solving import ConfirmedSolver
from bot.storage import Store
from evaluator import Evaluator
from rules import GameSet
from solver.process import Lane
from tests.support.fixtures import solver  # noqa: F401

Fill = Callable[[GameSet, int], Awaitable[None]]


async def _no_sleep(_seconds: float) -> None:
    return None


def filler_of(store: Store, evaluator: Evaluator, solver: Any) -> Fill:
    """`await fill(game_set, n)`: n puzzles of the Set in the pool, each solved and confirmed."""

    async def filled(game_set: GameSet, n: int) -> None:
        filler = PoolFiller(
            store, ConfirmedSolver(solver, evaluator, timeout_s=120, lane=Lane.BACKFILL),
            sleep=_no_sleep, rng=random.Random(n * 7919 + len(game_set.name)),
        )  # fmt: skip
        await store.puzzles.want(game_set, 0.0)
        while await store.puzzles.count(game_set) < n:
            await filler.add_one(game_set)

    return filled


@pytest.fixture
def fill(store: Store, evaluator: Evaluator, solver: Any) -> Fill:
    return filler_of(store, evaluator, solver)
