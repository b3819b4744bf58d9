"""The catalog is complete in both languages and every key the code uses exists."""

from __future__ import annotations

import re

import discord
import pytest

from bot.i18n import catalog, describe_eval_error, t
from bot.i18n.translator import CatalogTranslator, cmd
from bot.rules_text import rules_pages
from evaluator.result import ErrorCode, EvalError
from rules import FormulaLanguage
from tests.support.paths import ROOT

NAME = re.compile(r"^[-_\w]{1,32}$")


def test_every_message_has_both_languages_with_the_same_placeholders() -> None:
    book = catalog()
    problems = []
    for key, texts in book.messages.items():
        if set(texts) != {"en", "uk"}:
            problems.append(f"{key}: languages {sorted(texts)}")
        elif book.placeholders(key, "en") - {"error_class"} != book.placeholders(key, "uk") - {
            "error_class"  # the engine's class: English quotes it; a full translation needn't
        }:
            problems.append(f"{key}: placeholders differ")
    assert problems == []


def test_every_key_used_in_the_code_exists() -> None:
    book = catalog()
    used: set[str] = set()
    for file in (ROOT / "bot").rglob("*.py"):
        text = file.read_text(encoding="utf-8")
        used.update(re.findall(r'\bt\(\s*"([a-z_.]+)"', text))
        used.update(f"commands.{k}" for k in re.findall(r'\bcmd\(\s*"([a-z_.]+)"', text))
    assert used, "no keys found: the pattern is out of date"
    assert sorted(k for k in used if k not in book.messages) == []


def test_placeholders_stay_visible_instead_of_crashing() -> None:
    assert "{number}" in t("games.round.title", "en", mode="Training")
    assert t("no.such.key", "uk") == "no.such.key"
    assert t("games.field.digits", "fr") == "Digits"


async def test_translator_gives_valid_ukrainian_command_names() -> None:
    translator = CatalogTranslator()
    for key in ("training", "qualification", "duel", "answer", "resign", "rules", "sets"):
        name = await translator.translate(
            cmd(f"{key}.name", key),
            discord.Locale.ukrainian,
            None,  # type: ignore[arg-type]
        )
        assert name and NAME.match(name) and name == name.lower()
    english = await translator.translate(
        cmd("training.name", "training"),
        discord.Locale.american_english,
        None,  # type: ignore[arg-type]
    )
    assert english is None


@pytest.mark.parametrize(
    ("error", "uk_part"),
    [
        (
            EvalError(ErrorCode.DIGITS, "x", 1, params=(("read", "4,3"), ("digits", "3489"))),
            "4 і 3",
        ),
        (
            EvalError(ErrorCode.FORBIDDEN, "x", 2, "$", params=(("reason", "char"),)),
            "символ `$` у позиції 2",
        ),
        (
            EvalError(ErrorCode.SYNTAX, "unexpected '--'", error_class="ParseError"),
            "PHP повідомляє англійською (ParseError): unexpected '--'",
        ),
        (
            EvalError(ErrorCode.PHP, "Division by zero", error_class="DivisionByZeroError"),
            "PHP повідомляє про ділення на нуль.",
        ),
        (EvalError(ErrorCode.TIMEOUT, "slow"), "надто довго"),
    ],
)
def test_formula_errors_are_translated(error: EvalError, uk_part: str) -> None:
    assert uk_part in describe_eval_error(error, "uk", lang=FormulaLanguage.PHP)
    assert describe_eval_error(error, "en", lang=FormulaLanguage.PHP)


def test_rules_text_in_both_languages_fits_discord() -> None:
    for locale in ("en", "uk"):
        pages = rules_pages(locale, FormulaLanguage.PHP)
        assert len(pages) >= 4
        assert sum(len(title) + len(text) for title, text in pages) < 6000
    assert "Perfect" in rules_pages("en", FormulaLanguage.PHP)[1][1]
    assert "Супер-гра" in rules_pages("uk", FormulaLanguage.PHP)[1][1]


def test_keys_built_at_runtime_exist() -> None:
    import rules

    book = catalog()
    needed = [f"games.mode.{mode.value}" for mode in rules.Mode]
    needed += [f"games.outcome.{term.value}" for term in rules.Termination]
    needed += ["games.started.training", "games.started.qualification"]
    needed += [f"sets.origin.{origin}" for origin in ("global", "server")]
    needed += [f"errors.{code}" for code in ("busy", "late", "not_a_player", "no_game")]
    needed += [f"eval.{code.value}" for code in ErrorCode]
    assert [key for key in needed if key not in book.messages] == []
