"""A Qualification's "as good as the solver's best" (RULES.md "Achievements"): its best
answers are found only after its day ends (`BestBackfill`), long after its summary, so
the backfill asks `Rewards` again once it kept them: earned and stored with the game,
exactly once however often the backfill looks, and not announced. Real solver, real PHP."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

import rules
from bot.achievements import Rewards
from bot.play import BestBackfill
from bot.solving import ConfirmedSolver
from bot.storage import GameRecord, Source, Store, open_store
from evaluator import Evaluation, Evaluator
from rules.achievements import Achievement
from solver.process import Lane
from tests.support.fixtures import solver  # noqa: F401
from tests.support.sim import REAL_WORK_S

pytestmark = pytest.mark.asyncio(loop_scope="session")
GUILD, PLAYER, DIGITS = 1, 101, "1234"
NOW = 2_000_000_000.0  # long after the game's day (2026-01-01): not sealed


@pytest_asyncio.fixture(loop_scope="session")
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await open_store(f"sqlite+aiosqlite:///{tmp_path}/backfill.sqlite3")
    yield opened
    await opened.close()


async def _no_sleep(_seconds: float) -> None:
    return None


async def test_the_backfill_earns_the_solvers_best_once_without_a_summary(
    store: Store,
    evaluator: Evaluator,
    solver: Any,
) -> None:
    # the test waits for the real solve as long as any settle does (REAL_WORK_S), not the
    # bot's 30 s reveal deadline: beside two CPU burners that deadline passed (best: None)
    revealer = ConfirmedSolver(solver, evaluator, timeout_s=REAL_WORK_S, lane=Lane.BACKFILL)
    game_set = rules.CLASSIC
    # rounds 1..6: 1+2+3+4 (10 each, far from the best); round 7: the solver's best
    left = game_set.start_score - 60
    best = await revealer.best(DIGITS, left, game_set)
    assert best is not None
    judged = await evaluator.evaluate(best.formula, DIGITS, game_set)
    assert isinstance(judged, Evaluation)
    plain = await evaluator.evaluate("1+2+3+4", DIGITS, game_set)
    assert isinstance(plain, Evaluation) and plain.value == 10
    state = rules.new_game("q" * 32, rules.Mode.QUALIFICATION, game_set, [str(PLAYER)])
    for number in range(7):
        formula, value = ("1+2+3+4", plain.value) if number < 6 else (best.formula, judged.value)
        state = rules.apply(state, rules.StartRound(DIGITS, 1000.0 * number))
        state = rules.apply(state, rules.Submit(str(PLAYER), formula, value, 1000.0 * number + 9))
    record = GameRecord(state=state, guild_id=GUILD, channel_id=1, period="2026-01-01",
                        seed="s", created_at=1_767_225_600.0)  # fmt: skip
    await store.games.save_game(record)
    assert record.state.outcome is not None and len(record.state.rounds) == 7
    rewards = Rewards(store, lambda: NOW)
    at_summary = {e.achievement for e in await rewards.game_finished(record)}
    assert Achievement.SOLVER_MATCH not in at_summary  # no best known yet

    told: list[str] = []

    async def kept(found: Any) -> object:
        told.append(found.state.id)
        return await rewards.game_finished(found)

    backfill = BestBackfill(store, revealer, clock=lambda: NOW, sleep=_no_sleep, kept=kept)
    assert await backfill.step() == 7
    assert told == ["q" * 32]
    earned = await store.achievements.of_source(Source.GAME, "q" * 32)
    assert {(e.user_id, e.achievement) for e in earned} - {(PLAYER, a) for a in at_summary} == {
        (PLAYER, Achievement.SOLVER_MATCH)
    }
    assert await backfill.step() == 0 and told == ["q" * 32]  # settled: never asked again
    held = await store.achievements.held(GUILD, PLAYER)
    assert [e.achievement for e in held].count(Achievement.SOLVER_MATCH) == 1
