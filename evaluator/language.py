"""The formula languages: one registered bundle per language.

A Set names its language (`rules.game_set.FormulaLanguage`); a `Language` bundles
everything that differs: its pure rules (`rules.languages.LanguageRules`: how its
numbers score and are shown, which functions a Set may name), its checker and its
sandboxed runner (the worker program the pool runs, locally and in Docker). Nothing
outside the registration asks which language it is (DESIGN.md, "Languages";
docs/ARCHITECTURE.md, "Formula languages"). PHP is the first, JavaScript (real node)
the second.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final, Protocol

from evaluator.check import check as check_php
from evaluator.js_check import check as check_javascript
from evaluator.sandbox.program import NODE, PHP, WorkerProgram
from rules.game_set import FormulaLanguage
from rules.languages import LANGUAGE_RULES, LanguageRules, each_language
from rules.scoring import Number


class Language(Protocol):
    rules: LanguageRules  # the pure part: numbers, functions, label (in `rules`)
    program: WorkerProgram  # the worker the pool runs, in bubblewrap or Docker

    def check(self, formula: str, digits: str, functions: Iterable[str]) -> str:
        """The normalized formula if it may run, else FormulaError (never runs anything)."""
        ...

    # read through from `rules`, for the callers that hold the bundle
    @property
    def key(self) -> FormulaLanguage: ...

    @property
    def label(self) -> str: ...

    @property
    def implied(self) -> bool: ...

    @property
    def default_functions(self) -> tuple[str, ...]: ...

    def show(self, value: Number) -> str: ...

    def echo(self, value: Number) -> str: ...

    def type_name(self, value: Number) -> str: ...

    def json_number(self, value: Number) -> str: ...


class _Bundle:
    """The parts every language has the same way: read through from its rules."""

    rules: LanguageRules

    @property
    def key(self) -> FormulaLanguage:
        return self.rules.key

    @property
    def label(self) -> str:
        return self.rules.label

    @property
    def implied(self) -> bool:
        return self.rules.implied

    @property
    def default_functions(self) -> tuple[str, ...]:
        return self.rules.functions.defaults

    def show(self, value: Number) -> str:
        return self.rules.show(value)

    def echo(self, value: Number) -> str:
        return self.rules.echo(value)

    def type_name(self, value: Number) -> str:
        return self.rules.type_name(value)

    def json_number(self, value: Number) -> str:
        return self.rules.json_number(value)


class Php(_Bundle):
    rules = LANGUAGE_RULES[FormulaLanguage.PHP]
    program = PHP
    check = staticmethod(check_php)
    """The checker itself, not a method around it: called once per formula."""


class JavaScript(_Bundle):
    rules = LANGUAGE_RULES[FormulaLanguage.JAVASCRIPT]
    program = NODE

    def check(self, formula: str, digits: str, functions: Iterable[str]) -> str:
        return check_javascript(formula, digits, functions)


LANGUAGES: Final[Mapping[FormulaLanguage, Language]] = each_language(Php(), JavaScript())
"""The registration of every language's bundle (its rules from `rules.languages`)."""


def language(key: FormulaLanguage | str) -> Language:
    """The registered bundle of `key` (ValueError for an unknown name); no default: a Set
    knows its language."""
    if isinstance(key, FormulaLanguage):  # the common call: no enum lookup by value
        return LANGUAGES[key]
    return LANGUAGES[FormulaLanguage(key)]
