"""Numbers in the reader's language: which plural form one takes, how a decimal is written.

A language is a catalog column and nothing else: Babel knows its categories
(English one/other; Ukrainian one/few/many/other, "other" being the form of
fractions: 1,5 раунду). The category is that of the number as the reader sees
it, so a parameter is read from its text: "436.5" and the float 1.0 ("1.0")
are fractions, the int 1 is "one".
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from functools import cache

from babel import Locale
from babel.numbers import format_decimal
from babel.plural import PluralRule

OTHER = "other"


@cache
def _rule(language: str) -> PluralRule:
    return Locale.parse(language).plural_form


def plural_categories(language: str) -> frozenset[str]:
    """Every category `language` has ("other" always among them)."""
    return _rule(language).tags | {OTHER}


def _number(value: object) -> int | Decimal | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    text = str(value).strip().replace("\u00a0", "").replace(" ", "").replace(",", ".")
    try:
        number = Decimal(text)
    except InvalidOperation:
        return None
    return number if number.is_finite() else None


def plural_category(language: str, count: object) -> str:
    """The CLDR category of `count` as it is shown ("other" for what is not a number)."""
    number = _number(count)
    if number is None:
        return OTHER
    return str(_rule(language)(-number if number < 0 else number))


GROUPED_FROM = 10_000
"""Four-digit numbers stay whole (1024 символи), as Ukrainian typography writes them in
running text; CLDR would group them for uk too (1 024)."""


def grouped_text(value: object, language: str) -> str:
    """A whole number from 10 000 on with its digits grouped as the reader groups them
    (Babel: 65,536; uk 65 536 with a no-break space); anything else (a smaller number,
    a fraction, a word) as it is."""
    number: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif (text := str(value).strip()).removeprefix("-").isdigit() and text.isascii():
        number = int(text)
    if number is None or abs(number) < GROUPED_FROM:
        return str(value)
    return format_decimal(number, locale=language)


def decimal_text(value: float, language: str, places: int = 1) -> str:
    """A measured number (seconds, an average) as the reader writes it: 12.3, 12,3.

    Not for what PHP computed (Results, Points, Scores): those read as PHP prints them.
    Rounded half up on the number as it prints (125.25 reads 125.3), as players round.
    """
    exact = Decimal(repr(float(value)))
    shown = (
        exact.quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP) if exact.is_finite() else exact
    )
    return format_decimal(shown, format="0." + "0" * places, locale=language)
