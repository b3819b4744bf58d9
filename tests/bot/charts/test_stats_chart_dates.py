"""/stats' chart: the games fill the width and the axis names when they were played in
labels chosen for the span -- times for one day, days within a year, months beyond --
never one label twice (issue 21: three games of one day read "1 Jan", "1 Jan" over a
mostly empty plot)."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime

import pytest
from matplotlib.figure import Figure

from bot.charts import GameKind, StatsChartInput, StatsGame, build_stats_figure
from rules import FormulaLanguage
from tests.support.played import START

DAY = 86_400.0
KINDS = (GameKind.PERFECT, GameKind.CHECKOUT, GameKind.FINISHED, GameKind.LOST)


def games(count: int, every: float, start: float = START + 14 * 3600) -> StatsChartInput:
    """`count` games `every` seconds apart from 30 Nov 2025 14:00 UTC, of every kind."""
    return StatsChartInput(
        tuple(
            StatsGame(
                start + i * every,
                KINDS[i % 4],
                4 + i % 3,
                0 if i % 4 < 2 else 120,
                501,
                FormulaLanguage.PHP,
            )
            for i in range(count)
        )
    )


def drawn(data: StatsChartInput, locale: str = "en") -> Figure:
    figure = build_stats_figure(data, locale)
    figure.canvas.draw()
    return figure


def labels(figure: Figure) -> list[str]:
    return [t.get_text() for t in figure.axes[-1].get_xticklabels() if t.get_text()]


def caption(figure: Figure) -> list[str]:
    return [t.get_text() for ax in figure.axes for t in ax.texts if t.get_gid() == "date"]


@pytest.mark.parametrize(
    ("locale", "day"), [("en", "30 Nov 2025 · UTC"), ("uk", "30 лист. 2025 · UTC")]
)
def test_games_of_one_day_are_told_apart_by_their_time(locale: str, day: str) -> None:
    figure = drawn(games(3, 600), locale)
    assert labels(figure) == ["14:00", "14:10", "14:20"]
    assert caption(figure) == [day]


def test_the_games_fill_the_width() -> None:
    figure = drawn(games(3, 600))
    low, high = figure.axes[-1].get_xlim()
    assert high - low <= 3 + 1.2  # three slots and their margins, not ten


def test_days_within_a_year_are_named_once_under_their_first_game() -> None:
    data = games(12, 8 * 3600)  # every 8 hours from 30 Nov 14:00 to 4 Dec 06:00
    figure = drawn(data)
    ticks = [round(x) for x in figure.axes[-1].get_xticks()]
    assert labels(figure) == ["1 Dec", "2 Dec", "3 Dec", "4 Dec"]  # 30 Nov: too near 1 Dec
    assert ticks == [3, 6, 9, 12]  # each day's first game, at 06:00
    days = [datetime.fromtimestamp(g.played_at, UTC).date() for g in data.games]
    assert all(days[x - 2] < days[x - 1] for x in ticks)
    assert caption(figure) == []


def test_beyond_a_year_the_months_are_named() -> None:
    found = labels(drawn(games(30, 20 * DAY), "uk"))
    assert found and all(label.endswith(("2025", "2026", "2027")) for label in found)
    assert len(set(found)) == len(found)


@pytest.mark.parametrize(("count", "every"), [(30, 600), (30, 5 * 3600), (30, 20 * DAY), (2, DAY)])
@pytest.mark.parametrize("locale", ["en", "uk"])
def test_no_label_is_repeated_cut_or_on_another(count: int, every: float, locale: str) -> None:
    figure = drawn(games(count, every), locale)
    renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
    texts = [t for t in figure.axes[-1].get_xticklabels() if t.get_text()]
    assert len({t.get_text() for t in texts}) == len(texts) >= 2
    boxes = sorted((t.get_window_extent(renderer) for t in texts), key=lambda b: b.x0)
    width = figure.bbox.width
    assert all(box.x0 >= 0 and box.x1 <= width for box in boxes)
    assert all(a.x1 < b.x0 for a, b in itertools.pairwise(boxes))
