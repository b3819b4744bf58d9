"""A prepared Digits answers exactly as a cold one: the listed top level and the text table
are a faster road to the same formulas, never other ones.

The cold solver (a fresh one per question, so nothing listed carries over) is the
reference: it finds the top level by inverting each operation and reads the text
forms only as far as they can matter. Any row the listing drops, any tie the text
table forgets, any reading past its limit, changes a formula or its length here.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from rules.sets import ALLOWED_FUNCTIONS, CLASSIC, GameSet
from solver import solve as solve_module
from solver import textforms
from solver.solve import Solver
from solver.toplevel import top_level

EVERYTHING = GameSet(
    name="everything", start_score=501, goal=100, bonus=50, max_rounds=7, time_limit=120,
    min_rounds=4, functions=tuple(sorted(ALLOWED_FUNCTIONS)),
)  # fmt: skip

# (Digits, Set, Scores): seeded Scores, ones whose answer needs the text forms, and ones
# where several shortest x give the answer's reading (the text decides among them)
_rng = random.Random(11)
TIED = [("3075", CLASSIC, [297]), ("6536", CLASSIC, [484]), ("8794", CLASSIC, [402, 202])]
CASES = [
    *TIED,
    ("4658", CLASSIC, [559, 0, 94, 6]),
    ("2951", CLASSIC, [439]),
    ("2322", CLASSIC, [435]),
    ("9166", CLASSIC, [487, 77.5]),
    ("6234", CLASSIC, [561]),
    ("1008", CLASSIC, [_rng.randint(1, 551) for _ in range(3)]),
    ("7103", EVERYTHING, [_rng.randint(1, 551) for _ in range(3)]),
    ("2957", EVERYTHING, [501, 13.25]),
]


def _answer(solver: Solver, digits: str, score: float, game_set: GameSet, **aim: int) -> list:
    solution = solver.solve(digits, score, game_set, top=3, **aim)
    return [(c.formula, c.value, c.score, c.length) for c in solution.candidates]


@pytest.mark.parametrize(("digits", "game_set", "scores"), CASES)
def test_a_prepared_digits_gives_the_cold_answers(
    digits: str, game_set: GameSet, scores: list[float], monkeypatch: pytest.MonkeyPatch
) -> None:
    needs = []
    real = solve_module._text_forms_needed

    def spy(*args: object) -> object:
        needs.append(real(*args))  # type: ignore[arg-type]
        return needs[-1]

    monkeypatch.setattr(solve_module, "_text_forms_needed", spy)
    prepared = Solver()
    prepared.prepare(digits, game_set)
    assert prepared.is_prepared(digits, game_set)
    for score in scores:
        cold = _answer(Solver(), digits, score, game_set)
        assert _answer(prepared, digits, score, game_set) == cold, (digits, score)
    if digits in ("4658", "2951", "2322", "6234"):
        assert any(n is not solve_module._Need.NONE for n in needs), needs


@pytest.mark.parametrize(("digits", "game_set", "scores"), TIED)
def test_a_table_too_small_for_a_query_grows_before_it_is_read(
    digits: str, game_set: GameSet, scores: list[float], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With a limit below what these answers read, the table must grow, not be trusted."""
    monkeypatch.setattr(textforms, "READ_LIMIT", 40)
    prepared = Solver()
    prepared.prepare(digits, game_set)
    for score in scores:
        cold = _answer(Solver(), digits, score, game_set)
        assert _answer(prepared, digits, score, game_set) == cold


def test_an_aim_past_the_read_limit_is_answered() -> None:
    aim = textforms.READ_LIMIT * 2
    prepared = Solver()
    prepared.prepare("3489", CLASSIC)
    cold = _answer(Solver(), "3489", 501, CLASSIC, aim=aim)
    assert _answer(prepared, "3489", 501, CLASSIC, aim=aim) == cold


def test_the_text_table_keeps_a_few_rows_of_the_whole_top_level() -> None:
    solver = Solver()
    solver.prepare("4658", CLASSIC)
    prep = next(iter(solver._cache.values())).prep
    assert prep.text_table is not None
    listed = len(top_level(prep))
    kept = sum(len(r.x) for r in prep.text_table.readings.values())
    assert listed > 400_000
    assert kept < listed / 20
    for readings in prep.text_table.readings.values():
        assert np.all(np.abs(readings.read.f) <= textforms.READ_LIMIT)


BIG_GOAL = GameSet(
    name="marathon", start_score=90_000, goal=40_000, bonus=500, max_rounds=7,
    time_limit=120, min_rounds=3,
)  # fmt: skip


def test_a_set_with_a_large_goal_grows_the_table_once() -> None:
    """Its queries reach past READ_LIMIT: the table grows to cover them and is kept, so the
    next query reads it instead of every reading again."""
    prepared = Solver()
    prepared.prepare("4658", BIG_GOAL)
    prep = next(iter(prepared._cache.values())).prep
    for score in (90_000, 51_234):
        cold = _answer(Solver(), "4658", score, BIG_GOAL)
        assert _answer(prepared, "4658", score, BIG_GOAL) == cold
    assert prep.text_table is not None and prep.text_table.limit is not None
    grown = prep.text_table
    assert grown.limit > 2 * BIG_GOAL.goal + BIG_GOAL.start_score  # type: ignore[operator]
    _answer(prepared, "4658", 77_777, BIG_GOAL)
    assert prep.text_table is grown


def test_a_huge_aim_is_answered_without_keeping_its_readings() -> None:
    """Past every Set's reach (an API caller's aim): read in full, the kept table unchanged."""
    prepared = Solver()
    prepared.prepare("4658", CLASSIC)
    prep = next(iter(prepared._cache.values())).prep
    kept = prep.text_table
    aim = 10**17
    cold = _answer(Solver(), "4658", 501, CLASSIC, aim=aim)
    assert _answer(prepared, "4658", 501, CLASSIC, aim=aim) == cold
    assert prep.text_table is kept
