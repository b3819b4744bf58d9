"""The chart under a room's final table: every player's Score after each round.

`build_room_figure` returns the Figure (tests read its lines); `room_chart` is what the
chart worker runs (`ChartRenderer.render`): the same figure as PNG bytes. Up to 20 lines,
coloured from matplotlib's tab20 so each player is told apart.
"""

from __future__ import annotations

import io
from collections.abc import Mapping

from matplotlib import colormaps
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from bot.i18n import t
from rules.room import RoomState

WIDTH, HEIGHT, DPI = 9.0, 5.0, 100
INK = "#888888"


def score_lines(state: RoomState) -> list[list[tuple[int, float]]]:
    """Per player: (round, Score after it), from round 0 at the start, while they were in."""
    lines = [[(0, float(state.game_set.start_score))] for _ in state.players]
    for rnd in state.rounds:
        for index, answer in enumerate(rnd.answers):
            if answer is not None and rnd.resolved:
                lines[index].append((rnd.number, float(answer.score)))
    return lines


def build_room_figure(state: RoomState, locale: str, names: Mapping[str, str]) -> Figure:
    figure = Figure(figsize=(WIDTH, HEIGHT), dpi=DPI)
    FigureCanvasAgg(figure)
    figure.patch.set_alpha(0)
    ax = figure.add_subplot()
    ax.set_facecolor("none")
    colours = colormaps["tab20"]
    for index, line in enumerate(score_lines(state)):
        player = state.players[index]
        ax.plot(
            [x for x, _ in line], [y for _, y in line], marker="o", linewidth=2,
            color=colours(index % 20), label=names.get(player, player)[:24], gid=f"score:{index}",
        )  # fmt: skip
    ax.set_xlabel(t("charts.axis.round", locale), color=INK)
    ax.set_ylabel(t("charts.axis.score", locale), color=INK)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.tick_params(colors=INK)
    for spine in ax.spines.values():
        spine.set_color(INK)
    ax.set_title(t("rooms.chart.title", locale, set=state.game_set.name), color=INK)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False,
              labelcolor=INK)  # fmt: skip
    figure.subplots_adjust(left=0.09, right=0.78, top=0.9, bottom=0.12)
    return figure


def room_chart(state: RoomState, locale: str, names: Mapping[str, str]) -> bytes:
    buffer = io.BytesIO()
    build_room_figure(state, locale, names).savefig(buffer, format="png", transparent=True)
    return buffer.getvalue()
