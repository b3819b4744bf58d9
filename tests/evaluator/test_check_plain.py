"""The checker's shortcut for plain formulas is only a shortcut: whatever it passes, the
full way (PHP's tokens, the whitelist, nesting, digits) passes too, with the same text,
and it passes the common formulas (or it would save nothing)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluator.check import _check_digits, _check_nesting, _lowered, _passes_plainly, tokenize
from evaluator.result import FormulaError
from rules.sets import ALLOWED_FUNCTIONS, DEFAULT_FUNCTIONS

_PIECES = st.sampled_from(
    [*"0123456789", *"0123456789", "+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>",
     "<", ">", "(", ")", "(", ")", ",", " ", "  ", "_", "x", "e", "int", "(int)",
     "pow", "sqrt", "log10", "atan2", "POW", "Pow (", "abs", "hexdec", "9e", "1_0"]
)  # fmt: skip
_digits = st.text("0123456789", min_size=1, max_size=6)
WIDE = (*sorted(ALLOWED_FUNCTIONS), "log10", "atan2")
"""Every Set function, and names with digits in them (a Set may allow any PHP function)."""


def full_way(text: str, digits: str, functions: frozenset[str]) -> bool:
    try:
        read = tokenize(text, functions)
        _check_nesting(read)
        _check_digits(read, digits)
    except FormulaError:
        return False
    return True


@settings(max_examples=4000, deadline=None)
@given(st.lists(_PIECES, max_size=30).map("".join), _digits, st.booleans(), st.booleans())
def test_what_the_shortcut_passes_the_full_way_passes(
    text: str, digits: str, every_function: bool, own_digits: bool
) -> None:
    if own_digits:  # the text's own digits, so that the other checks decide
        digits = "".join(ch for ch in text if ch.isdigit())
    functions = _lowered(WIDE if every_function else DEFAULT_FUNCTIONS)
    if _passes_plainly(text, digits, functions):
        assert full_way(text, digits, functions), text


@pytest.mark.parametrize(
    ("text", "digits"),
    [
        ("34+89", "3489"),
        ("3 * 4 + 89", "3489"),
        ("pow(3,4)-8*9", "3489"),
        ("pow (3, 4) - 8 * 9", "3489"),
        ("(34)|(89)", "3489"),
        ("3<<4>>8^9", "3489"),
        ("sqrt(34)/89", "3489"),
        ("log10(34)+89", "3489"),  # the name's digits are not the Digits
    ],
)
def test_common_formulas_take_the_shortcut(text: str, digits: str) -> None:
    functions = _lowered(WIDE)
    assert _passes_plainly(text, digits, functions)
    assert full_way(text, digits, functions)


@pytest.mark.parametrize(
    ("text", "digits", "functions"),
    [
        ("34+89", "3498", DEFAULT_FUNCTIONS),  # digits out of order
        ("pow+3489", "3489", DEFAULT_FUNCTIONS),  # a name not called
        ("atan2(34,89)", "3489", DEFAULT_FUNCTIONS),  # not a function of the Set
        ("((34)+89", "3489", DEFAULT_FUNCTIONS),  # unclosed
        ("34)+(89", "3489", DEFAULT_FUNCTIONS),  # closes nothing first
        ("(" * 33 + "3489" + ")" * 33, "3489", DEFAULT_FUNCTIONS),  # too deep
        ("3--489", "3489", DEFAULT_FUNCTIONS),  # not plain: PHP's decrement
        ("3489e1", "34891", DEFAULT_FUNCTIONS),  # not plain: an exponent
    ],
)
def test_the_shortcut_leaves_every_problem_to_the_full_way(
    text: str, digits: str, functions: tuple[str, ...]
) -> None:
    allowed = _lowered(functions)
    assert not _passes_plainly(text, digits, allowed)
    assert not full_way(text, digits, allowed)
