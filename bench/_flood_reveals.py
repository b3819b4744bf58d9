"""The web flood bench's reveals (`bench/bench_web_flood.py`): players asking a round's
confirmed best answer one after another, the Digits each phase asks (never an earlier
phase's), and the solver's part of each reveal's time."""

from __future__ import annotations

import asyncio
import random
import time
from typing import Any

import rules
from bench._solver_inputs import round_score
from bot.solving import ConfirmedSolver
from solver.process import SolverProcess


class TimedSolver:
    """The solver the reveals use, with each `best` call's wall time kept: a reveal's time
    less its solve is its PHP confirmation (and the bot loop's turns between)."""

    def __init__(self, solver: SolverProcess) -> None:
        self.solver = solver
        self.times: list[float] = []

    async def best(self, *args: Any, **kwargs: Any) -> Any:
        began = time.perf_counter()
        try:
            return await self.solver.best(*args, **kwargs)
        finally:
            self.times.append(time.perf_counter() - began)

    async def renew(self, warm_digits: str) -> None:
        """A new solver process in place of the old one, warmed on Digits no phase asks:
        each phase starts with nothing prepared (the solver keeps its last 8 prepared
        Digits, and a prepared Digits' solve costs 2-20x less), so a flood replaying its
        quiet phase's Digits finds none of them ready."""
        old, self.solver = self.solver, SolverProcess()
        await old.close()
        await self.solver.status()
        await self.solver.best(warm_digits, 501, rules.CLASSIC)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.solver, name)


class Seeds:
    """Each reveal player's random seed. A round's quiet phase and its flood ask the same
    seeds, so the same Digits and Scores in the same order: one Digits' solve costs 2-20x
    another's, and with different Digits a p99 of some 60 reveals compared the Digits as
    much as the flood. Each round asks seeds no earlier round asked."""

    def __init__(self) -> None:
        self.next = 29
        self._round = 29

    def new_round(self) -> None:
        """The quiet phase starts here: seeds no phase asked before."""
        self._round = self.next

    def replay(self) -> None:
        """The flood phase starts here: the round's quiet phase's seeds again."""
        self.next = self._round

    def take(self) -> int:
        self.next += 1
        return self.next - 1


async def reveals(
    revealer: ConfirmedSolver, players: int, seconds: float, seeds: Seeds
) -> dict[str, Any]:
    """Players each asking a round's confirmed best answer, waiting for it, 1 s apart."""
    times: list[float] = []
    timed = revealer.solver
    solves = len(timed.times) if isinstance(timed, TimedSolver) else 0
    empty = 0
    deadline = time.perf_counter() + seconds

    async def player(seed: int) -> None:
        nonlocal empty
        rng = random.Random(seed)
        while time.perf_counter() < deadline:
            began = time.perf_counter()
            found = await revealer.best(rules.random_digits(rng), round_score(rng), rules.CLASSIC)
            times.append(time.perf_counter() - began)
            empty += found is None
            await asyncio.sleep(1.0)

    await asyncio.gather(*(player(seeds.take()) for _ in range(players)))
    solve_times = timed.times[solves:] if isinstance(timed, TimedSolver) else []
    return {"times": times, "empty": empty, "solves": solve_times}
