"""The player page's charts as inline SVG: the `/stats` figure (the same data as its PNG)
and the Elo in Online Duels over time, each drawn by the chart worker."""

from __future__ import annotations

import io
import re

from markupsafe import Markup
from matplotlib.figure import Figure

from bot.charts import EloChartInput, StatsChartInput, build_elo_figure, build_stats_figure

_PROLOGUE = re.compile(r"^.*?(?=<svg)", re.S)


def stats_svg_bytes(data: StatsChartInput, locale: str, label: str) -> bytes:
    """`stats_svg` as UTF-8, for the chart worker (`ChartRenderer.render`): drawing holds
    the GIL for tens of milliseconds, so the pages' loop never draws."""
    return str(stats_svg(data, locale, label)).encode()


def stats_svg(data: StatsChartInput, locale: str, label: str) -> Markup:
    return _svg(build_stats_figure(data, locale), label)


def elo_svg_bytes(data: EloChartInput, locale: str, label: str) -> bytes:
    """The Elo chart as UTF-8 SVG, for the chart worker (as `stats_svg_bytes`)."""
    return str(_svg(build_elo_figure(data, locale), label)).encode()


def _svg(figure: Figure, label: str) -> Markup:
    """matplotlib's own SVG (text as paths, no script), labelled for a screen reader."""
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", transparent=True, metadata={"Date": None})
    svg = _PROLOGUE.sub("", buffer.getvalue(), count=1)
    svg = svg.replace("<svg ", '<svg role="img" aria-label="' + _attr(label) + '" ', 1)
    return Markup(svg)  # noqa: S704 - matplotlib's output of our own figure


def _attr(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
