"""The checker's shortcut for plain formulas is only a shortcut: whatever it passes, the
full way (PHP's tokens, the whitelist, nesting, digits) passes too, with the same text,
and it passes the common formulas (or it would save nothing)."""

from __future__ import annotations

import importlib
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluator.check import _check_digits, _check_nesting, _lowered, _passes_plainly, tokenize
from evaluator.result import FormulaError
from rules.sets import ALLOWED_FUNCTIONS, DEFAULT_FUNCTIONS

check_module = importlib.import_module("evaluator.check")  # the package names a function so
check = check_module.check

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


_ADVERSARIAL = st.sampled_from(
    [*"0123456789", "+", "-", "*", "/", "%", "&", "|", "^", "<", ">", "<<", ">>", "<<<",
     ">>>", "<>", "->", "=", "!", "?", ".", "$", "#", "'", '"', "`", "\\", "\t", "\n",
     "(", ")", "(", ")", ",", " ", "_", "e", "x", "b", "0x", "1_0", "(int)", "( int )",
     "pow", "POW", "pOw (", "sqrt", "ſqrt", "\u212a", "log10", "atan2", "hexdec", "ab",
     "pow(", "powx(", "xpow(", "3pow(", "¹", "٣", "\u00a0", "😀"]
)  # fmt: skip
"""What the shortcut must not be fooled by: PHP's longer tokens, names that fold to a Set
function's under Unicode case rules (`ſ`, the Kelvin sign), digits of other scripts,
names glued to a function's, casts, openers, spaces that are not ' '."""


def _verdict(formula: str, digits: str, functions: tuple[str, ...]) -> str:
    try:
        return "pass " + check(formula, digits, functions)
    except FormulaError as exc:
        return f"refused {exc.error.code} {exc.error.message}"


@settings(max_examples=6000, deadline=None)
@given(st.lists(_ADVERSARIAL, max_size=24).map("".join), _digits, st.booleans(), st.booleans())
def test_the_checker_says_the_same_with_and_without_the_shortcut(
    formula: str, digits: str, every_function: bool, own_digits: bool
) -> None:
    """`check()` as it runs (the shortcut first) against `check()` with the shortcut off:
    the same pass with the same text, or the same refusal, for any input."""
    if own_digits:
        digits = "".join(ch for ch in formula if ch in "0123456789") or digits
    functions = WIDE if every_function else DEFAULT_FUNCTIONS
    fast = _verdict(formula, digits, functions)
    with patch.object(check_module, "_plainly", lambda *_: False):
        full = _verdict(formula, digits, functions)
    assert fast == full, formula


@pytest.mark.parametrize(
    "formula",
    ["3--489", "3->489", "3<<<489", "3>>>489", "3<>489", "3<489", "34**89", "34//89",
     "34/*89", "34&&89", "34||89", "ſqrt(3489)", "\u212a+3489", "3pow(4,8)9", "3e489",
     "0x3489", "3_489", "(int)3489", "xpow(3,4)89", "٣489"],
)  # fmt: skip
def test_what_php_reads_otherwise_never_takes_the_shortcut(formula: str) -> None:
    """Each is plain-looking but PHP reads a longer token, another name or another digit."""
    assert not _passes_plainly(formula, "3489", _lowered(WIDE)), formula
