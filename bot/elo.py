"""Elo ratings for duels: everyone starts at 1000, K = 32.

Pure so the numbers in `/leaderboard duel` can be checked by hand. The change is
rounded once and applied with opposite signs, so a server's ratings always sum
to 1000 per rated player.
"""

from __future__ import annotations

START = 1000
K = 32

WIN, DRAW, LOSS = 1.0, 0.5, 0.0


def expected(rating: int, opponent: int) -> float:
    """The score `rating` is expected to take from `opponent` (0..1)."""
    return 1.0 / (1.0 + float(10.0 ** ((opponent - rating) / 400.0)))


def rate(rating_a: int, rating_b: int, score_a: float, k: int = K) -> tuple[int, int]:
    """New ratings after a game in which A scored `score_a` (1 win, 0.5 draw, 0 loss)."""
    if not 0.0 <= score_a <= 1.0:
        raise ValueError(f"a game score is from 0 to 1, got {score_a}")
    delta = round(k * (score_a - expected(rating_a, rating_b)))
    return rating_a + delta, rating_b - delta
