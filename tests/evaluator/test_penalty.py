"""The penalty box alone: time is passed in, so every case is exact."""

from __future__ import annotations

import pytest

from evaluator.sandbox.penalty import PenaltyBox


def test_free_kills_then_a_wait_that_grows_with_the_debt() -> None:
    box = PenaltyBox(free_kills=3, refill_s=10)
    for _ in range(3):
        box.charge("mallory", 0.0)
        assert box.delay("mallory", 0.0) == 0
    box.charge("mallory", 0.0)
    assert box.delay("mallory", 0.0) == pytest.approx(10)
    box.charge("mallory", 0.0)
    assert box.delay("mallory", 0.0) == pytest.approx(20)


def test_the_debt_is_paid_back_with_time() -> None:
    box = PenaltyBox(free_kills=1, refill_s=10)
    box.charge("mallory", 0.0)
    box.charge("mallory", 0.0)
    assert box.delay("mallory", 4.0) == pytest.approx(6)
    assert box.delay("mallory", 10.0) == 0


def test_nobody_else_waits() -> None:
    box = PenaltyBox(free_kills=1, refill_s=10)
    for _ in range(5):
        box.charge("mallory", 0.0)
    assert box.delay("alice", 0.0) == 0
    assert box.delay(None, 0.0) == 0
    box.charge(None, 0.0)  # an anonymous caller cannot be tracked
    assert box.tracked == 1


def test_a_caller_who_paid_back_is_forgotten() -> None:
    box = PenaltyBox(free_kills=2, refill_s=10)
    box.charge("mallory", 0.0)
    assert box.tracked == 1
    assert box.tokens("mallory", 5.0) == pytest.approx(1.5)
    assert box.delay("mallory", 10.0) == 0
    assert box.tracked == 0


def test_memory_and_the_wait_are_bounded() -> None:
    box = PenaltyBox(free_kills=1, refill_s=10, max_debt=5, max_callers=100)
    for k in range(1000):
        box.charge(f"sybil{k}", 0.0)
        box.charge(f"sybil{k}", 0.0)
    assert box.tracked == 100
    assert box.delay("sybil999", 0.0) == pytest.approx(10)
    assert box.delay("sybil0", 0.0) == 0  # the oldest were dropped
    for _ in range(100):
        box.charge("mallory", 0.0)
    assert box.delay("mallory", 0.0) == pytest.approx(50)
