"""The checker: RULES.md's examples as a table, and hypothesis properties.

The properties are the security claim: whatever string a player types, the
checker either rejects it or returns text made only of whitelisted tokens whose
digits are exactly the round's Digits in order.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluator.check import MAX_LENGTH, MAX_NESTING, check, normalize
from evaluator.result import ErrorCode, FormulaError
from rules.sets import ALLOWED_FUNCTIONS, DEFAULT_FUNCTIONS

F = DEFAULT_FUNCTIONS


def code_of(formula: str, digits: str = "3489", functions: tuple[str, ...] = F) -> ErrorCode:
    with pytest.raises(FormulaError) as caught:
        check(formula, digits, functions)
    return caught.value.error.code


@pytest.mark.parametrize(
    "formula",
    [
        "34+89",
        "3*4+89",
        "pow(3,4)-8*9",
        " 3 4+89 ",
        "(34)|(89)",
        "3<<4>>8^9",
        "34%8&9",
        "sqrt(34)/89",
        "hexdec(34)+octdec(8)*bindec(9)",
    ],
)
def test_rules_examples_pass(formula: str) -> None:
    assert check(formula, "3489", F) == formula.strip()


@pytest.mark.parametrize(
    ("formula", "code"),
    [
        ("43+89", ErrorCode.DIGITS),
        ("34+8", ErrorCode.DIGITS),
        ("34+899", ErrorCode.DIGITS),
        ("3.4+89", ErrorCode.FORBIDDEN),
        ("$a=3489", ErrorCode.FORBIDDEN),
        ("34;89", ErrorCode.FORBIDDEN),
        ("'34'+89", ErrorCode.FORBIDDEN),
        ('"34"+89', ErrorCode.FORBIDDEN),
        ("`ls`+3489", ErrorCode.FORBIDDEN),
        ("34+89#", ErrorCode.FORBIDDEN),
        ("34//89", ErrorCode.FORBIDDEN),
        ("34/*8*/9", ErrorCode.FORBIDDEN),
        ("3**4+89", ErrorCode.FORBIDDEN),
        ("system(3489)", ErrorCode.FORBIDDEN),
        ("abs(3489)", ErrorCode.FORBIDDEN),
        ("0x34+89", ErrorCode.FORBIDDEN),
        ("3e4+89", ErrorCode.FORBIDDEN),
        ("34<89", ErrorCode.FORBIDDEN),
        ("3<<<4+89", ErrorCode.FORBIDDEN),
        ("34==89", ErrorCode.FORBIDDEN),
        ("!3489", ErrorCode.FORBIDDEN),
        ("~3489", ErrorCode.FORBIDDEN),
        ("34?8:9", ErrorCode.FORBIDDEN),
        ("PHP_INT_MAX+3489", ErrorCode.FORBIDDEN),
        ("", ErrorCode.SYNTAX),
        ("   ", ErrorCode.SYNTAX),
        ("(3489", ErrorCode.SYNTAX),
        ("3489)", ErrorCode.SYNTAX),
        ("3" + "+0" * 200 + "489", ErrorCode.TOO_LONG),
        ("(" * (MAX_NESTING + 1) + "3489" + ")" * (MAX_NESTING + 1), ErrorCode.TOO_LONG),
    ],
)
def test_rejections(formula: str, code: ErrorCode) -> None:
    assert code_of(formula) == code


def test_nesting_at_the_limit_is_fine() -> None:
    formula = "(" * MAX_NESTING + "3489" + ")" * MAX_NESTING
    assert check(formula, "3489", F) == formula


def test_php_decides_syntax_it_can_run_safely() -> None:
    # These are PHP parse errors, part of the game: the checker lets PHP say so.
    for formula in ["3--4+89", "3 4 8 9", "34+,89", "pow+3489"]:
        assert check(formula, "3489", F) == formula


@pytest.mark.parametrize(
    ("typed", "normalized"),
    [
        ("34››8+9", "34>>8+9"),
        ("34‹‹8+9", "34<<8+9"),
        ("3×4+89", "3*4+89"),
        ("34÷8+9", "34/8+9"),
        ("34−8+9", "34-8+9"),
        ("３４＋８９", "34+89"),
        ("34\u00a0+\t89\n", "34 + 89"),
    ],
)
def test_normalization(typed: str, normalized: str) -> None:
    assert normalize(typed) == normalized
    assert check(typed, "3489", F) == normalized


def test_error_names_the_place_and_the_text() -> None:
    with pytest.raises(FormulaError) as caught:
        check("34+x9", "3489", F)
    error = caught.value.error
    assert (error.position, error.text) == (4, "x9")
    assert "`x9` at column 4 is not allowed" in error.message


def test_digit_error_says_what_was_read() -> None:
    with pytest.raises(FormulaError) as caught:
        check("34+9", "3489", F)
    assert caught.value.error.message == "digits read 3,4,9 but the round's number is 3489"
    assert dict(caught.value.error.params) == {"read": "3,4,9", "digits": "3489"}


def test_set_functions_decide_what_names_are_allowed() -> None:
    assert code_of("abs(34)+89") == ErrorCode.FORBIDDEN
    assert check("abs(34)+89", "3489", ("abs",)) == "abs(34)+89"
    assert code_of("pow(3,4)+89", functions=("abs",)) == ErrorCode.FORBIDDEN
    assert check("POW(3,4)+89", "3489", F) == "POW(3,4)+89"  # PHP names ignore case


def test_length_limit_counts_the_normalized_text() -> None:
    assert len(check("3" + " " * (MAX_LENGTH - 4) + "489", "3489", F)) == MAX_LENGTH


# --- properties ---------------------------------------------------------------

_ALLOWED = re.compile(
    r"(?:\s|[0-9]+|<<|>>|[-+*/%&|^(),]|" + "|".join(sorted(ALLOWED_FUNCTIONS)) + r")*",
    re.IGNORECASE,
)
_ALPHABET = st.sampled_from(list("0123456789+-*/%&|^<>()., $;'\"`#?:=!~xabcdehnopqrstw_ \t›‹×÷−３"))
_digits = st.integers(1000, 9999).map(str)


@settings(max_examples=3000, deadline=None)
@given(st.text(max_size=80), _digits)
def test_checker_never_crashes_on_any_string(formula: str, digits: str) -> None:
    try:
        check(formula, digits, ALLOWED_FUNCTIONS)
    except FormulaError as exc:
        assert exc.error.code in ErrorCode


@settings(max_examples=3000, deadline=None)
@given(st.lists(_ALPHABET, max_size=40).map("".join), _digits)
def test_accepted_text_is_whitelisted_with_the_digits_in_order(formula: str, digits: str) -> None:
    try:
        text = check(formula, digits, F)
    except FormulaError:
        return
    assert _ALLOWED.fullmatch(text)
    assert "".join(ch for ch in text if ch.isdigit()) == digits
    for hazard in ("**", "//", "/*", "$", ";", "'", '"', "`", "#", "."):
        assert hazard not in text
    assert text.count("(") == text.count(")")


_piece = st.sampled_from(["+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", " "])


@settings(max_examples=1000, deadline=None)
@given(_digits, st.lists(_piece, min_size=3, max_size=3))
def test_digits_joined_by_operators_are_accepted(digits: str, ops: list[str]) -> None:
    formula = digits[0] + ops[0] + digits[1] + ops[1] + digits[2] + ops[2] + digits[3]
    assert check(formula, digits, F) == formula
