"""Small text pieces every message uses: numbers as the Set's language prints them,
mentions, times, cut text, code."""

from __future__ import annotations

import rules
from rules.game_set import FormulaLanguage
from rules.languages import language_rules

ECHO_MAX = 60
"""A refused formula is echoed back this short: the player knows what they typed."""


def fmt(value: rules.Number, lang: FormulaLanguage) -> str:
    """A Result, Points or a Score exactly as the Set's language prints it
    (`LanguageRules.echo`: the registration's pure part, no evaluator needed).

    PHP: as PHP 8 echoes it with precision=-1, without var_export's ".0" on whole
    floats, so a whole Score reads 274 whether a float or an int (the boards store
    Scores as floats and could not tell the two apart). JavaScript: `String(x)`.
    The language is required: a message that forgot it would show a JavaScript game in
    PHP's digits (tests/bot/languages/test_no_php_default.py).
    """
    return language_rules(lang).echo(value)


def language_label(lang: FormulaLanguage) -> str:
    """The language's own name ("PHP", "JavaScript"), the same in every reader's language."""
    return language_rules(lang).label


def set_label(name: str, lang: FormulaLanguage) -> str:
    """A Set's name as boards, stats, the daily post and the web pages title it, with its
    language beside it ("js-darts · JavaScript"). A Set in the original rules' language
    (PHP, every Set's default) reads as its name alone, as it always did."""
    if language_rules(lang).implied:
        return name
    return f"{name} · {language_label(lang)}"


def shorten(text: str, limit: int = ECHO_MAX) -> str:
    """`text` whole, or its start with an ellipsis: never longer than `limit` (at least 1)."""
    if len(text) <= limit:
        return text
    return text[: max(0, limit - 1)] + "…"


def mention(user_id: int | str) -> str:
    return f"<@{user_id}>"


def timestamp(moment: float, style: str = "R") -> str:
    """A Discord timestamp: every reader sees it in their own time zone and language."""
    return f"<t:{int(moment)}:{style}>"


CODE_MAX = 100
"""User text shown as inline code (a name, a file's key) is cut this short."""


def code(text: str, limit: int = CODE_MAX) -> str:
    """User text as inline code that a backtick in it cannot break out of."""
    return "`" + shorten(text.replace("`", "ˋ"), limit) + "`"
