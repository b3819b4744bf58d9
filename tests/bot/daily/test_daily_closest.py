"""With the solver given, the daily post names each round's formula closest to the Goal,
found in the solver's process and confirmed by real PHP."""

from __future__ import annotations

import re

import pytest

import rules
from bot.app import create_bot
from bot.solving import ConfirmedSolver
from evaluator import Evaluation
from tests.bot.daily.seeds import seed_day
from tests.support.fixtures import solver  # noqa: F401 (fixture)
from tests.support.sim import REAL_WORK_S, message_text

pytestmark = pytest.mark.asyncio(loop_scope="session")
CLOSEST = re.compile(r"Closest to the Goal: `([^`]+)` = (\S+)")


@pytest.fixture
def make_bot(settings, store, evaluator, digits, solver):
    def build():  # the solves wait as long as a settle does, not the bot's 30 s deadline
        return create_bot(
            settings, store=store, evaluator=evaluator, digits_source=digits,
            closest=ConfirmedSolver(solver, evaluator, timeout_s=REAL_WORK_S),
        )  # fmt: skip

    return build


async def test_each_round_shows_the_solvers_closest_formula(world, board, evaluator) -> None:
    await seed_day(world)
    await world.env.advance_time(24 * 3600 + 60)
    [post] = [m for m in board.history() if m.embeds]
    found = CLOSEST.findall(message_text(post))
    assert len(found) == 5  # rounds 1 to 5 of 1234
    formula, result = found[0]
    verdict = await evaluator.evaluate(
        formula, "1234", ("pow", "sqrt", "hexdec", "octdec", "bindec")
    )
    assert isinstance(verdict, Evaluation) and str(verdict.value) == result == "100"


async def test_preparing_goes_to_the_solvers_process(solver, evaluator) -> None:
    """What the daily post asks before its query: the Digits are prepared over there."""
    darts = rules.load_sets()["darts"]
    assert await solver.is_prepared("5813", darts) is False
    await ConfirmedSolver(solver, evaluator).prepare("5813", darts)
    assert await solver.is_prepared("5813", darts) is True
