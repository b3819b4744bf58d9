"""node's own messages, met by real formulas in its sandbox, are read (`bot/i18n/_node.py`)
and told in both languages; English rebuilds V8's words exactly, as node prints them."""

from __future__ import annotations

import pytest

import rules
from bot.i18n import describe_eval_error
from bot.i18n._node import READINGS, read_node_message
from evaluator import ErrorCode, EvalError, Evaluator
from rules import FormulaLanguage

pytestmark = pytest.mark.asyncio(loop_scope="session")
JS = rules.load_sets()["js-darts"]
MET = {
    "3 489": "unexpected_number",
    "3489+": "unexpected_end",
    "Math.max(,3489)": "unexpected_token",
    "Math.max(34 89)": "missing_paren",
    "-3**489": "unary_power",
}
"""A formula the checker passes, for each reading node can still answer it with."""


async def test_every_message_node_gives_is_read_and_told_in_both_languages(
    evaluator: Evaluator,
) -> None:
    for formula, kind in MET.items():
        verdict = await evaluator.evaluate(formula, "3489", JS)
        assert isinstance(verdict, EvalError) and verdict.error_class == "SyntaxError", formula
        reading = read_node_message(verdict.message)
        assert reading is not None and reading[0] == f"eval.js.error.{kind}", verdict.message
        english = describe_eval_error(verdict, "en", formula, lang=rules.FormulaLanguage.JAVASCRIPT)
        assert english == f"JavaScript SyntaxError: {verdict.message}"
        ukrainian = describe_eval_error(
            verdict, "uk", formula, lang=rules.FormulaLanguage.JAVASCRIPT
        )
        assert "JavaScript повідомляє" in ukrainian and "SyntaxError" not in ukrainian
        assert verdict.message not in ukrainian, "told in Ukrainian, not quoted"
    assert set(MET.values()) <= set(READINGS)


async def test_a_message_not_read_is_quoted_and_php_stays_php(evaluator: Evaluator) -> None:
    odd = EvalError(ErrorCode.RUNTIME, "something new", error_class="RangeError")
    lang = rules.FormulaLanguage.JAVASCRIPT
    assert describe_eval_error(odd, "en", None, lang=lang) == "JavaScript RangeError: something new"
    uk = describe_eval_error(odd, "uk", None, lang=lang)
    assert uk == "JavaScript повідомляє англійською (RangeError): something new"
    php = await evaluator.evaluate("11/(0*0)", "1100", rules.CLASSIC)
    assert isinstance(php, EvalError)
    assert describe_eval_error(php, "en", lang=FormulaLanguage.PHP).startswith(
        "PHP DivisionByZeroError: Division by zero"
    )
