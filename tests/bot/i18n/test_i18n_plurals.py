"""Plural forms come from CLDR (Babel) and every counted noun agrees with its number."""

from __future__ import annotations

from decimal import Decimal

import pytest
from babel import Locale

from bot.i18n import catalog, plural_categories, plural_category, t
from bot.i18n._catalog import PLURAL_KEY

NUMBERS = (0, 1, 2, 4, 5, 11, 12, 14, 21, 22, 25, 101, 111, 1.5, 2.5, 436.5)
LANGUAGES = ("en", "uk")


def plural_messages() -> list[tuple[str, str, dict[str, str]]]:
    book = catalog()
    return [
        (key, language, text)
        for key, texts in sorted(book.messages.items())
        for language, text in texts.items()
        if isinstance(text, dict)
    ]


def cldr(language: str, number: float) -> str:
    """CLDR's category straight from Babel, for the number as Python prints it."""
    return str(Locale.parse(language).plural_form(Decimal(str(number))))


@pytest.mark.parametrize("language", LANGUAGES)
def test_categories_are_cldrs(language: str) -> None:
    for number in NUMBERS:
        assert plural_category(language, number) == cldr(language, number), number
        assert plural_category(language, str(number)) == cldr(language, number), number


def test_ukrainian_numbers_take_the_forms_a_reader_expects() -> None:
    expected = {1: "one", 21: "one", 101: "one", 2: "few", 4: "few", 22: "few", 0: "many"}
    expected |= {5: "many", 11: "many", 12: "many", 14: "many", 25: "many", 111: "many"}
    for number, category in expected.items():
        assert plural_category("uk", number) == category
    for fraction in (1.5, 2.5, 436.5, "436.5", "1,5", Decimal("1.0")):
        assert plural_category("uk", fraction) == "other"
    assert plural_categories("uk") == {"one", "few", "many", "other"}
    assert plural_categories("en") == {"one", "other"}
    assert plural_category("uk", "NAN") == plural_category("uk", True) == "other"


def test_every_plural_message_has_each_category_of_its_language() -> None:
    problems = []
    for key, language, forms in plural_messages():
        missing = sorted(plural_categories(language) - set(forms))
        extra = sorted(set(forms) - plural_categories(language) - {PLURAL_KEY})
        if missing or extra:
            problems.append(f"{key} {language}: missing {missing}, unknown {extra}")
    assert plural_messages(), "no plural message found"
    assert problems == []


@pytest.mark.parametrize("number", NUMBERS)
def test_every_plural_message_renders_cldrs_form(number: float) -> None:
    """The text for each number is the form CLDR names, with the number in it."""
    book = catalog()
    for key, language, forms in plural_messages():
        counted = forms.get(PLURAL_KEY, "count")
        names = {name for name in book.placeholders(key, language) if not name.startswith("/")}
        params = dict.fromkeys(names, 7) | {counted: number}
        rendered = t(key, language, **params)
        form = book.commands_in(forms[cldr(language, number)], language, escape=True)
        assert rendered == form.format(**params), (key, language)
        assert str(number) in rendered, (key, language)


@pytest.mark.parametrize(
    ("key", "params", "uk"),
    [
        ("eval.too_long.nesting", {"limit": 32, "column": 40}, "на 32\u00a0рівні ("),
        ("sets_admin.problem.name_too_long", {"max": 32}, "32\u00a0символи."),
        ("sets_admin.error.file_too_big", {"size": 70002, "max": 65536}, "70\u00a0002\u00a0байти,"),
        ("errors.qualification_used", {"attempts": 21, "set": "darts"}, "21\u00a0спроба на день"),
        ("games.outcome.checkout", {"rounds": 101}, "за 101\u00a0раунд:"),
        (
            "leaderboards.qualification.finished",
            {"rounds": 2, "score": 1.5},
            "після 2\u00a0раундів",
        ),
        ("duel.outcome.max_rounds", {"rounds": 111}, "зіграно 111\u00a0раундів,"),
        ("sets_admin.exported", {"count": 1.5}, "1.5\u00a0Сету"),
    ],
)
def test_counted_nouns_read_right(key: str, params: dict[str, object], uk: str) -> None:
    assert uk in t(key, "uk", **params)


def test_the_one_form_reads_like_the_others() -> None:
    """21 takes "one": that form may not drop what the others say (issue 14)."""
    perfect = {n: t("games.outcome.perfect", "uk", min_rounds=n) for n in (21, 22, 25)}
    assert all(f"не пізніше ніж у раунді {n}." in text for n, text in perfect.items())
    used = t("errors.qualification_used", "uk", attempts=21, set="darts")
    assert "сьогоднішню спробу" not in used and "(21 на день)" not in used
