"""Every number the bot shows is written as its Set's language prints it.

`bot.common.fmt` requires the language (a forgotten one is a type error), and this
reads the bot's own code: every call names it, and no module writes a number through
PHP's text directly.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.common import fmt, set_label
from rules import FormulaLanguage

ROOT = Path(__file__).resolve().parents[3] / "bot"
PHP_TEXT_ALLOWED = {"charts/_style.py", "cli/_solve.py"}
"""The chart worker process draws without the bot's imports (a 3-digit off-chart label);
`formula-darts solve` prints the solver's own numbers (its languages are the solver's)."""


def _calls(name: str) -> list[tuple[str, ast.Call]]:
    found = []
    for path in ROOT.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
                if called == name:
                    found.append((str(path.relative_to(ROOT)), node))
    return found


def test_every_fmt_call_in_the_bot_names_the_language() -> None:
    calls = _calls("fmt")
    assert len(calls) > 20  # the reader finds them
    unnamed = [
        f"{path}:{node.lineno}" for path, node in calls if len(node.args) + len(node.keywords) < 2
    ]
    assert unnamed == []


def test_no_module_writes_numbers_with_php_text_directly() -> None:
    direct = {path for path, _ in _calls("php_text")} - PHP_TEXT_ALLOWED
    assert direct == set(), "numbers go through the Set's language (bot.common.fmt)"


@pytest.mark.parametrize(
    ("value", "php", "javascript"),
    [
        (0.1 + 0.2, "0.30000000000000004", "0.30000000000000004"),
        (123.0, "123", "123"),
        (1e25, "1.0E+25", "1e+25"),
        (1e21, "1.0E+21", "1e+21"),
        (1e20, "1.0E+20", "100000000000000000000"),
        (2.5e-5, "2.5E-5", "0.000025"),
        (-0.0, "-0", "0"),
        (501, "501", "501"),
    ],
)
def test_fmt_writes_each_language_as_it_prints(value: float, php: str, javascript: str) -> None:
    assert fmt(value, FormulaLanguage.PHP) == php
    assert fmt(value, FormulaLanguage.JAVASCRIPT) == javascript


def test_a_set_is_named_with_its_language_unless_php() -> None:
    assert set_label("darts", FormulaLanguage.PHP) == "darts"
    assert set_label("js-darts", FormulaLanguage.JAVASCRIPT) == "js-darts · JavaScript"
