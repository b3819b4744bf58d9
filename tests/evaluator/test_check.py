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
    for formula in ["3 4 8 9", "34+,89", "3489+", "3- -489", "pow (3,4)89", "()3489"]:
        assert check(formula, "3489", F) == formula


# Every token PHP reads that is not on RULES.md's list: (formula for 3489, the
# token as PHP cuts it, its column). PHP reads `3--4` as 3, `--`, 4 (a decrement),
# `->>` as `->`, `>`, and a number like 0x34 or 3e4 as one token.
REFUSED_TOKENS = [
    ("3--489", "--", 2),
    ("3++489", "++", 2),
    ("++sqrt(3489)", "++", 1),
    ("(3&&4)*89", "&&", 3),
    ("(3||4)*89", "||", 3),
    ("3->>489", "->", 2),
    ("3?->489", "?->", 2),
    ("3**489", "**", 2),
    ("3**=489", "**=", 2),
    ("34<=89", "<=", 3),
    ("34>=89", ">=", 3),
    ("34==89", "==", 3),
    ("34===89", "===", 3),
    ("34!=89", "!=", 3),
    ("34!==89", "!==", 3),
    ("34<>89", "<>", 3),
    ("34<=>89", "<=>", 3),
    ("34??89", "??", 3),
    ("34??=89", "??=", 3),
    ("34::89", "::", 3),
    ("34=>89", "=>", 3),
    ("pow(...3489)", "...", 5),
    ("#[3489]", "#[", 1),
    ("34//89", "//", 3),
    ("34/*89*/", "/*", 3),
    ("34#89", "#", 3),
    ("34+=89", "+=", 3),
    ("34-=89", "-=", 3),
    ("34<<=89", "<<=", 3),
    ("34>>=89", ">>=", 3),
    ("34%=89", "%=", 3),
    ("34 .=89", ".=", 4),  # `34.=` would be the number `34.` then `=`
    ("(int)3489", "(int)", 1),
    ("( float )3489", "( float )", 1),
    ("3<<<489", "<", 4),  # no heredoc without a newline: PHP reads `<<` then `<`
    ("34+89?>", "?>", 6),
    ("$a+3489", "$a", 1),
    ("'34'+89", "'", 1),
    ("b'34'+89", "b'", 1),
    ("`ls`+3489", "`", 1),
    ("0x34+89", "0x34", 1),
    ("0X3+489", "0X3", 1),
    ("0b1+3489", "0b1", 1),
    ("0o3+489", "0o3", 1),
    ("3e4+89", "3e4", 1),
    ("3E+4+89", "3E+4", 1),
    ("3_489", "3_489", 1),
    ("3.4+89", "3.4", 1),
    (".3+489", ".3", 1),
    ("3.+489", "3.", 1),
    ("\\pow(3,4)+89", "\\pow", 1),
    ("pow+3489", "pow", 1),
    ("3489+sqrt", "sqrt", 6),
]


@pytest.mark.parametrize(("formula", "token", "column"), REFUSED_TOKENS)
def test_refused_tokens(formula: str, token: str, column: int) -> None:
    with pytest.raises(FormulaError) as caught:
        check(formula, "3489", F)
    error = caught.value.error
    assert error.code == ErrorCode.FORBIDDEN
    assert (error.text, error.position) == (token, column)
    assert error.message.startswith(f"`{token}` at column {column} is not allowed")


def test_refusals_say_what_php_would_read() -> None:
    def message(formula: str) -> str:
        with pytest.raises(FormulaError) as caught:
            check(formula, "3489", F)
        return caught.value.error.message

    assert "decrement" in message("3--489") and "`- -`" in message("3--489")
    assert "hexadecimal" in message("0x34+89")
    assert "exponent" in message("3e4+89")
    assert "decimal fraction" in message("3.4+89")
    assert "pow(" in message("pow+3489")
    assert "comment" in message("34#89")
    assert "power operator (use pow)" in message("3**489")


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
    for hazard in ("**", "//", "/*", "$", ";", "'", '"', "`", "#", ".", "--", "++", "->"):
        assert hazard not in text
    assert text.count("(") == text.count(")")
    for name in re.findall(r"[a-z]+", text, re.IGNORECASE):
        assert re.search(rf"{name}\s*\(", text), text  # every name is a call


_piece = st.sampled_from(["+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", " "])


@settings(max_examples=1000, deadline=None)
@given(_digits, st.lists(_piece, min_size=3, max_size=3))
def test_digits_joined_by_operators_are_accepted(digits: str, ops: list[str]) -> None:
    formula = digits[0] + ops[0] + digits[1] + ops[1] + digits[2] + ops[2] + digits[3]
    assert check(formula, digits, F) == formula
