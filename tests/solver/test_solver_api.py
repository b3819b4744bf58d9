"""The solver's public behaviour: what a Solution holds, ties, aims, inputs it refuses."""

from __future__ import annotations

import pytest

from evaluator.check import check
from rules.scoring import apply_points
from rules.sets import ALLOWED_FUNCTIONS, CLASSIC, GameSet
from solver.grammar import formula_cost
from solver.php import same
from solver.solve import Solver

ALL_FUNCTIONS = GameSet(
    name="everything", start_score=501, goal=100, bonus=50, max_rounds=7, time_limit=120,
    min_rounds=4, functions=tuple(sorted(ALLOWED_FUNCTIONS)),
)  # fmt: skip


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver(cache_size=8)


def test_a_checkout_is_found_and_ties_go_to_the_shorter_then_the_smaller_text(
    solver: Solver,
) -> None:
    solution = solver.solve("7001", 501, CLASSIC, top=3)
    best = solution.best
    # 700+1, 700|1 and 700^1 all check out in 5 characters: '+' sorts first
    assert (best.formula, best.value, best.points, best.score) == ("700+1", 701, 501, 0)
    assert [c.formula for c in solution.candidates] == ["700+1", "700+sqrt(1)", "700*1"]
    assert isinstance(solution.candidates[1].value, float)  # 701.0 is a Result of its own


@pytest.mark.parametrize(
    ("digits", "score"), [("3489", 501), ("2476", 424), ("1008", 17), ("9999", 5)]
)
def test_every_candidate_is_a_formula_the_game_accepts_with_its_stated_result(
    solver: Solver, digits: str, score: int
) -> None:
    solution = solver.solve(digits, score, CLASSIC, top=5)
    assert len(solution.candidates) == 5
    seen = []  # type: ignore[var-annotated]
    for c in solution.candidates:
        assert check(c.formula, digits, CLASSIC.functions) == c.formula
        assert len(c.formula.replace(" ", "")) == c.length
        assert apply_points(
            score, c.value, CLASSIC.goal, CLASSIC.bonus, numbers=CLASSIC.language_rules
        ) == (c.points, c.score)
        assert not any(same(c.value, other) for other in seen)  # distinct Results
        seen.append(c.value)
    keys = [
        (float(c.score), formula_cost(c.formula), c.formula.replace(" ", ""))
        for c in solution.candidates
    ]
    assert keys == sorted(keys)


def test_a_set_with_every_function_uses_only_its_functions(solver: Solver) -> None:
    solution = solver.solve("3489", 287, ALL_FUNCTIONS, top=3)
    for c in solution.candidates:
        assert check(c.formula, "3489", ALL_FUNCTIONS.functions) == c.formula
    classic = solver.solve("3489", 287, CLASSIC)
    assert (classic.best.score, formula_cost(classic.best.formula)) >= (
        solution.best.score,
        formula_cost(solution.best.formula),
    )


def test_an_aim_asks_for_a_new_score_near_it(solver: Solver) -> None:
    weak = solver.solve("3489", 501, CLASSIC, aim=200).best
    assert weak.score == 200
    assert solver.solve("3489", 501, CLASSIC).best.score == 0


def test_float_and_zero_scores(solver: Solver) -> None:
    assert solver.solve("3489", 0, CLASSIC).best.score == 0
    best = solver.solve("3489", 123.5, CLASSIC).best
    assert (
        apply_points(123.5, best.value, 100, 50, numbers=CLASSIC.language_rules)[1]
        == best.score
        < 0.5
    )


def test_the_formula_closest_to_the_goal(solver: Solver) -> None:
    closest = solver.closest("3489", CLASSIC)
    assert closest.value == 100
    assert check(closest.formula, "3489", CLASSIC.functions) == closest.formula


def test_prepared_digits_are_cached_up_to_the_bound() -> None:
    small = Solver(cache_size=2)
    for digits in ("1111", "2222", "3333"):
        small.prepare(digits, CLASSIC)
    assert not small.is_prepared("1111", CLASSIC)
    assert small.is_prepared("3333", CLASSIC)
    with pytest.raises(ValueError, match="at least one"):
        Solver(cache_size=0)


@pytest.mark.parametrize(
    ("digits", "score", "top", "aim", "message"),
    [("0999", 501, 1, 0, "four digits"), ("12345", 501, 1, 0, "four digits"),
     ("3489", -1, 1, 0, "finite number"), ("3489", float("inf"), 1, 0, "finite number"),
     ("3489", True, 1, 0, "finite number"), ("3489", 501, 0, 0, "top"),
     ("3489", 501, 1, -3, "aim")],
)  # fmt: skip
def test_bad_input_is_refused_with_a_reason(
    solver: Solver, digits: str, score: float, top: int, aim: int, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        solver.solve(digits, score, CLASSIC, top=top, aim=aim)
