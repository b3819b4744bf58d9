"""The player's chart as inline SVG: the same figure and data as `/stats`' PNG."""

from __future__ import annotations

import io
import re

from markupsafe import Markup

from bot.charts import StatsChartInput, build_stats_figure

_PROLOGUE = re.compile(r"^.*?(?=<svg)", re.S)


def stats_svg_bytes(data: StatsChartInput, locale: str, label: str) -> bytes:
    """`stats_svg` as UTF-8, for the chart worker (`ChartRenderer.render`): drawing holds
    the GIL for tens of milliseconds, so the pages' loop never draws."""
    return str(stats_svg(data, locale, label)).encode()


def stats_svg(data: StatsChartInput, locale: str, label: str) -> Markup:
    """matplotlib's own SVG (text as paths, no script), labelled for a screen reader."""
    figure = build_stats_figure(data, locale)
    buffer = io.StringIO()
    figure.savefig(buffer, format="svg", transparent=True, metadata={"Date": None})
    svg = _PROLOGUE.sub("", buffer.getvalue(), count=1)
    svg = svg.replace("<svg ", '<svg role="img" aria-label="' + _attr(label) + '" ', 1)
    return Markup(svg)  # noqa: S704 - matplotlib's output of our own figure


def _attr(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
