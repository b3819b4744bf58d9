"""The formula languages: one interface, one registered implementation per language.

A Set names its language (`rules.game_set.FormulaLanguage`); everything that
differs between languages is behind `Language`: its checker, its sandboxed
runner (the worker program the pool runs, locally and in Docker) and how its
numbers are shown. Nothing outside this registry asks which language it is
(DESIGN.md, "Languages"). PHP is the first implementation and behaves exactly
as before; JavaScript (real node) the second.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from typing import Final, Protocol

from evaluator.check import check as check_php
from evaluator.js_check import check as check_javascript
from evaluator.sandbox.program import NODE, PHP, WorkerProgram
from rules.game_set import LANGUAGE_FUNCTIONS, FormulaLanguage
from rules.scoring import js_text, php_text


class Language(Protocol):
    key: FormulaLanguage
    label: str  # the language's own name, the same in every reader's language
    implied: bool  # the original rules' language: a Set in it is named without it
    program: WorkerProgram  # the worker the pool runs, in bubblewrap or Docker

    @property
    def default_functions(self) -> tuple[str, ...]: ...

    def check(self, formula: str, digits: str, functions: Iterable[str]) -> str:
        """The normalized formula if it may run, else FormulaError (never runs anything)."""
        ...

    def show(self, value: int | float) -> str:
        """A Result as the language shows a value (PHP's var_export: `100.0`)."""
        ...

    def echo(self, value: int | float) -> str:
        """A number as the language prints it in text (PHP's echo `100`, JS's `String(x)`):
        how the bot writes Results, Points and Scores (`bot.common.fmt`)."""
        ...

    def type_name(self, value: int | float) -> str:
        """The Result's type as the language names it."""
        ...

    def json_number(self, value: int | float) -> str:
        """A number as JSON text, as the language would write it (`eval --jsonl`)."""
        ...


class Php:
    key = FormulaLanguage.PHP
    label = "PHP"
    implied = True
    program = PHP

    @property
    def default_functions(self) -> tuple[str, ...]:
        return LANGUAGE_FUNCTIONS[self.key].defaults

    check = staticmethod(check_php)
    """The checker itself, not a method around it: called once per formula."""

    def show(self, value: int | float) -> str:
        return php_text(value)

    def echo(self, value: int | float) -> str:
        return php_text(value, zero_fraction=False)

    def type_name(self, value: int | float) -> str:
        return "float" if isinstance(value, float) else "int"

    def json_number(self, value: int | float) -> str:
        if isinstance(value, int) or math.isfinite(value):
            return repr(value)
        return json.dumps(value)


class JavaScript:
    key = FormulaLanguage.JAVASCRIPT
    label = "JavaScript"
    implied = False
    program = NODE

    @property
    def default_functions(self) -> tuple[str, ...]:
        return LANGUAGE_FUNCTIONS[self.key].defaults

    def check(self, formula: str, digits: str, functions: Iterable[str]) -> str:
        return check_javascript(formula, digits, functions)

    def show(self, value: int | float) -> str:
        return js_text(float(value))

    def echo(self, value: int | float) -> str:
        return js_text(float(value))

    def type_name(self, value: int | float) -> str:
        return "number"

    def json_number(self, value: int | float) -> str:
        return js_text(float(value)) if math.isfinite(value) else "null"


LANGUAGES: Final[Mapping[FormulaLanguage, Language]] = {
    FormulaLanguage.PHP: Php(),
    FormulaLanguage.JAVASCRIPT: JavaScript(),
}


def language(key: FormulaLanguage | str = FormulaLanguage.PHP) -> Language:
    """The registered implementation of `key` (ValueError for an unknown name)."""
    if isinstance(key, FormulaLanguage):  # the common call: no enum lookup by value
        return LANGUAGES[key]
    return LANGUAGES[FormulaLanguage(key)]
