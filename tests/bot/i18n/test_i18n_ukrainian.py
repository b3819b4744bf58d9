"""Ukrainian as a Ukrainian writes it: no masculine-only forms, «ви», typography."""

from __future__ import annotations

import re

import pytest

from tests.bot.i18n.i18n_texts import texts

MASCULINE_ONLY = (
    "здався", "здалася", "здалась", "хто здався", "обидва", "запросив", "досяг", "переміг",
    "програв", "виграв", "відповів", "прийняв", "відхилив", "використав", "зіграв", "викликав",
    "викликаний", "встиг", "не встиг", "завершив", "почав", "надіслав", "готовий", "сам",
    "перший", "впевнені?", "здав", "дійшов",
)  # fmt: skip
"""Past tenses and adjectives that guess the player is a man; the player's gender is unknown."""

INFORMAL = ("ти", "тобі", "тебе", "твій", "твоя", "твоє", "твої", "зроби", "натисни", "спробуй")
"""The bot says «ви» throughout."""

UNITS = (
    "с", "хв", "год", "день", "дні", "днів", "дня", "байт", "байти", "байтів", "байта",
    "символ", "символи", "символів", "символу", "раунд", "раунди", "раундів", "раунду",
    "спроба", "спроби", "спроб", "рівень", "рівні", "рівнів", "рівня", "гра", "гри", "ігор",
    "Сет", "Сети", "Сетів", "Сету", "проблема", "проблеми", "проблем", "бал", "бали", "балів",
    "бала", "секунд", "дужку", "дужки", "дужок",
)  # fmt: skip
NUMBER = r"(?:\d|\{[a-z_]+(?::,)?\})"
PLAIN_SPACE_BEFORE_UNIT = re.compile(NUMBER + r" (?:" + "|".join(UNITS) + r")(?![\w])")


def word(form: str) -> re.Pattern[str]:
    return re.compile(r"(?<![\w])" + re.escape(form) + r"(?![\w])", re.IGNORECASE)


def found(forms: tuple[str, ...]) -> list[str]:
    return [
        f"{where}: {form}"
        for where, text in texts("uk")
        for form in forms
        if word(form).search(text)
    ]


def test_no_masculine_only_forms() -> None:
    assert found(MASCULINE_ONLY) == []


def test_the_player_is_always_vy() -> None:
    assert found(INFORMAL) == []


def test_the_checks_find_what_they_look_for() -> None:
    assert word("здався").search("Гравець здався в раунді 3")
    assert not word("сам").search("те саме Число")
    assert PLAIN_SPACE_BEFORE_UNIT.search("по {time} с")
    assert PLAIN_SPACE_BEFORE_UNIT.search("7 днів")
    assert PLAIN_SPACE_BEFORE_UNIT.search("{size:,} байт")
    assert not PLAIN_SPACE_BEFORE_UNIT.search("7\u00a0днів, раунд 3 з 7")


def test_a_number_and_its_unit_never_break_apart() -> None:
    bad = [
        f"{where}: {match.group(0)!r}"
        for where, text in texts("uk")
        for match in PLAIN_SPACE_BEFORE_UNIT.finditer(text)
    ]
    assert bad == []


@pytest.mark.parametrize("language", ["uk"])
def test_apostrophes_quotes_and_formulas(language: str) -> None:
    problems = []
    for where, text in texts(language):
        if re.search(r"[\w]'[\w]|’", text):
            problems.append(f"{where}: an ASCII or typographic apostrophe, not ʼ")
        outside_code = re.sub(r"```.*?```|`[^`]*`", "", text, flags=re.DOTALL)
        if "'" in outside_code or '"' in outside_code:
            problems.append(f"{where}: ASCII quotes outside code")
        for quoted in re.findall(r"«([^»]*)»", text):
            if "`" in quoted or re.search(r"\d\s*[-+*/%^&|<>]\s*\d", quoted):
                problems.append(f"{where}: a formula in «»: {quoted}")
    assert problems == []


def test_the_dash_is_a_dash() -> None:
    """Ukrainian puts «—» between subject and predicate («`^` — це XOR»), never « - »."""
    bad = [
        where
        for where, text in texts("uk")
        if re.search(r"\s-\s", re.sub(r"```.*?```|`[^`]*`", "", text, flags=re.DOTALL))
    ]
    assert bad == []
