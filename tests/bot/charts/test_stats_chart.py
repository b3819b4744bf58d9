"""/stats' chart: its input built from stored games, and its panels read back from the Figure."""

from __future__ import annotations

import dataclasses

import pytest
from matplotlib.axes import Axes
from matplotlib.figure import Figure

import rules
from bot.charts import (
    GameKind,
    StatsChartInput,
    StatsGame,
    build_stats_figure,
    stats_chart,
    stats_input,
)
from bot.storage import GameRecord
from tests.support.played import BOUNCING, PERFECT, START, play

PHP = rules.FormulaLanguage.PHP
DAY = 86_400.0
SIX_ROUND_CHECKOUT = [
    ("3489", [("34+89", 123)]),  # 424
    ("1234", [("1+2+3+4", 10)]),  # 414
    ("2476", [("2*47+6", 100)]),  # 264
    ("2476", [("2*47+6", 100)]),  # 114
    ("2476", [("2*47+6", 100)]),  # |114 - 150| = 36
    ("3600", [("36+0+0", 36)]),  # 0
]
TIMEOUT = [*PERFECT[:2], ("9010", [None])]
DUEL_LOST = [
    ("3489", [("34+89", 123), ("3*4+89", 101)]),  # 424 | 402
    ("1000", [("1000", 1000), ("100+0*0", 100)]),  # |424 - 800| = 376 | 252
    ("4520", [("4*5+20", 40), ("452+0", 452)]),  # 336 | 0: player 2 wins
]


def on_day(record: GameRecord, day: int) -> GameRecord:
    return dataclasses.replace(record, created_at=START + day * DAY + 3600)


def test_the_input_keeps_the_players_finished_games_oldest_first() -> None:
    running = play(PERFECT[:2])
    assert running.state.outcome is None
    records = [
        on_day(play(TIMEOUT), 3),  # type: ignore[arg-type]
        on_day(play(PERFECT), 1),
        on_day(running, 4),
        on_day(play(BOUNCING), 2),
        on_day(play(SIX_ROUND_CHECKOUT), 0),
    ]
    data = stats_input(records, 111)
    assert [(g.kind, g.rounds, g.score) for g in data.games] == [
        (GameKind.CHECKOUT, 6, 0),
        (GameKind.PERFECT, 4, 0),
        (GameKind.FINISHED, 7, 335),
        (GameKind.LOST, 3, 274),
    ]
    assert [g.played_at for g in data.games] == [START + d * DAY + 3600 for d in range(4)]
    assert stats_input(records, 999).games == ()


def test_a_duel_is_seen_from_the_players_side() -> None:
    record = play(DUEL_LOST, mode=rules.Mode.DUEL)
    assert record.state.outcome is not None
    assert record.state.outcome.winner == 1
    (loser,) = stats_input([record], "111").games
    (winner,) = stats_input([record], "222").games
    assert (loser.kind, loser.score) == (GameKind.LOST, float(record.state.scores[0]))
    assert (winner.kind, winner.score, winner.rounds) == (GameKind.PERFECT, 0, 3)


def test_only_the_last_thirty_games_are_kept() -> None:
    records = [on_day(play(PERFECT if d % 2 else TIMEOUT), d) for d in range(34)]  # type: ignore[arg-type]
    games = stats_input(records, "111").games
    assert len(games) == 30
    assert games[0].played_at == START + 4 * DAY + 3600
    assert games[-1].played_at == START + 33 * DAY + 3600


def titles_of(ax: Axes) -> list[str]:
    return [text.get_text() for text in ax.texts if text.get_gid() == "title"]


def panels(figure: Figure) -> list[Axes]:
    return list(figure.axes)


def test_checkouts_are_points_and_the_others_are_bars_of_their_score() -> None:
    records = [
        on_day(play(SIX_ROUND_CHECKOUT), 0),
        on_day(play(PERFECT), 1),
        on_day(play(BOUNCING), 2),
        on_day(play(TIMEOUT), 3),  # type: ignore[arg-type]
    ]
    figure = build_stats_figure(stats_input(records, "111"), "en")
    rounds, scores = panels(figure)
    by_gid = {line.get_gid(): line.get_xydata().tolist() for line in rounds.get_lines()}  # type: ignore[union-attr]
    assert by_gid == {"rounds:checkout": [[1, 6]], "rounds:perfect": [[2, 4]]}
    bars = {
        container.get_label(): [(p.get_x() + p.get_width() / 2, p.get_height()) for p in container]
        for container in scores.containers
    }
    assert bars == {"All rounds": [(3, 335)], "Lost": [(4, 274)]}


def test_a_huge_score_left_is_clipped_and_its_value_written() -> None:
    games = (
        StatsGame(START, GameKind.FINISHED, 7, 38354627601.0, 501, PHP),
        StatsGame(START + DAY, GameKind.FINISHED, 7, 335.0, 501, PHP),
    )
    (scores,) = panels(build_stats_figure(StatsChartInput(games), "en"))
    top = scores.get_ylim()[1]
    assert top < 3 * 501
    heights = [p.get_height() for p in scores.containers[0]]
    assert heights[0] > top
    assert heights[1] == 335
    assert [text.get_text() for text in scores.texts if text.get_gid() != "title"] == [
        "38400000000"
    ]


@pytest.mark.parametrize(
    ("locale", "titles", "dates"),
    [
        ("en", ["Rounds to 0", "Score left"], ["30 Nov", "1 Dec", "2 Dec"]),
        ("uk", ["Раундів до 0", "Залишок Рахунку"], ["30 лист.", "1 груд.", "2 груд."]),
    ],
)
def test_titles_and_dates_are_in_the_readers_language(
    locale: str, titles: list[str], dates: list[str]
) -> None:
    records = [on_day(play(PERFECT), 0), on_day(play(TIMEOUT), 1), on_day(play(PERFECT), 2)]  # type: ignore[arg-type]
    figure = build_stats_figure(stats_input(records, "111"), locale)
    figure.canvas.draw()
    assert [text for ax in figure.axes for text in titles_of(ax)] == titles
    labels = [label.get_text() for label in figure.axes[-1].get_xticklabels()]
    assert sorted(label for label in labels if label) == sorted(dates)


def test_no_games_is_a_chart_that_says_so() -> None:
    figure = build_stats_figure(StatsChartInput(()), "uk")
    assert figure.axes == []
    assert [text.get_text() for text in figure.texts] == ["Ще немає завершених ігор"]
    assert stats_chart(StatsChartInput(()), "en").startswith(b"\x89PNG")


def test_only_checkouts_draw_one_panel() -> None:
    records = [on_day(play(PERFECT), day) for day in range(3)]
    data = stats_input(records, "111")
    assert len(panels(build_stats_figure(data, "en"))) == 1
    assert stats_chart(data, "uk").startswith(b"\x89PNG")
