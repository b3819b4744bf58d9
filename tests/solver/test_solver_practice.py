"""Practice levels: pure choices of an aim and a delay from an injected RNG."""

from __future__ import annotations

import random

import pytest

from rules.sets import CLASSIC
from solver.practice import Level, practice_move


def test_perfect_always_plays_to_finish() -> None:
    rng = random.Random(1)
    moves = {practice_move(Level.PERFECT, 501, CLASSIC, rng) for _ in range(200)}
    assert {(m.aim, m.finish) for m in moves} == {(0, True)}


@pytest.mark.parametrize("level", list(Level))
def test_moves_are_reproducible_and_answer_within_the_time_limit(level: Level) -> None:
    first = [practice_move(level, 301, CLASSIC, random.Random(7)) for _ in range(3)]
    assert first[0] == first[1] == first[2]
    rng = random.Random(3)
    for _ in range(100):
        move = practice_move(level, 301, CLASSIC, rng)
        assert 0 < move.delay_s < CLASSIC.time_limit
        assert 0 <= move.aim <= 301


def test_lower_levels_leave_more_of_the_score() -> None:
    def mean_aim(level: Level) -> float:
        rng = random.Random(11)
        return sum(practice_move(level, 400, CLASSIC, rng).aim for _ in range(300)) / 300

    means = [mean_aim(level) for level in Level]
    assert means == sorted(means, reverse=True)
    assert means[-1] == 0
