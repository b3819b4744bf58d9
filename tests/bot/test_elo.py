from __future__ import annotations

import pytest

from bot import elo


def test_equal_ratings_expect_half() -> None:
    assert elo.expected(1000, 1000) == 0.5


@pytest.mark.parametrize(
    ("a", "b", "score", "new"),
    [
        (1000, 1000, elo.WIN, (1016, 984)),
        (1000, 1000, elo.DRAW, (1000, 1000)),
        (1000, 1000, elo.LOSS, (984, 1016)),
        (1200, 1000, elo.WIN, (1208, 992)),  # expected 0.76: 32 * 0.24 = 7.7 -> 8
        (1200, 1000, elo.LOSS, (1176, 1024)),
        (1000, 1200, elo.DRAW, (1008, 1192)),
    ],
)
def test_rate(a: int, b: int, score: float, new: tuple[int, int]) -> None:
    assert elo.rate(a, b, score) == new
    assert sum(new) == a + b


def test_score_out_of_range() -> None:
    with pytest.raises(ValueError, match="from 0 to 1"):
        elo.rate(1000, 1000, 2.0)
