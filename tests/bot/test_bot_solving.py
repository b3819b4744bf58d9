"""bot/solving.py against the real local PHP pool: the shown formula is the one PHP agrees with."""

from __future__ import annotations

import dataclasses
import logging

import pytest

from bot.solving import best_confirmed, confirm
from evaluator import Evaluator
from rules.sets import CLASSIC
from solver import SolveFailure, SolverProcess
from solver.result import Candidate, Solution
from solver.solve import Solver

pytestmark = pytest.mark.asyncio(loop_scope="session")


def _solution(digits: str, score: int, top: int = 3) -> Solution:
    return Solver(cache_size=1).solve(digits, score, CLASSIC, top=top)


def _lie(candidate: Candidate) -> Candidate:
    """The same formula with a Result PHP will not give (the type changes: int -> float)."""
    return dataclasses.replace(candidate, value=float(candidate.value) + 0.5)


async def test_the_best_candidate_is_confirmed_by_php(evaluator: Evaluator) -> None:
    solution = _solution("3489", 501)
    confirmed = await confirm(evaluator, solution, CLASSIC)
    assert confirmed is not None
    assert confirmed.candidate == solution.best and confirmed.mismatches == 0
    assert confirmed.evaluation.value == solution.best.value


async def test_a_mismatch_is_logged_and_the_next_candidate_used(
    evaluator: Evaluator, caplog: pytest.LogCaptureFixture
) -> None:
    solution = _solution("7001", 501)
    wrong = (_lie(solution.candidates[0]), *solution.candidates[1:])
    with caplog.at_level(logging.WARNING, logger="bot.solving"):
        confirmed = await confirm(
            evaluator, dataclasses.replace(solution, candidates=wrong), CLASSIC
        )
    assert confirmed is not None
    assert confirmed.candidate == solution.candidates[1] and confirmed.mismatches == 1
    assert "disagree" in caplog.text and solution.candidates[0].formula in caplog.text


async def test_nothing_is_shown_when_php_agrees_with_no_candidate(evaluator: Evaluator) -> None:
    solution = _solution("2957", 301, top=2)
    wrong = tuple(_lie(c) for c in solution.candidates)
    assert (
        await confirm(evaluator, dataclasses.replace(solution, candidates=wrong), CLASSIC) is None
    )


async def test_solve_in_its_process_then_confirm(evaluator: Evaluator) -> None:
    async with SolverProcess(timeout_s=120) as process:
        confirmed = await best_confirmed(process, evaluator, "4711", 300, CLASSIC)
        assert confirmed is not None and not isinstance(confirmed, SolveFailure)
        assert confirmed.candidate.score == 0
        late = await best_confirmed(process, evaluator, "1234", 300, CLASSIC, timeout_s=0)
        assert isinstance(late, SolveFailure)
