"""The web player page's Elo chart: one point before the first rated duel and one after
each, titled with the Elo now in the reader's language, dated under its slots."""

from __future__ import annotations

from typing import Any

from matplotlib.lines import Line2D
from matplotlib.text import Text

from bot.charts import DUELS_MAX, EloDuel, build_elo_figure, elo_input

DAY = 86_400.0
T0 = 1_767_225_600.0  # 1 January 2026


def _texts(figure) -> list[str]:
    figure.canvas.draw()  # the tick labels are laid out when drawn
    return [a.get_text() for a in figure.findobj(Text) if a.get_text()]


def test_the_line_runs_from_the_elo_before_the_first_duel_through_each_after() -> None:
    data = elo_input([(T0, 1000, 1016), (T0 + DAY, 1016, 1001), (T0 + 9 * DAY, 1001, 1019)])
    assert data is not None
    figure = build_elo_figure(data, "en")
    [line] = [a for a in figure.findobj(Line2D) if a.get_gid() == "elo"]
    ys: Any = line.get_ydata()  # a sequence of numbers: matplotlib types it loosely
    xs: Any = line.get_xdata()
    assert list(ys) == [1000, 1016, 1001, 1019]
    assert list(xs) == [0, 1, 2, 3]
    texts = _texts(figure)
    assert "Elo now: 1019" in texts
    assert any(text in texts for text in ("1 Jan", "Jan 1")), texts
    uk = _texts(build_elo_figure(data, "uk"))
    assert "Рейтинг Elo зараз: 1019" in uk
    assert any("січ" in text for text in uk), uk


def test_no_duel_is_no_chart_and_only_the_last_duels_are_drawn() -> None:
    assert elo_input([]) is None
    many = elo_input([(T0 + i, 1000 + i, 1001 + i) for i in range(DUELS_MAX + 5)])
    assert many is not None and len(many.duels) == DUELS_MAX
    assert many.duels[0] == EloDuel(T0 + 5, 1005, 1006)
