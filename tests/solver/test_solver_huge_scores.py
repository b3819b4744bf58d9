"""Huge Scores (a legal `pow(3,489)` leaves about 2e233): the search stays as small as an
ordinary one, and its answer is still the best, against real PHP on the operator slice.

Points are bounded by what the Digits can reach; above that every new Score is
Score - points, so the best formula is the one with the most points (ties to the
shorter: far above, `5080` leaves 1e308 like every other formula of 5080). The
search gets there from its intervals; what went wrong was arithmetic: the slack of
an interval near 1e308 overflowed to INF and made it the whole line, so every
top-level value and every hexdec/octdec/bindec reading was listed (14-30 s, 800 MiB).
"""

from __future__ import annotations

import io
import json
import tracemalloc

import pytest

from evaluator import Evaluation, Evaluator
from rules.scoring import apply_points
from rules.sets import CLASSIC, load_sets
from solver import SolverProcess
from solver.cli import _stream
from solver.php import same
from solver.solve import Solver
from tests.solver.test_solver_optimality import brute_force_best, key
from tests.support.fixtures import evaluator  # noqa: F401 (fixture)

HUGE = (1e308, 2.0525491143440157e233, float(2**70), 1.7976931348623157e308)


def _peak_mib(digits: str, score: float) -> float:
    solver = Solver(cache_size=1)
    tracemalloc.start()
    try:
        solver.solve(digits, score, CLASSIC)
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def test_a_huge_score_costs_no_more_memory_than_an_ordinary_one() -> None:
    """Seen failing first: 793 MiB at 1e308 (22 MiB at 501) before the slack was fixed."""
    ordinary = _peak_mib("3489", 501)
    for score in (1e308, 1.7976931348623157e308):
        assert _peak_mib("3489", score) <= 2 * ordinary + 8


@pytest.mark.asyncio(loop_scope="session")
@pytest.mark.parametrize("digits", ["3489", "5080", "7091", "1111"])
async def test_no_formula_of_the_operator_slice_beats_the_solver_at_huge_scores(
    evaluator: Evaluator,
    digits: str,
) -> None:
    solver = Solver(cache_size=1)
    for score in HUGE:
        best = solver.solve(digits, score, CLASSIC).best
        _, new_score = apply_points(
            score, best.value, CLASSIC.goal, CLASSIC.bonus, numbers=CLASSIC.language_rules
        )
        assert same(new_score, best.score), (digits, score, best)
        theirs = await brute_force_best(evaluator, digits, CLASSIC, score, ())  # type: ignore[arg-type]
        assert key(float(best.score), best.formula) <= theirs, (digits, score, best, theirs)
        verdict = await evaluator.evaluate(best.formula, digits, CLASSIC)
        assert isinstance(verdict, Evaluation) and same(verdict.value, best.value)


def test_far_above_every_formula_the_shortest_one_is_the_best() -> None:
    """5080 reaches ~1e135 at most: at 1e308 every formula leaves 1e308 (the points are
    below its last digit), so the shortest wins the tie."""
    best = Solver(cache_size=1).solve("5080", 1e308, CLASSIC).best
    assert best.formula == "5080" and best.score == 1e308


async def test_solve_jsonl_answers_a_huge_score() -> None:
    lines = "".join(
        json.dumps({"digits": d, "score": s}) + "\n" for d in ("3489", "9779") for s in HUGE
    )
    sink = io.StringIO()
    async with SolverProcess(timeout_s=600) as solver:  # the bot's memory; a loaded machine
        await _stream(solver, load_sets(), io.StringIO(lines), sink)
    answers = [json.loads(line) for line in sink.getvalue().splitlines()]
    assert len(answers) == 2 * len(HUGE) and all(a["ok"] for a in answers), answers
