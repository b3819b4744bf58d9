"""`open_evaluator` chooses the runner by the Set's language; PHP stays the default."""

from __future__ import annotations

import dataclasses

from evaluator.result import ErrorCode, EvalError, Evaluation
from evaluator.service import Evaluator, open_evaluator
from rules.game_set import CLASSIC, JS_DEFAULT_FUNCTIONS, FormulaLanguage
from tests.evaluator.conftest import test_settings

JS_DARTS = dataclasses.replace(
    CLASSIC, name="js-darts", language=FormulaLanguage.JAVASCRIPT, functions=JS_DEFAULT_FUNCTIONS
)


async def test_the_sets_language_picks_checker_and_runner() -> None:
    evaluator = await open_evaluator(test_settings("local", pool_size=1))
    try:
        assert await evaluator.evaluate("7/2", "72", CLASSIC) == Evaluation("7/2", 3.5)
        assert await evaluator.evaluate("9/3", "93", CLASSIC) == Evaluation("9/3", 3)
        # node opens on the first JavaScript formula: 023 is 19 there, 08 is 8
        assert await evaluator.evaluate("023+08", "02308", JS_DARTS) == Evaluation("023+08", 27.0)
        php_octal = await evaluator.evaluate("023+08", "02308", CLASSIC)
        assert isinstance(php_octal, EvalError) and php_octal.code == ErrorCode.SYNTAX
        refused = await evaluator.evaluate("Math.sqrt(3489)", "3489", CLASSIC)
        assert isinstance(refused, EvalError) and refused.code == ErrorCode.FORBIDDEN
        php_name = await evaluator.evaluate("pow(3,4)", "34", JS_DARTS)
        assert isinstance(php_name, EvalError) and php_name.code == ErrorCode.FORBIDDEN
        many = await evaluator.evaluate_many(
            [("34+89", "3489", CLASSIC), ("3**4+89", "3489", JS_DARTS), ("3--4", "34", JS_DARTS)]
        )
        assert many[:2] == [Evaluation("34+89", 123), Evaluation("3**4+89", 170.0)]
        assert isinstance(many[2], EvalError) and many[2].code == ErrorCode.FORBIDDEN
        explicit = await evaluator.evaluate(
            "1<<32", "132", ("Math.pow",), language=FormulaLanguage.JAVASCRIPT
        )
        assert explicit == Evaluation("1<<32", 1.0)
    finally:
        await evaluator.close()


async def test_languages_asked_for_are_warm_at_start() -> None:
    evaluator = await open_evaluator(
        test_settings("local", pool_size=1), languages=[FormulaLanguage.JAVASCRIPT]
    )
    try:
        pool = await evaluator.pool_for(FormulaLanguage.JAVASCRIPT)
        assert not isinstance(pool, EvalError) and pool.live_workers == 1
    finally:
        await evaluator.close()


async def test_an_evaluator_without_settings_says_javascript_is_not_there() -> None:
    source = await open_evaluator(test_settings("local", pool_size=1))
    evaluator = Evaluator(source.pool)
    try:
        verdict = await evaluator.evaluate("34+89", "3489", JS_DARTS)
        assert isinstance(verdict, EvalError) and verdict.code == ErrorCode.SANDBOX
        assert await evaluator.evaluate("34+89", "3489", CLASSIC) == Evaluation("34+89", 123)
    finally:
        await source.close()
