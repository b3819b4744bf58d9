"""Numbers rounded for reading, with the exact value a hover away.

A Score like 98.99021207177815 is exact (the game plays it so) but unreadable in a table:
the page shows 98.99 and keeps the exact value in the element's `title`. Whole numbers
and short decimals are shown as they are.
"""

from __future__ import annotations

import math

from markupsafe import Markup, escape

from bot.common import fmt
from rules import FormulaLanguage, Number

SHORT = 8
"""A number printed in at most this many characters is read as it is."""


def rounded(value: Number, lang: FormulaLanguage) -> float | Number:
    """`value` as a page shows it: two decimals above 1, three significant digits below,
    four in a huge or tiny number's exponent form; unchanged when it already reads."""
    number = float(value)
    if len(fmt(value, lang)) <= SHORT or not math.isfinite(number) or number == 0:
        return value
    size = abs(number)
    if size >= 1e15 or size < 1e-6:
        return float(f"{number:.4g}")
    if size >= 1:
        return round(number, 2)
    return float(f"{number:.3g}")


def exact_on_hover(text: str, value: Number, lang: FormulaLanguage) -> Markup:
    """`text` (which shows `value` rounded) with the exact value as its title when they
    differ; plain escaped text when nothing was rounded."""
    exact = fmt(value, lang)
    if rounded(value, lang) == value:
        return escape(text)
    return Markup('<span title="{}">{}</span>').format(exact, text)


def number(value: Number, lang: FormulaLanguage) -> Markup:
    """A Result, Points or Score for a table cell: rounded, exact on hover."""
    return exact_on_hover(fmt(rounded(value, lang), lang), value, lang)
