"""Each formula language's pure part, registered once: its numbers and its functions.

A Set names its language (`FormulaLanguage`); what its numbers are (how a Result scores,
how it is shown) and which functions a Set of it may name is one `LanguageRules` here,
asked by `rules.scoring` and `rules.sets`. It is pure (no process, no numpy), so the
rules can ask it; the evaluator's `Language` bundles it with the checker and the runner,
the solver's and the bot's parts are keyed by it in their own layer (docs/ARCHITECTURE.md,
"Formula languages"). A third language adds one class here and one in each layer above.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Final, Protocol, TypeVar

from rules.scoring import Number, js_text, php_abs, php_add, php_equal, php_sub, php_text


class FormulaLanguage(StrEnum):
    """The language a Set's formulas are written in and judged by (RULES.md)."""

    PHP = "php"
    JAVASCRIPT = "javascript"


DEFAULT_FUNCTIONS: tuple[str, ...] = ("pow", "sqrt", "hexdec", "octdec", "bindec")
"""PHP functions the original rules allow."""

ALLOWED_FUNCTIONS: frozenset[str] = frozenset(
    (*DEFAULT_FUNCTIONS, "abs", "intdiv", "floor", "ceil", "round", "fmod", "max", "min")
)
"""Vetted PHP math functions that take and return numbers only; a Set may use no others."""

JS_DEFAULT_FUNCTIONS: tuple[str, ...] = (
    *("Math.pow", "Math.sqrt", "Math.cbrt", "Math.abs", "Math.floor", "Math.ceil"),
    *("Math.round", "Math.trunc", "Math.sign", "Math.hypot", "Math.max", "Math.min"),
)
"""A JavaScript Set's functions when it names none: every vetted one."""

JS_ALLOWED_FUNCTIONS: frozenset[str] = frozenset(JS_DEFAULT_FUNCTIONS)
"""Vetted JavaScript Math functions (numbers in, a number out), written as JavaScript does."""


@dataclass(frozen=True, slots=True)
class FunctionRules:
    """A language's functions for Sets: the default list, the vetted list, and whether
    a name is case-insensitive (PHP's `POW` is `pow`; JavaScript's `Math.SQRT` is nothing)."""

    defaults: tuple[str, ...]
    allowed: frozenset[str]
    case_insensitive: bool

    def fold(self, name: str) -> str:
        return name.lower() if self.case_insensitive else name


class LanguageRules(Protocol):
    """A language's numbers and functions: what scoring, Set files and every text ask."""

    key: FormulaLanguage
    label: str  # the language's own name, the same in every reader's language
    implied: bool  # the original rules' language: a Set in it is named without it
    functions: FunctionRules

    def sub(self, a: Number, b: Number) -> Number: ...

    def add(self, a: Number, b: Number) -> Number: ...

    def abs(self, a: Number) -> Number: ...

    def equal(self, a: Number, b: Number) -> bool: ...

    def show(self, value: Number) -> str:
        """A Result as the language shows a value (PHP's var_export: `100.0`)."""
        ...

    def echo(self, value: Number) -> str:
        """A number as the language prints it in text (PHP's echo `100`, JS's `String(x)`):
        how every face writes Results, Points and Scores."""
        ...

    def type_name(self, value: Number) -> str:
        """The Result's type as the language names it."""
        ...

    def json_number(self, value: Number) -> str:
        """A number as JSON text, as the language would write it (`eval --jsonl`)."""
        ...


class PhpRules:
    """PHP's 64-bit ints that overflow into doubles (`rules.scoring`'s php_* steps)."""

    key = FormulaLanguage.PHP
    label = "PHP"
    implied = True
    functions = FunctionRules(DEFAULT_FUNCTIONS, ALLOWED_FUNCTIONS, True)

    sub = staticmethod(php_sub)
    add = staticmethod(php_add)
    abs = staticmethod(php_abs)
    equal = staticmethod(php_equal)

    def show(self, value: Number) -> str:
        return php_text(value)

    def echo(self, value: Number) -> str:
        return php_text(value, zero_fraction=False)

    def type_name(self, value: Number) -> str:
        return "float" if isinstance(value, float) else "int"

    def json_number(self, value: Number) -> str:
        if isinstance(value, int) or math.isfinite(value):
            return repr(value)
        return json.dumps(value)


class JavaScriptRules:
    """JavaScript's numbers: every value an IEEE double, every step in doubles."""

    key = FormulaLanguage.JAVASCRIPT
    label = "JavaScript"
    implied = False
    functions = FunctionRules(JS_DEFAULT_FUNCTIONS, JS_ALLOWED_FUNCTIONS, False)

    def sub(self, a: Number, b: Number) -> Number:
        return float(a) - float(b)

    def add(self, a: Number, b: Number) -> Number:
        return float(a) + float(b)

    def abs(self, a: Number) -> Number:
        return abs(float(a))

    def equal(self, a: Number, b: Number) -> bool:
        return float(a) == float(b)

    def show(self, value: Number) -> str:
        return js_text(float(value))

    def echo(self, value: Number) -> str:
        return js_text(float(value))

    def type_name(self, value: Number) -> str:
        return "number"

    def json_number(self, value: Number) -> str:
        return js_text(float(value)) if math.isfinite(value) else "null"


LANGUAGE_RULES: Final[Mapping[FormulaLanguage, LanguageRules]] = {
    FormulaLanguage.PHP: PhpRules(),
    FormulaLanguage.JAVASCRIPT: JavaScriptRules(),
}
"""The registration of every language's pure part; `evaluator.language.LANGUAGES` builds
on it, and tests/rules/test_language_registry.py refuses any other registry beside it."""


class Part(Protocol):
    """One layer's part of a language (its solver semantics, its texts): it names its key."""

    @property
    def key(self) -> FormulaLanguage: ...


P = TypeVar("P", bound=Part)


def each_language(*parts: P) -> Mapping[FormulaLanguage, P]:
    """A layer's parts keyed by the language each names, one for every registered language.

    The layers above `rules` (the solver, the bot's texts) cannot be imported from here, so
    each keys its part through this, never a dict of its own: a language left out, or
    given twice, fails at import, not as PHP's text printed for it later."""
    table = {part.key: part for part in parts}
    if len(table) != len(parts) or set(table) != set(LANGUAGE_RULES):
        given = sorted(str(part.key) for part in parts)
        raise ValueError(f"one part per language {sorted(LANGUAGE_RULES)}, got {given}")
    return MappingProxyType(table)


def language_rules(key: FormulaLanguage) -> LanguageRules:
    """The registered rules of `key`; a Set knows its language, so there is no default."""
    return LANGUAGE_RULES[key]
