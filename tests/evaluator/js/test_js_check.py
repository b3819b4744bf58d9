"""The JavaScript checker by example: what passes, what is refused, and where it says so."""

from __future__ import annotations

import pytest

from evaluator.js_check import check
from evaluator.language import language
from evaluator.result import ErrorCode, FormulaError
from rules.game_set import (
    CLASSIC,
    JS_ALLOWED_FUNCTIONS,
    FormulaLanguage,
    GameSet,
)
from rules.scoring import js_text

F = tuple(sorted(JS_ALLOWED_FUNCTIONS))


@pytest.mark.parametrize(
    "formula",
    [
        "34+89",
        "3*4+89",
        "Math.pow(3,4)-8*9",
        "3**4-89",
        "(3-4)**8-9",
        "3- -4+89",
        "-3+489",
        "34>>>8|9",
        "3^4&8<<9",
        "Math.sqrt(3489)",
        "Math.max(3, 4, 89)",
        "Math.hypot(34, 89)",
        "Math.sqrt (3489)",
        "  34 + 89  ",
        "3×4÷8−9",
        "-3**489",  # node's SyntaxError is the verdict, as PHP's parse errors are
        "3 489",
        "Math.max()+3489",
    ],
)
def test_formulas_that_may_run(formula: str) -> None:
    assert check(formula, "3489", F)


@pytest.mark.parametrize(
    ("formula", "code", "column"),
    [
        ("43+89", ErrorCode.DIGITS, 1),
        ("Math.log2(3489)", ErrorCode.FORBIDDEN, 1),  # a name, not a 2
        ("Math.sqrt(3489)", ErrorCode.FORBIDDEN, 1),  # not one of this Set's functions
        ("3--4+89", ErrorCode.FORBIDDEN, 2),
        ("3++4+89", ErrorCode.FORBIDDEN, 2),
        ("3.4+89", ErrorCode.FORBIDDEN, 1),
        ("34+.89", ErrorCode.FORBIDDEN, 4),
        ("34.+89", ErrorCode.FORBIDDEN, 1),
        ("3e4+89", ErrorCode.FORBIDDEN, 1),
        ("0x34+89", ErrorCode.FORBIDDEN, 1),
        ("0b1+3489", ErrorCode.FORBIDDEN, 1),
        ("0o7+3489", ErrorCode.FORBIDDEN, 1),
        ("3_489", ErrorCode.FORBIDDEN, 1),
        ("3489n", ErrorCode.FORBIDDEN, 1),
        ("34+/89/", ErrorCode.FORBIDDEN, 4),  # a regular expression
        ("/3489/", ErrorCode.FORBIDDEN, 1),
        ("34/89", None, None),
        ("34//89", ErrorCode.FORBIDDEN, 3),
        ("34/*8*/9", ErrorCode.FORBIDDEN, 3),
        ("34<!--89", ErrorCode.FORBIDDEN, 3),
        ("'34'+89", ErrorCode.FORBIDDEN, 1),
        ('"34"+89', ErrorCode.FORBIDDEN, 1),
        ("`34`+89", ErrorCode.FORBIDDEN, 1),
        ("(3,489)", ErrorCode.FORBIDDEN, 3),  # the comma operator
        ("Math.pow(3,4)(8,9)", ErrorCode.FORBIDDEN, 14),  # calling a value
        ("(34)(89)", ErrorCode.FORBIDDEN, 5),
        ("Math.sqrt", ErrorCode.FORBIDDEN, 1),
        ("Math .sqrt(3489)", ErrorCode.FORBIDDEN, 1),
        ("Math.sqrt.call(0,3489)", ErrorCode.FORBIDDEN, 1),
        ("34Math.sqrt(89)", ErrorCode.FORBIDDEN, 3),
        ("x=3489", ErrorCode.FORBIDDEN, 1),
        ("34==89", ErrorCode.FORBIDDEN, 3),
        ("34?8:9", ErrorCode.FORBIDDEN, 3),
        ("34??89", ErrorCode.FORBIDDEN, 3),
        ("!3489", ErrorCode.FORBIDDEN, 1),
        ("~3489", ErrorCode.FORBIDDEN, 1),
        ("[3489]", ErrorCode.FORBIDDEN, 1),
        ("{3489}", ErrorCode.FORBIDDEN, 1),
        ("3489;", ErrorCode.FORBIDDEN, 5),
        ("\\u0033489", ErrorCode.FORBIDDEN, 1),
        ("#3489", ErrorCode.FORBIDDEN, 1),
        ("(3489", ErrorCode.SYNTAX, None),
        ("", ErrorCode.SYNTAX, None),
    ],
)
def test_refusals_name_the_token_and_its_column(
    formula: str, code: ErrorCode | None, column: int | None
) -> None:
    functions = ("Math.pow", "Math.max") if formula.startswith("Math.sqrt(") else F
    if code is None:
        assert check(formula, "3489", functions)
        return
    with pytest.raises(FormulaError) as caught:
        check(formula, "3489", functions)
    assert caught.value.error.code == code, caught.value.error
    assert caught.value.error.position == column, caught.value.error
    if code is ErrorCode.FORBIDDEN:
        assert f"at column {column}" in caught.value.error.message


def test_function_names_are_case_sensitive_as_in_javascript() -> None:
    with pytest.raises(FormulaError):
        check("math.sqrt(3489)", "3489", F)
    with pytest.raises(FormulaError):
        check("Math.SQRT(3489)", "3489", F)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (123.0, "123"),
        (3.5, "3.5"),
        (-0.0, "0"),
        (1e21, "1e+21"),
        (1e20, "100000000000000000000"),
        (1.5e-7, "1.5e-7"),
        (0.000001, "0.000001"),
        (2.0**70, "1.1805916207174113e+21"),
        (5e-324, "5e-324"),
        (0.1 + 0.2, "0.30000000000000004"),
    ],
)
def test_numbers_print_as_javascript_prints_them(value: float, text: str) -> None:
    assert js_text(value) == text
    assert language(FormulaLanguage.JAVASCRIPT).show(value) == text


def test_php_stays_the_default_language_and_keeps_its_version() -> None:
    assert CLASSIC.language is FormulaLanguage.PHP
    assert CLASSIC.version == "0945e78252"  # the classic Set's version before languages
    assert "language" not in CLASSIC.to_dict()
    js = GameSet(**{**CLASSIC.to_dict(), "name": "js-darts", "functions": ("Math.pow",)})
    js = GameSet.from_dict({**js.to_dict(), "language": "javascript"})
    assert js.language is FormulaLanguage.JAVASCRIPT
    assert js.to_dict()["language"] == "javascript"
    assert js.version != GameSet.from_dict({**js.to_dict(), "language": "php"}).version
    assert GameSet.from_dict(js.to_dict()) == js


JS_DARTS = """
js-darts:
  description: The classic numbers, written in JavaScript and judged by real node.
  language: javascript
  start_score: 501
  goal: 100
  bonus: 50
  max_rounds: 7
  time_limit: 120
  min_rounds: 4
  functions: [Math.pow, Math.sqrt, Math.cbrt, Math.abs, Math.floor, Math.ceil, Math.round,
              Math.trunc, Math.sign, Math.hypot, Math.max, Math.min]
"""
"""The global Set js-darts, ready for sets.yaml once the bot scores and solves JavaScript."""


def test_a_javascript_set_parses_exports_and_reads_back() -> None:
    from rules.sets import SetsError, dump_sets, parse_sets

    js = parse_sets(JS_DARTS)["js-darts"]
    assert js.language is FormulaLanguage.JAVASCRIPT
    assert js.functions[:2] == ("Math.pow", "Math.sqrt")
    assert parse_sets(dump_sets([js]))["js-darts"] == js
    with pytest.raises(SetsError, match=r"not allowed: math\.sqrt"):
        parse_sets(JS_DARTS.replace("Math.pow, Math.sqrt", "Math.pow, math.sqrt"))
    with pytest.raises(SetsError, match=r"not allowed: math\.pow"):
        parse_sets(JS_DARTS.replace("language: javascript", "language: php"))
    with pytest.raises(SetsError, match="language"):
        parse_sets(JS_DARTS.replace("language: javascript", "language: python"))
