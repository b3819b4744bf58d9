"""The daily post's embed from a hand-made summary, in Ukrainian: plural forms, the
Goal's name from the glossary, no solver lines without a solver."""

from __future__ import annotations

from bot.daily import DailyContent
from bot.daily._render import daily_embed, daily_view
from bot.storage import LeaderRow, PeriodSummary, RoundBest
from rules import FormulaLanguage
from solver.result import Candidate


def content(closest: dict[str, Candidate | None] | None) -> DailyContent:
    row = LeaderRow(
        rank=1, user_id=5, game_id="g" * 32, set_name="darts", period="2026-01-01",
        rank_class=0, rounds=4, score=0.0, answer_time=41.5, perfect=True, termination="checkout",
    )  # fmt: skip
    best = RoundBest(1, "3489", 5, "34+89", "123", 123.0)
    summary = PeriodSummary([row], players=22, perfects=1, rounds=[best])
    return DailyContent(7, "darts", "2026-01-01", summary, closest, "uk", FormulaLanguage.PHP)


def test_the_ukrainian_post_reads_as_written_in_ukrainian() -> None:
    found = Candidate("3*4+89-1", 100, 150, 351, 8)
    embed = daily_embed(content({"3489": found}))
    assert embed.title == "Кваліфікація · darts · 1 січня 2026\u202fр.: підсумкова таблиця"
    assert "У таблиці 22\u00a0гравці" in (embed.description or "")
    assert "⭐ Супер-ігор: 1" in (embed.description or "")
    [field] = embed.fields
    assert field.name == "Раунд 1: 3489"
    assert (
        field.value
        == "Найкраща відповідь: `34+89` = 123 (<@5>)\nНайближче до Цілі: `3*4+89-1` = 100"
    )
    [button] = daily_view(content(None)).children
    assert button.item.label == "Зіграти сьогоднішню Кваліфікацію"  # type: ignore[attr-defined]


def test_without_a_solver_there_is_no_closest_line() -> None:
    [field] = daily_embed(content(None)).fields
    assert "Цілі" not in field.value  # type: ignore[operator]


def test_an_empty_board_says_so_once() -> None:
    """Nobody on the board: no «У таблиці 0 гравців», no «Супер-ігор: 0» after it."""
    summary = PeriodSummary([], players=0, perfects=0, rounds=[])
    embed = daily_embed(
        DailyContent(7, "darts", "2026-01-01", summary, None, "uk", FormulaLanguage.PHP)
    )
    assert embed.description == "Цього дня в цю Кваліфікацію ніхто не грав."
