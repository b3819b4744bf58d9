"""How Formula Darts plays in practice: per level, the new Score it aims for and when it answers.

Pure: the caller passes the RNG, the Score and the Set, and asks the solver
for the formula nearest the returned aim (`aim=0` is the best answer), or, at
PERFECT, for the formula that plays to finish (`solver.finish`): the smallest
new Score is the revealed best answer, not the shortest way to 0.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from enum import StrEnum

from rules.scoring import Number
from rules.sets import GameSet


class Level(StrEnum):
    BEGINNER = "beginner"
    CASUAL = "casual"
    SKILLED = "skilled"
    EXPERT = "expert"
    PERFECT = "perfect"


@dataclass(frozen=True, slots=True)
class _Style:
    best_chance: float  # how often it plays the best answer
    kept: tuple[float, float]  # otherwise: the share of the Score it leaves, drawn uniformly
    think: tuple[float, float]  # share of the time limit it takes to answer


_STYLES = {
    Level.BEGINNER: _Style(0.0, (0.35, 0.9), (0.35, 0.8)),
    Level.CASUAL: _Style(0.1, (0.15, 0.6), (0.25, 0.65)),
    Level.SKILLED: _Style(0.35, (0.03, 0.3), (0.15, 0.5)),
    Level.EXPERT: _Style(0.75, (0.0, 0.1), (0.1, 0.35)),
    Level.PERFECT: _Style(1.0, (0.0, 0.0), (0.05, 0.2)),
}


@dataclass(frozen=True, slots=True)
class PracticeMove:
    """The new Score the bot aims to leave, and how long it waits before answering;
    `finish`: play to check out soonest instead (`solver.finish.finishing`)."""

    aim: int
    delay_s: float
    finish: bool = False


def practice_move(
    level: Level, score: Number, game_set: GameSet, rng: random.Random
) -> PracticeMove:
    """PERFECT plays to finish; the others play the best answer (aim 0) by chance, or
    leave more of the Score."""
    style = _STYLES[level]
    low, high = style.think
    delay = game_set.time_limit * rng.uniform(low, high)
    if rng.random() < style.best_chance:
        return PracticeMove(0, delay, finish=level is Level.PERFECT)
    kept = rng.uniform(*style.kept)
    finite = float(score) if math.isfinite(float(score)) else float(game_set.start_score)
    return PracticeMove(max(0, round(finite * kept)), delay)
