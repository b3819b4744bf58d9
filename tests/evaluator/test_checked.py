"""The checker's passes remembered (`evaluator.checked`): only what passed, only for the same
formula, digits, Set and language, and bounded."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from evaluator import ErrorCode, EvalError, Evaluation, Evaluator
from evaluator.checked import Checked
from evaluator.language import Php
from evaluator.sandbox.pool import WorkerPool
from rules.game_set import FormulaLanguage
from rules.sets import CLASSIC

FUNCTIONS = ("pow", "sqrt")


class CountingPhp(Php):
    """PHP's bundle, counting how often its checker runs."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def check(self, formula: str, digits: str, functions: Iterable[str]) -> str:  # type: ignore[override]
        self.calls.append(formula)
        return Php.check(formula, digits, functions)


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> CountingPhp:
    bundle = CountingPhp()
    monkeypatch.setattr("evaluator.service._PHP", bundle)
    return bundle


async def test_a_formula_that_passed_is_not_checked_again(
    pool: WorkerPool, counted: CountingPhp
) -> None:
    evaluator = Evaluator(pool, "test")
    for _ in range(3):
        assert await evaluator.evaluate("3 × 4 + 89", "3489", FUNCTIONS) == Evaluation(
            "3 * 4 + 89", 101
        )
    assert counted.calls == ["3 × 4 + 89"]


async def test_other_digits_or_functions_are_checked_again(
    pool: WorkerPool, counted: CountingPhp
) -> None:
    evaluator = Evaluator(pool, "test")
    assert await evaluator.evaluate("pow(3,4)", "34", FUNCTIONS) == Evaluation("pow(3,4)", 81)
    wrong_digits = await evaluator.evaluate("pow(3,4)", "43", FUNCTIONS)
    assert isinstance(wrong_digits, EvalError) and wrong_digits.code is ErrorCode.DIGITS
    no_pow = await evaluator.evaluate("pow(3,4)", "34", ("sqrt",))
    assert isinstance(no_pow, EvalError) and no_pow.code is ErrorCode.FORBIDDEN
    assert len(counted.calls) == 3


async def test_a_refusal_is_checked_every_time(pool: WorkerPool, counted: CountingPhp) -> None:
    evaluator = Evaluator(pool, "test")
    for _ in range(2):
        verdict = await evaluator.evaluate("$x=34+89", "3489", FUNCTIONS)
        assert isinstance(verdict, EvalError) and verdict.code is ErrorCode.FORBIDDEN
    assert len(counted.calls) == 2


async def test_a_set_is_keyed_by_its_functions(pool: WorkerPool) -> None:
    evaluator = Evaluator(pool, "test")
    assert await evaluator.evaluate("pow(3,4)-8*9", "3489", CLASSIC) == Evaluation(
        "pow(3,4)-8*9", 9
    )
    refused = await evaluator.evaluate("pow(3,4)-8*9", "3489", ())
    assert isinstance(refused, EvalError) and refused.code is ErrorCode.FORBIDDEN


def test_the_cache_is_bounded() -> None:
    checked = Checked(limit=3)
    keys = [(str(n), "1", (), FormulaLanguage.PHP) for n in range(4)]
    for key in keys[:3]:
        checked.put(key, key[0])
    assert len(checked) == 3 and checked.get(keys[0]) == "0"
    checked.put(keys[3], "3")  # full: emptied first
    assert len(checked) == 1
    assert checked.get(keys[0]) is None and checked.get(keys[3]) == "3"
    with pytest.raises(ValueError, match="room"):
        Checked(limit=0)
