"""What every chart shares: colours that read on both Discord themes, safe text, the y range.

Discord shows a PNG on its dark (#313338) or light (#ffffff) background, so the
charts are transparent and every ink has a mid luminance: a relative luminance
near 0.25 has the same contrast (about 3.5:1) against both, above the 3:1 that
WCAG asks of graphics. `contrast` is here so a test keeps the palette so.

Nothing here touches matplotlib's global state (no pyplot, no rcParams): each
chart is its own `Figure` with its own Agg canvas, safe in any worker.
"""

from __future__ import annotations

import io
import math
import unicodedata
from collections.abc import Iterable, Sequence
from functools import cache
from typing import NamedTuple

from matplotlib import font_manager
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ft2font import FT2Font

import rules
from rules.languages import language_rules

DISCORD_DARK = "#313338"
DISCORD_LIGHT = "#ffffff"
INK = "#888888"
SHORT = 8
"""An off-chart Score printed in at most this many characters is labelled whole."""
"""Text, axes and the pace guide: a grey of luminance 0.25."""
GRID = "#88888840"
PLAYER_COLOURS = ("#2f8fe8", "#e0702a")
"""Blue and orange, apart for colour-blind readers too."""
CHECKOUT_COLOUR = "#2e9e5b"
LOSS_COLOUR = "#e5534b"


class Margins(NamedTuple):
    """Where the axes sit, as fractions of the figure (matplotlib's subplots_adjust)."""

    left: float
    right: float
    top: float
    bottom: float
    hspace: float = 0.2


DPI = 100
FONT_SIZE = 17
"""Pixels in the PNG. Discord shows an embed's image at about half its 800 px, so a
15 px label read as 7 px; at 17 it reads as about 9 (and the names in the legend too)."""
FONT_SIZE_TUNED = 15
"""The size the margins below were measured at; they grow with FONT_SIZE."""
FONT_FAMILY = "DejaVu Sans"
"""Shipped with matplotlib, with Cyrillic: the same glyphs on every machine."""
NAME_MAX = 24
PNG_COMPRESSION = 1
"""zlib level: a few more kilobytes than the default 6, at a fraction of its time."""

OFF_CHART_FACTOR = 3
"""A Score up to 3 × the start score is drawn where it is; a higher one leaves the chart."""
HEADROOM = 1.08
OVERSHOOT = 1.5
"""An off-chart Score is drawn this far above the top, so its line leaves the chart steeply."""


def relative_luminance(colour: str) -> float:
    """WCAG relative luminance of `#rrggbb`."""
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(first: str, second: str) -> float:
    """WCAG contrast ratio of two `#rrggbb` colours (1 to 21)."""
    low, high = sorted((relative_luminance(first[:7]), relative_luminance(second[:7])))
    return (high + 0.05) / (low + 0.05)


@cache
def _charmap() -> frozenset[int]:
    path = font_manager.findfont(font_manager.FontProperties(family=FONT_FAMILY))
    return frozenset(FT2Font(path).get_charmap())


def plain(text: str, fallback: str, limit: int = NAME_MAX) -> str:
    """`text` as matplotlib draws it literally: glyphs the font lacks (emoji) dropped,
    `$` escaped so it never starts mathtext, at most `limit` characters."""
    known = _charmap()
    kept = "".join(c for c in text if ord(c) in known and unicodedata.category(c)[0] != "C")
    kept = kept.strip()
    if not kept:
        kept = fallback
    if len(kept) > limit:
        kept = kept[: limit - 1] + "…"
    return kept.replace("$", r"\$")


def new_figure(width: float, height: float, margins: Margins) -> Figure:
    """A transparent figure with its own Agg canvas and fixed margins.

    Fixed, not matplotlib's constrained layout: the labels are ours and of known
    size, and the layout solver was 44% of a chart's drawing time (bench_charts).
    """
    figure = Figure(figsize=(width, height), dpi=DPI)
    figure.subplots_adjust(**margins._asdict())
    figure.patch.set_alpha(0.0)
    FigureCanvasAgg(figure)
    return figure


def style_axes(ax: Axes) -> None:
    """Bare axes in the ink's grey; a grid of Scores only (each round has its dot).

    Few ticks on purpose: each tick is a label laid out and drawn, and ticks were
    the largest part of a chart's time after the layout solver (bench_charts).
    """
    ax.set_facecolor("none")
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    for side in ("left", "bottom"):
        ax.spines[side].set_color(INK)
    ax.tick_params(colors=INK, labelsize=FONT_SIZE - 2)
    ax.xaxis.label.set_color(INK)
    ax.yaxis.label.set_color(INK)
    ax.grid(visible=True, axis="y", color=GRID, linewidth=0.8)
    ax.set_axisbelow(True)


def font(*, small: bool = False) -> font_manager.FontProperties:
    """The labels' font: always the same family, in one of two sizes."""
    return font_manager.FontProperties(
        family=FONT_FAMILY, size=FONT_SIZE - 3 if small else FONT_SIZE
    )


def ceiling(values: Iterable[float], start_score: float) -> float:
    """The top of a Score axis: every value up to OFF_CHART_FACTOR × start_score fits.

    Linear, not logarithmic: a game's story is between the start and 0 (the pace,
    the last darts), and one bounce to 10^18 on a log or symlog axis would squash
    all of it into a sliver. Higher values leave the chart with a marker instead.
    """
    limit = OFF_CHART_FACTOR * start_score
    shown = [v for v in values if v <= limit]
    return max([float(start_score), *shown]) * HEADROOM


def clipped(values: Sequence[float], top: float) -> list[float]:
    """The values as drawn: an off-chart one just above the top, so the axis stays put."""
    return [min(v, top * OVERSHOOT) for v in values]


def short_number(value: float, lang: rules.FormulaLanguage) -> str:
    """A Score as the game's language prints it, in 3 significant digits when that is long
    (still as the language prints that number: PHP's 3.84E+15, JavaScript's 38400000000)."""
    echo = language_rules(lang).echo
    text = echo(value)
    return text if len(text) <= SHORT else echo(float(f"{value:.3g}"))


def mark_off_chart(
    ax: Axes, xs: Sequence[float], values: Sequence[float], top: float,
    lang: rules.FormulaLanguage,
) -> None:  # fmt: skip
    """A triangle on the top edge for each value above `top`, each with its value (as
    `lang` prints it); neighbours' labels take turns at two heights, so they stay apart."""
    off = [(x, v) for x, v in zip(xs, values, strict=True) if v > top and math.isfinite(v)]
    if not off:
        return
    ax.scatter([x for x, _ in off], [top] * len(off), marker="^", s=70, color=INK, clip_on=False)
    for turn, (x, value) in enumerate(off):
        ax.annotate(
            short_number(value, lang),
            (x, top),
            xytext=(0, -16 - 11 * (turn % 2)),
            textcoords="offset points",
            ha="center",
            color=INK,
            fontsize=FONT_SIZE - 3,
            fontfamily=FONT_FAMILY,
        )


def left_margin(top: float, width_in: float) -> float:
    """Room left of the axes for tick labels as long as `top` and the axis title."""
    digits = len(f"{top:.0f}")
    return (0.42 + 0.11 * digits) * FONT_SIZE / FONT_SIZE_TUNED / width_in


def title(ax: Axes, text: str, *, small: bool = False) -> None:
    """A title over the axes' left corner (gid `title`).

    A plain text at a fixed place: matplotlib's own titles search the axes' artists
    for a free spot on every draw, which a profile showed as a sixth of the drawing.
    """
    ax.text(
        0.0,
        1.03,
        text,
        transform=ax.transAxes,
        ha="left",
        va="bottom",
        color=INK,
        fontproperties=font(small=small),
        gid="title",
    )


def to_png(figure: Figure) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(
        buffer,
        format="png",
        transparent=True,
        metadata={"Software": None},
        pil_kwargs={"compress_level": PNG_COMPRESSION},
    )
    return buffer.getvalue()
