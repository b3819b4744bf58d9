"""Scoring asks the Set's language: each registered language scores in its own arithmetic,
reached through the one registration (the evaluator's bundle holds the same rules)."""

from __future__ import annotations

import dataclasses

import pytest

from evaluator.language import LANGUAGES, language
from rules.game_set import CLASSIC, FormulaLanguage, GameSet
from rules.languages import LANGUAGE_RULES, language_rules
from rules.scoring import apply_points

JS_CLASSIC = dataclasses.replace(CLASSIC, language=FormulaLanguage.JAVASCRIPT)


def test_every_language_is_registered_once_and_bundled_with_its_rules() -> None:
    assert set(LANGUAGE_RULES) == set(FormulaLanguage) == set(LANGUAGES)
    for key in FormulaLanguage:
        assert language_rules(key).key is key
        assert language(key).rules is language_rules(key)


def test_a_set_reaches_its_languages_rules() -> None:
    assert CLASSIC.language_rules is language(FormulaLanguage.PHP).rules
    assert JS_CLASSIC.language_rules is language(FormulaLanguage.JAVASCRIPT).rules


@pytest.mark.parametrize(
    ("game_set", "points", "score"),
    [(CLASSIC, 77, 424), (JS_CLASSIC, 77.0, 424.0)],
)
def test_the_rules_table_in_each_language(game_set: GameSet, points: float, score: float) -> None:
    """PHP keeps ints; JavaScript has one number type, a double, at every step."""
    got = apply_points(501, 123, 100, 50, numbers=language(game_set.language).rules)
    assert got == (points, score)
    assert [type(v) for v in got] == [type(points), type(score)]


def test_past_two_to_the_53_php_counts_exactly_and_javascript_rounds() -> None:
    """2**53 + 1 is a PHP int; in JavaScript it is the double 2**53."""
    big = 2**53 + 1
    php = apply_points(big + 100, 100, 100, 0, numbers=CLASSIC.language_rules)
    js = apply_points(big + 100, 100, 100, 0, numbers=JS_CLASSIC.language_rules)
    assert php == (100, big)
    assert js == (100.0, float(2**53))


def test_each_language_shows_a_whole_double_its_own_way() -> None:
    assert language_rules(FormulaLanguage.PHP).show(100.0) == "100.0"
    assert language_rules(FormulaLanguage.PHP).echo(1e25) == "1.0E+25"
    assert language_rules(FormulaLanguage.JAVASCRIPT).show(100.0) == "100"
    assert language_rules(FormulaLanguage.JAVASCRIPT).echo(1e25) == "1e+25"
