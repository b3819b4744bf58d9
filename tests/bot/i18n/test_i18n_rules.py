"""/rules says the same things in both languages, and what issue 14 asked it to say."""

from __future__ import annotations

import re

import pytest

from bot.rules_text import rules_pages
from rules import FormulaLanguage

FACTS = [
    ("5&2 is 0", "`5&2` = 0", "`5&2` = 0"),
    ("the original table's mistake", "says 3 by mistake", "помилково написано 3"),
    (
        "the uncapped bounce",
        "from Score 50, `1234` → 1034 points → Score 984",
        "з Рахунку 50 формула `1234` дає 1034\u00a0бали → Рахунок 984",
    ),
    ("PHP's tokens", "`3--4` is refused: write `3- -4`", "`3--4` не пройде. Пишіть `3- -4`"),
    ("a single game resigned", "and so does resigning", "хто здається, той теж програє"),
    ("a duel resigned", "resigning gives the win to the opponent", "Хто здається, той програє."),
    ("more attempts", "unless the Set allows more", "якщо Сет не дозволяє більше"),
    (
        "private Qualification",
        "Until the day ends, nobody else sees your Digits or formulas",
        "Доки день не скінчиться, ваших Чисел і формул не бачить ніхто інший",
    ),
    (
        "the best answer",
        "It is shown after each round; in Qualification, once the day ends",
        "Її показують після кожного раунду, а в Кваліфікації — коли скінчиться день",
    ),
    ("tense", "try again until the round ends", "пробуєте знову, доки не скінчиться час раунду"),
    (
        "the best answer's tie-break (issue 33)",
        "the most readable: the fewest function calls, then the fewest unary minuses, then the"
        " shortest",
        "найзрозуміліша: з найменшою кількістю викликів функцій, далі — унарних мінусів, далі —"
        " найкоротша",
    ),
]
CODE = re.compile(r"`[^`\n]+`")


def text(locale: str) -> str:
    return "\n".join(f"{title}\n{body}" for title, body in rules_pages(locale, FormulaLanguage.PHP))


@pytest.mark.parametrize(("fact", "en", "uk"), FACTS)
def test_both_languages_say_it(fact: str, en: str, uk: str) -> None:
    assert en in text("en"), fact
    assert uk in text("uk"), fact


def test_same_pages_same_formulas() -> None:
    """Both languages have the same pages and quote the same formulas."""
    en, uk = rules_pages("en", FormulaLanguage.PHP), rules_pages("uk", FormulaLanguage.PHP)
    assert len(en) == len(uk)
    for (_, en_body), (_, uk_body) in zip(en, uk, strict=True):
        en_code = CODE.findall(re.sub(r"```.*?```", "", en_body, flags=re.DOTALL))
        uk_code = CODE.findall(re.sub(r"```.*?```", "", uk_body, flags=re.DOTALL))
        assert sorted(set(en_code)) == sorted(set(uk_code))
    assert "5&2 = 3" not in text("uk") and "здався" not in text("uk")
