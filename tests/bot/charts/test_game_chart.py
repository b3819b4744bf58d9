"""The game chart holds the game's Scores, read back from the Figure's data, not its pixels."""

from __future__ import annotations

import dataclasses
import io

import pytest
from matplotlib.axes import Axes
from matplotlib.collections import PathCollection
from matplotlib.figure import Figure
from PIL import Image

import rules
from bot.charts import _style as style
from bot.charts import build_game_figure, game_chart
from tests.support.played import BOUNCING, PERFECT, START, play

NAMES = {"111": "Olena", "222": "Bob"}
DUEL = [
    ("3489", [("34+89", 123), ("3*4+89", 101)]),  # 424 | 402
    ("2476", [("2*47+6", 100), None]),  # 274 | auto-move 24+76 = 100: 252
    ("9010", [("90+10", 100), ("9*0+10", 10)]),  # 124 | 242
    ("3240", [("324+0", 324), ("3*240", 720)]),  # 0 | |242 - 520| = 278
]


def axes_of(figure: Figure) -> Axes:
    (ax,) = figure.axes
    return ax


def line(ax: Axes, gid: str) -> list[tuple[float, float]]:
    (found,) = [item for item in ax.get_lines() if item.get_gid() == gid]
    return [(float(x), float(y)) for x, y in found.get_xydata()]  # type: ignore[arg-type, misc, str-unpack, union-attr]


def scatter_points(ax: Axes, gid: str) -> list[tuple[float, float]]:
    found = [c for c in ax.collections if isinstance(c, PathCollection) and c.get_gid() == gid]
    return [(float(x), float(y)) for c in found for x, y in c.get_offsets()]  # type: ignore[arg-type, misc, str-unpack, union-attr]


def legend_texts(figure: Figure) -> list[str]:
    return [text.get_text() for legend in figure.legends for text in legend.get_texts()]


def test_a_single_game_has_one_point_per_round_from_the_start_and_the_pace() -> None:
    ax = axes_of(build_game_figure(play(PERFECT), "en", NAMES))
    assert [item.get_gid() for item in ax.get_lines()] == ["score:0", "pace"]
    assert line(ax, "score:0") == [(0, 501), (1, 424), (2, 274), (3, 124), (4, 0)]
    assert line(ax, "pace") == [(0, 501), (4, 0)]
    assert scatter_points(ax, "checkout:0") == [(4, 0)]


def test_a_duel_has_both_players_lines_with_the_auto_move_round() -> None:
    record = play(DUEL, mode=rules.Mode.DUEL)  # type: ignore[arg-type]
    ax = axes_of(build_game_figure(record, "en", NAMES))
    assert [item.get_gid() for item in ax.get_lines()] == ["score:0", "score:1", "pace"]
    assert line(ax, "score:0") == [(0, 501), (1, 424), (2, 274), (3, 124), (4, 0)]
    assert line(ax, "score:1") == [(0, 501), (1, 402), (2, 252), (3, 242), (4, 278)]
    assert scatter_points(ax, "checkout:1") == []


def test_a_round_without_an_answer_has_no_point_and_the_loss_is_marked() -> None:
    record = play([*PERFECT[:2], ("9010", [None])])
    assert record.state.outcome is not None
    assert record.state.outcome.termination is rules.Termination.TIMEOUT
    ax = axes_of(build_game_figure(record, "en", NAMES))
    assert line(ax, "score:0") == [(0, 501), (1, 424), (2, 274)]
    assert scatter_points(ax, "lost:0") == [(3, 274)]


def test_a_round_half_answered_when_a_duel_was_resigned_changed_no_score() -> None:
    record = play(DUEL[:1], mode=rules.Mode.DUEL)  # type: ignore[arg-type]
    state = rules.apply(record.state, rules.StartRound("2476", START + 500))
    state = rules.apply(state, rules.Submit("222", "2*47+6", 100, START + 510))
    record = dataclasses.replace(record, state=rules.apply(state, rules.Resign("111")))
    assert record.state.rounds[1].answers[1] is not None
    ax = axes_of(build_game_figure(record, "en", NAMES))
    assert line(ax, "score:0") == [(0, 501), (1, 424)]
    assert line(ax, "score:1") == [(0, 501), (1, 402)]
    assert scatter_points(ax, "lost:0") == [(2, 424)]


def test_a_score_far_above_the_start_leaves_the_chart_with_its_value_marked() -> None:
    record = play(BOUNCING)
    huge = record.state.rounds[2].answers[0]
    assert huge is not None
    assert huge.score == 38354627601
    ax = axes_of(build_game_figure(record, "en", NAMES))
    bottom, top = ax.get_ylim()
    assert 610 < top < 3 * 501
    assert bottom < 0
    points = line(ax, "score:0")
    assert [x for x, _ in points] == list(range(8))
    assert points[2] == (2, 610)  # a bounce up that stays on the chart is drawn where it is
    assert top < points[3][1] <= top * style.OVERSHOOT  # the off-chart one leaves at the top
    assert points[4:] == [(4, 610), (5, 460), (6, 394), (7, 335)]
    assert [text.get_text() for text in ax.texts if text.get_gid() != "title"] == ["38400000000"]
    assert [(x, y) for x, y in ax.collections[0].get_offsets()] == [(3, top)]  # type: ignore[misc, str-unpack, union-attr]


@pytest.mark.parametrize(
    ("locale", "x_label", "y_label", "pace", "mode"),
    [
        ("en", "Round", "Score", "Perfect pace (4\u00a0rounds)", "Training"),
        ("uk", "Раунд", "Рахунок", "Темп Супер-гри (4\u00a0раунди)", "Тренування"),
    ],
)
def test_labels_are_in_the_players_language(
    locale: str, x_label: str, y_label: str, pace: str, mode: str
) -> None:
    figure = build_game_figure(play(PERFECT), locale, NAMES)
    ax = axes_of(figure)
    assert (ax.get_xlabel(), ax.get_ylabel()) == (x_label, y_label)
    assert titles(ax) == [f"darts · {mode}"]
    assert legend_texts(figure) == ["Olena", pace]


def test_names_are_drawn_literally_and_fall_back_to_the_player_number() -> None:
    """A `$` would start matplotlib's mathtext (an unknown command fails the draw);
    emoji are not in the font; a name of nothing drawable reads 'Player 2'."""
    names = {"111": r"$\nosuchcommand$ 🎯 Олена", "222": "🎯🎯"}
    record = play(DUEL, mode=rules.Mode.DUEL)  # type: ignore[arg-type]
    figure = build_game_figure(record, "en", names)
    assert legend_texts(figure)[:2] == [r"\$\nosuchcommand\$  Олена", "Player 2"]
    assert game_chart(record, "uk", names).startswith(b"\x89PNG")
    assert legend_texts(build_game_figure(record, "uk", {}))[:2] == ["111", "222"]


def test_the_png_is_transparent_and_800_by_450() -> None:
    image = Image.open(io.BytesIO(game_chart(play(PERFECT), "en", NAMES)))
    assert image.format == "PNG"
    assert image.size == (800, 450)
    assert image.mode == "RGBA"
    assert image.getpixel((0, 0))[3] == 0  # type: ignore[index]


@pytest.mark.parametrize(
    "ink", [style.INK, *style.PLAYER_COLOURS, style.CHECKOUT_COLOUR, style.LOSS_COLOUR]
)
def test_every_ink_reads_on_both_discord_themes(ink: str) -> None:
    """WCAG asks 3:1 of graphics; a transparent chart meets both backgrounds."""
    assert style.contrast(ink, style.DISCORD_DARK) >= 3
    assert style.contrast(ink, style.DISCORD_LIGHT) >= 3


def titles(ax: Axes) -> list[str]:
    return [text.get_text() for text in ax.texts if text.get_gid() == "title"]


JS = rules.load_sets()["js-darts"]
OFF_TWICE = [
    ("9999", [("9**9*99", 38354628411), ("9*9*99", 8019)]),  # off the chart | 7518 (off too)
    ("9999", [("9**9*99", 38354628411), ("99*99", 9801)]),  # back: 610 | off again
    ("1234", [("1234", 1234), ("12*34", 408)]),
]


def test_every_off_chart_score_is_labelled_as_the_games_language_prints_it() -> None:
    """A JavaScript duel leaves the chart three times: three labels, JavaScript's digits."""
    record = play(OFF_TWICE, mode=rules.Mode.DUEL, game_set=JS)
    state = record.state
    ax = axes_of(build_game_figure(record, "en", NAMES))
    top = ax.get_ylim()[1]
    off = [float(a.score) for r in state.rounds for a in r.answers if a and float(a.score) > top]
    labels = [text.get_text() for text in ax.texts if text.get_gid() != "title"]
    assert len(labels) == len(off) >= 3, (labels, off)
    assert all("e+" not in label and "E+" not in label for label in labels), labels
    assert labels[0] == "38400000000"  # 38354627710 in 3 digits, as JavaScript prints it
