"""The puzzle grade (RULES.md "Accuracy and the puzzle grade"): how much of the best
answer's way down an answer went.

A rule, so every face and the accuracy of a game ask it here instead of computing it.
Scores are compared as floats: PHP's ints and floats, and JavaScript's doubles, order the
same way for the magnitudes a Score can take.
"""

from __future__ import annotations

from rules.scoring import Number


def grade(before: Number, best: Number, got: Number) -> float:
    """1 when the answer's new Score `got` is as good as the best answer's `best`; else
    the part of the best's way down from `before` the player went, clipped to [0, 1];
    0 when the best answer could not bring the Score down either."""
    before_f, best_f, got_f = float(before), float(best), float(got)
    if got_f <= best_f:
        return 1.0
    reach = before_f - best_f
    if reach <= 0:
        return 0.0
    return min(1.0, max(0.0, (before_f - got_f) / reach))


def solved(before: Number, best: Number, got: Number) -> bool:
    """A puzzle counts as solved (Storm's count, a Streak going on) at grade 1."""
    return grade(before, best, got) == 1.0
