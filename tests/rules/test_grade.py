"""The puzzle grade (RULES.md "Accuracy and the puzzle grade"), as a table of cases."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.grade import grade, solved


@pytest.mark.parametrize(
    ("before", "best", "got", "expected"),
    [
        (501, 0, 0, 1.0),  # a checkout, as the best answer
        (501, 351, 351, 1.0),  # as good as the best
        (501, 351, 300, 1.0),  # better than the best found (P <= B)
        (501, 1, 251, 0.5),  # half of the best's way down
        (501, 1, 501, 0.0),  # no way down
        (501, 1, 900, 0.0),  # bounced up: clipped at 0
        (50, 50, 60, 0.0),  # the best could not bring the Score down either
        (50, 60, 70, 0.0),
        (2, 0.5, 1.25, 0.5),  # floats, as PHP's division gives them
    ],
)
def test_grade_table(before: float, best: float, got: float, expected: float) -> None:
    assert grade(before, best, got) == pytest.approx(expected)
    assert solved(before, best, got) == (expected == 1.0)


@given(
    st.floats(min_value=0, max_value=1e6),
    st.floats(min_value=0, max_value=1e6),
    st.floats(min_value=0, max_value=1e6),
)
def test_grade_is_a_fraction(before: float, best: float, got: float) -> None:
    assert 0.0 <= grade(before, best, got) <= 1.0
