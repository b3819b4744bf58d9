"""Playing to finish (`solver.finish`): where the best answer leaves a float almost no
Digits can take, a perfect player leaves a whole Score most can; a checkout is always
taken; the revealed best answer is unchanged."""

from __future__ import annotations

import json
import random

import pytest

from evaluator.check import check
from rules.scoring import apply_points, is_zero
from rules.sets import CLASSIC, DEFAULT_FUNCTIONS
from solver.finish import (
    SHIPPED,
    SHIPPED_REACH,
    chances,
    finishing,
    sample_digits,
    whole_magnitudes,
)
from solver.grammar import Grammar
from solver.practice import Level, practice_move
from solver.solve import Solver

CHANCES = chances(Grammar.for_functions(CLASSIC.functions), CLASSIC.goal, CLASSIC.bonus)


def test_whole_scores_are_likely_and_fractions_and_the_goal_are_not() -> None:
    assert all(CHANCES.of(s) >= 0.9 for s in (1, 2, 7, 50, 99, 101, 150, 250))
    assert CHANCES.of(CLASSIC.goal) == 0  # points equal to the Goal always get the Bonus
    assert CHANCES.of(0.54) == CHANCES.of(0.00035) == CHANCES.of(1e9) == 0
    assert CHANCES.of(0) == CHANCES.of(0.0) == 1
    assert CHANCES.likeliest(3) == [1, 2, 3]


@pytest.mark.parametrize("digits", ["3490", "1079", "2009"])
def test_a_whole_score_is_left_where_the_best_answer_leaves_a_float(digits: str) -> None:
    """From 501 these Digits cannot check out; their best answers leave 0.959, 0.287 and
    0.085, which the old PERFECT played and then chased for rounds."""
    solver = Solver(cache_size=2)
    best = solver.solve(digits, 501, CLASSIC).best
    assert not float(best.score).is_integer()
    move = finishing(solver, digits, 501, CLASSIC, last=False)
    assert float(move.score).is_integer() and CHANCES.of(move.score) >= 0.9, move
    assert check(move.formula, digits, CLASSIC.functions) == move.formula
    assert (
        apply_points(501, move.value, CLASSIC.goal, CLASSIC.bonus, numbers=CLASSIC.language_rules)[
            1
        ]
        == move.score
    )
    assert solver.solve(digits, 501, CLASSIC).best == best  # the revealed answer stays


def test_a_checkout_is_taken_and_the_last_round_plays_the_best_answer() -> None:
    solver = Solver(cache_size=2)
    assert is_zero(finishing(solver, "3489", 501, CLASSIC, last=False).score)
    last = finishing(solver, "3490", 501, CLASSIC, last=True)
    assert last == solver.solve("3490", 501, CLASSIC).best


def test_only_perfect_plays_to_finish() -> None:
    rng = random.Random(4)
    for level in Level:
        moves = [practice_move(level, 301, CLASSIC, rng) for _ in range(50)]
        assert all(m.finish == (level is Level.PERFECT) for m in moves)


def test_the_shipped_sample_is_what_the_solver_lists() -> None:
    data = json.loads(SHIPPED.read_text())
    assert data["digits"] == sample_digits() and data["reach"] == SHIPPED_REACH
    grammar = Grammar.for_functions(DEFAULT_FUNCTIONS)
    for k in (0, len(data["digits"]) - 1):
        listed = whole_magnitudes(data["digits"][k], grammar, SHIPPED_REACH).tolist()
        assert listed == data["magnitudes"][k]
