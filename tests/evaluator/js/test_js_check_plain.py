"""The JavaScript checker's shortcut is only a shortcut: whatever it passes, the full way
(node's tokens, the whitelist, calls and commas, nesting, digits) passes too, and it
passes the common formulas (or it would save nothing)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluator.check import check_shape
from evaluator.js_check import _passes_plainly, tokenize
from evaluator.result import FormulaError
from rules.languages import JS_DEFAULT_FUNCTIONS

_PIECES = st.sampled_from(
    [*"0123456789", *"0123456789", "+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>",
     ">>>", "<", ">", "=", "(", ")", "(", ")", ",", ",", " ", "  ", "//", "/*", "*/",
     "Math.pow(", "Math.sqrt(", "Math.max(", "Math.pow", "Math.log(", "Math", ".", "x",
     "@", "--", "++", "&&", "!", "?", ":", "e", "n", "_", "$", "0x", ".5", "1e3", "<!--"]
)  # fmt: skip
_digits = st.text("0123456789", min_size=1, max_size=6)
FUNCTIONS = frozenset(JS_DEFAULT_FUNCTIONS)


def full_way(text: str, digits: str, functions: frozenset[str]) -> bool:
    try:
        check_shape(tokenize(text, functions), digits)
    except FormulaError:
        return False
    return True


@settings(max_examples=6000, deadline=None)
@given(st.lists(_PIECES, max_size=30).map("".join), _digits, st.booleans(), st.booleans())
def test_what_the_shortcut_passes_the_full_way_passes(
    text: str, digits: str, every_function: bool, own_digits: bool
) -> None:
    text = text.strip()
    if not text:
        return
    if own_digits:  # the text's own digits, so that the other checks decide
        digits = "".join(ch for ch in text if ch.isdigit())
    functions = FUNCTIONS if every_function else frozenset(("Math.pow", "Math.max"))
    if _passes_plainly(text, digits, functions):
        assert full_way(text, digits, functions), text


@pytest.mark.parametrize(
    ("text", "digits"),
    [
        ("34+89", "3489"),
        ("3 * 4 + 89", "3489"),
        ("Math.pow(3,4)-8*9", "3489"),
        ("Math.pow(3, 4) - 8 * 9", "3489"),
        ("(34)|(89)", "3489"),
        ("3<<4>>8^9>>>1", "34891"),
        ("Math.sqrt(34)/89", "3489"),
        ("Math.max(Math.min(3,4),8)**9", "3489"),
        ("3**4+89", "3489"),
        ("023*8", "0238"),
        ("-3 - -4", "34"),
    ],
)
def test_common_formulas_take_the_shortcut(text: str, digits: str) -> None:
    assert _passes_plainly(text, digits, FUNCTIONS)


@pytest.mark.parametrize(
    "text",
    [
        "3--4", "3&&4", "3<4", "3>>>>4", "3<<<4", "(/3/)", "3+/4/", "3*/4/", "3//4", "3/*4*/",
        "3(4)", "(3)(4)", "3,4", "(3,4)", "Math.pow (3,4)", "Math.pow", "Math.log(34)",
        "3Math.pow(3,4)", "Math.pow(3,4)Math.pow(8,9)", "3 @ 4", "3.4", "0x3", "3e4", "3_4",
        "((((((((((((((((((((((((((((((((((3))))))))))))))))))))))))))))))))))", "(3", "3)",
    ],
)  # fmt: skip
def test_what_node_reads_otherwise_goes_the_full_way(text: str) -> None:
    digits = "".join(ch for ch in text if ch.isdigit())
    assert not _passes_plainly(text, digits, FUNCTIONS)
