"""Words and numbers that code glues into a message read right in the reader's language."""

from __future__ import annotations

import pytest

from bot.games._render import thread_name
from bot.i18n import decimal_text, describe_eval_error
from bot.leaderboards._render import qualification_embed
from bot.leaderboards._render_player import stats_embed
from bot.storage import LeaderRow, PlayerStats
from bot.views import BoardPeriod
from evaluator.result import ErrorCode, EvalError
from rules import FormulaLanguage, Mode


def digits_error(read: str) -> EvalError:
    return EvalError(ErrorCode.DIGITS, "x", 1, params=(("read", read), ("digits", "3489")))


@pytest.mark.parametrize(
    ("read", "uk", "en"),
    [
        ("4,3", "у формулі цифри 4 і 3, а Число раунду — 3489.", "are 4 and 3, but"),
        ("3,4,8", "у формулі цифри 3, 4 і 8,", "are 3, 4, and 8, but"),
        ("3,4,8,9,9", "цифри 3, 4, 8, 9 і 9,", "are 3, 4, 8, 9, and 9, but"),
        ("none", "у формулі немає жодної цифри, а Число раунду — 3489.", "has no digits, but"),
        ("43", "у формулі цифри 4 і 3,", "are 4 and 3, but"),
    ],
)
def test_the_digits_read_are_a_list_never_a_decimal_or_english(read: str, uk: str, en: str) -> None:
    ukrainian = describe_eval_error(digits_error(read), "uk", lang=FormulaLanguage.PHP)
    assert uk in ukrainian
    assert "4,3" not in ukrainian and "none" not in ukrainian
    assert en in describe_eval_error(digits_error(read), "en", lang=FormulaLanguage.PHP)


def test_a_duel_thread_is_named_in_the_readers_language() -> None:
    """A match as Ukrainian writes one, «Оля — Тарас»: a name cannot be declined in code."""
    assert thread_name(Mode.DUEL, ["Оля", "Тарас"], "darts", "uk") == (
        "Онлайн-дуель · Оля — Тарас · darts"
    )
    assert " vs " not in thread_name(Mode.DUEL, ["a", "b"], "darts", "uk")
    assert thread_name(Mode.DUEL, ["a", "b"], "darts", "en") == "Online Duel · a vs b · darts"
    assert thread_name(Mode.TRAINING, ["a"], "darts", "uk") == "Тренування · a · darts"


def test_measured_numbers_use_the_readers_decimal_mark() -> None:
    assert decimal_text(12.34, "uk") == "12,3" and decimal_text(12.34, "en") == "12.3"
    row = LeaderRow(1, 5, "g", "darts", "2026-01-01", 0, 4, 0.0, 12.34, True, "checkout")
    board = (
        qualification_embed(
            [row], "darts", BoardPeriod.TODAY, 0, "uk", lang=FormulaLanguage.PHP
        ).description
        or ""
    )
    assert board.endswith("· 12,3\u00a0с")
    stats = stats_embed(
        PlayerStats(5, 1, rounds=12, avg_points=52.25), "a", "uk", best_language=FormulaLanguage.PHP
    )
    average = next(f.value for f in stats.fields if f.name == "Середня кількість Балів за раунд")
    assert average == "52,3 (зіграно 12\u00a0раундів)"


@pytest.mark.parametrize(
    ("text", "uk"),
    [
        ("**", "Степінь — це `pow(x, y)`."),
        ("--", "Розділіть їх пробілом: `3- -4`."),
        ("//", "так у PHP починається коментар."),
        ("->", "`->` у позиції 2 не дозволено."),
    ],
)
def test_a_refused_operator_says_what_to_write_instead(text: str, uk: str) -> None:
    error = EvalError(
        ErrorCode.FORBIDDEN, "x", 2, text, params=(("reason", "operator"), ("column", "2"))
    )
    assert uk in describe_eval_error(error, "uk", lang=FormulaLanguage.PHP)
