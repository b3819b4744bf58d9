"""A player's Elo in Online Duels over their last rated duels, for the web player page.

One slot per duel across the width, as `/stats`' chart does (an evening's five duels stay
five points), the Elo before the first of them at slot 0; dated under the slots by the
same labels (`date_ticks`). Sized for a phone: the page shows it at the screen's width,
and at 320 px its labels still read at about 11 px.
"""

from __future__ import annotations

from dataclasses import dataclass

from matplotlib.figure import Figure
from matplotlib.ticker import FixedFormatter, FixedLocator, MaxNLocator

from bot.charts import _style as style
from bot.charts._stats import date_ticks
from bot.i18n import t

DUELS_MAX = 50
MARGINS = style.Margins(left=0.17, right=0.96, top=0.88, bottom=0.24, hspace=0.0)
WIDTH, HEIGHT = 4.8, 3.2
"""480 × 320 px: the page scales it to a phone's width with its labels still readable."""
PAD = 15
"""Elo above and below the line's extremes, so a flat line is not drawn on the frame."""


@dataclass(frozen=True, slots=True)
class EloDuel:
    """One rated duel: when it started and the player's Elo before and after it."""

    played_at: float
    before: int
    after: int


@dataclass(frozen=True, slots=True)
class EloChartInput:
    duels: tuple[EloDuel, ...]
    """Oldest first, at most DUELS_MAX."""


def elo_input(history: list[tuple[float, int, int]]) -> EloChartInput | None:
    """The chart's input from the store's (when, before, after) rows; None without any."""
    duels = tuple(EloDuel(at, before, after) for at, before, after in history[-DUELS_MAX:])
    return EloChartInput(duels) if duels else None


def build_elo_figure(data: EloChartInput, locale: str) -> Figure:
    figure = style.new_figure(WIDTH, HEIGHT, MARGINS)
    ax = figure.subplots()
    style.style_axes(ax)
    duels = data.duels
    xs = list(range(len(duels) + 1))
    ys = [duels[0].before, *(d.after for d in duels)]
    ax.plot(xs, ys, color=style.PLAYER_COLOURS[0], linewidth=2, marker="o", markersize=5,
            gid="elo")  # fmt: skip
    ax.set_ylim(min(ys) - PAD, max(ys) + PAD)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True, nbins=4))
    ax.set_xlim(-0.4, len(duels) + 0.4)
    ticks = date_ticks(duels, locale, MARGINS.left, width=WIDTH, right=MARGINS.right)
    ax.xaxis.set_major_locator(FixedLocator(ticks.positions))
    ax.xaxis.set_major_formatter(FixedFormatter(ticks.labels))
    style.title(ax, t("details.chart.elo_title", locale, rating=ys[-1]), small=True)
    if ticks.caption:  # under the tick labels, at the right (the title has the top)
        figure.text(MARGINS.right, 0.02, ticks.caption, ha="right", va="bottom",
                    color=style.INK, fontproperties=style.font(small=True), gid="date")  # fmt: skip
    return figure
