"""The best answer of each round, solved while the round is played and shown after it.

A round's Digits and every player's Score are known when it starts, so the solve
starts then, in the solver's own process; when the next round is posted (or the
summary), it is awaited for at most `wait_s`. Under load the reveal degrades and the
game never does: a solve not ready in time is skipped and counted. A Qualification
reveals nothing while its period runs (everyone plays the same Digits).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

import rules
from bot.play._types import Revealer
from bot.storage import GameRecord, Reveal
from rules import Mode

log = logging.getLogger(__name__)

REVEAL_WAIT_S = 0.5
"""How long posting the next round may wait for the last round's best answer."""


def score_before(state: rules.GameState, number: int, seat: int) -> rules.Number:
    """A player's Score when round `number` started."""
    if number <= 1:
        return state.game_set.start_score
    answer = state.rounds[number - 2].answers[seat]
    return state.game_set.start_score if answer is None else answer.score


class Reveals:
    def __init__(
        self,
        revealer: Revealer | None,
        *,
        wait_s: float = REVEAL_WAIT_S,
        on_late: Callable[[], None] = lambda: None,
    ) -> None:
        self.revealer = revealer
        self.wait_s = wait_s
        self.on_late = on_late
        self.late = 0
        self._solves: dict[tuple[str, int, int], asyncio.Task[Reveal | None]] = {}

    def wanted(self, record: GameRecord) -> bool:
        return self.revealer is not None and record.state.mode is not Mode.QUALIFICATION

    def start(self, record: GameRecord) -> None:
        """Solve the open round for every player, in the background."""
        rnd = record.state.current_round
        if rnd is None or not self.wanted(record):
            return
        for seat in range(len(record.state.players)):
            self._solve(record, rnd.number, seat)

    def _solve(self, record: GameRecord, number: int, seat: int) -> asyncio.Task[Reveal | None]:
        key = (record.state.id, number, seat)
        task = self._solves.get(key)
        if task is None:
            assert self.revealer is not None
            solve = reveal(self.revealer, record, number, seat)
            task = asyncio.create_task(solve, name=f"reveal:{key}")
            self._solves[key] = task
        return task

    async def take(self, record: GameRecord, number: int) -> list[Reveal]:
        """Round `number`'s best answers, those ready within `wait_s` (a restart lost the
        solves: they start again here)."""
        if not self.wanted(record) or number < 1:
            return []
        seats = range(len(record.state.players))
        tasks = [self._solve(record, number, seat) for seat in seats]
        for seat in seats:
            self._solves.pop((record.state.id, number, seat), None)
        found, late = await _ready(tasks, self.wait_s, record.state.id)
        for _ in range(late):
            self.late += 1
            self.on_late()
        return found

    def forget(self, game_id: str) -> None:
        for key in [k for k in self._solves if k[0] == game_id]:
            self._solves.pop(key).cancel()


async def reveal(revealer: Revealer, record: GameRecord, number: int, seat: int) -> Reveal | None:
    """Round `number`'s best answer for the player in `seat`, from their Score then."""
    state = record.state
    digits = state.rounds[number - 1].digits
    found = await revealer.best(digits, score_before(state, number, seat), state.game_set)
    if found is None:
        return None
    return Reveal(number, seat, found.formula, found.value, found.points, found.score)


async def _ready(
    tasks: list[asyncio.Task[Reveal | None]], timeout_s: float, game_id: str
) -> tuple[list[Reveal], int]:
    """The reveals done within `timeout_s` (the others cancelled: how many), in order; a
    solve that failed is logged and left out."""
    if not tasks:
        return [], 0
    _done, pending = await asyncio.wait(tasks, timeout=timeout_s)
    for task in pending:
        task.cancel()
    found = []
    for task in tasks:
        if task in pending or task.cancelled():
            continue
        if task.exception() is not None:
            log.error("game %s: a best answer failed: %r", game_id, task.exception())
            continue
        result = task.result()
        if result is not None:
            found.append(result)
    return found, len(pending)
