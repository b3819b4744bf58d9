"""Set problems a Set's fields make together (issue 21): a computed min_rounds above
max_rounds (a Set of "3 rounds (Perfect ≤ 4)"), and a function named twice."""

from __future__ import annotations

import pytest

from rules.sets import SetsError, parse_sets, validate_set

CLASSIC = {"start_score": 501, "goal": 100, "bonus": 50, "max_rounds": 7, "time_limit": 120}


def problems(data: dict[str, object]) -> list[tuple[str | None, str, dict[str, object]]]:
    with pytest.raises(SetsError) as caught:
        validate_set("s", data)
    return [(p.field, p.code, dict(p.params)) for p in caught.value.problems]


def test_a_computed_min_rounds_above_max_rounds_is_a_problem() -> None:
    assert problems({**CLASSIC, "max_rounds": 3}) == [
        ("min_rounds", "min_computed_over_max", {"min_rounds": 4, "max_rounds": 3})
    ]


def test_a_computed_min_rounds_equal_to_max_rounds_is_fine() -> None:
    assert validate_set("s", {**CLASSIC, "max_rounds": 4}).min_rounds == 4


def test_a_function_named_twice_is_a_problem_in_any_spelling() -> None:
    found = problems({**CLASSIC, "functions": ["pow", "sqrt", "POW ", "sqrt"]})
    assert found == [("functions", "functions_duplicate", {"names": "pow, sqrt"})]
    with pytest.raises(SetsError) as caught:
        parse_sets("s: {start_score: 501, goal: 100, bonus: 50, max_rounds: 7,"
                   " time_limit: 120, functions: 'pow, abs pow'}")  # fmt: skip
    assert [p.code for p in caught.value.problems] == ["functions_duplicate"]


def test_every_problem_still_comes_at_once() -> None:
    codes = {c for _, c, _ in problems({**CLASSIC, "max_rounds": 2, "functions": "abs abs"})}
    assert codes == {"min_computed_over_max", "functions_duplicate"}
