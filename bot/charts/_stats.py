"""The small chart of `/stats`: a player's last games, oldest to newest.

Two panels over the same games: how many rounds each checkout took (a star for a
Perfect), and the Score left by each game that did not check out (a red bar for
a loss). A panel with nothing to show is left out. The input is a plain value
(`StatsChartInput`) that `stats_input` builds from the stored games, so neither
the chart nor its tests need a database.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum

from babel.dates import format_date
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import FixedLocator, FuncFormatter, MaxNLocator

from bot.charts import _style as style
from bot.i18n import normalize_locale, t
from bot.storage import GameRecord
from rules import GameState, Termination, is_zero

GAMES_MAX = 30
SLOTS_MIN = 10
"""The x axis has room for at least this many games, so three games are not three slabs."""
DATE_TICKS = 5
MARGINS = style.Margins(left=0.1, right=0.95, top=0.91, bottom=0.23, hspace=0.5)
WIDTH, HEIGHT = 6.4, 3.6
"""640 × 360 px: small beside the /stats embed, still legible when Discord scales it."""


class GameKind(StrEnum):
    PERFECT = "perfect"
    CHECKOUT = "checkout"
    FINISHED = "finished"
    """All rounds played without a Score of 0 (a duel draw too)."""
    LOST = "lost"


@dataclass(frozen=True, slots=True)
class StatsGame:
    """One finished game, seen by the player the chart is about."""

    played_at: float
    """Seconds since the epoch, when the game started."""
    kind: GameKind
    rounds: int
    score: float
    """The player's Score at the end: 0 for a checkout."""
    start_score: int


@dataclass(frozen=True, slots=True)
class StatsChartInput:
    games: tuple[StatsGame, ...]
    """Oldest first, at most GAMES_MAX."""


def _kind(state: GameState, index: int) -> GameKind:
    result = state.outcome
    assert result is not None
    if is_zero(state.scores[index]) and result.termination is Termination.CHECKOUT:
        return GameKind.PERFECT if result.perfect else GameKind.CHECKOUT
    if result.termination is Termination.MAX_ROUNDS and result.winner in (None, index):
        return GameKind.FINISHED
    return GameKind.LOST


def stats_input(
    records: Sequence[GameRecord], player_id: int | str, limit: int = GAMES_MAX
) -> StatsChartInput:
    """The chart's input from stored games (any order; running games and others' are skipped)."""
    player = str(player_id)
    games = []
    for record in sorted(records, key=lambda r: (r.created_at, r.state.id)):
        state = record.state
        if state.outcome is None or player not in state.players:
            continue
        index = state.players.index(player)
        games.append(
            StatsGame(
                played_at=record.created_at,
                kind=_kind(state, index),
                rounds=state.outcome.rounds,
                score=float(state.scores[index]),
                start_score=state.game_set.start_score,
            )
        )
    return StatsChartInput(tuple(games[-limit:]) if limit > 0 else ())


def _dates(games: Sequence[StatsGame], locale: str) -> FuncFormatter:
    """Tick n (a game's position, from 1) reads as that game's day in the reader's language."""

    def label(value: float, _: object) -> str:
        position = round(value)
        if abs(value - position) > 1e-6 or not 1 <= position <= len(games):
            return ""
        day = datetime.fromtimestamp(games[position - 1].played_at, UTC).date()
        return format_date(day, "d MMM", locale=normalize_locale(locale))

    return FuncFormatter(label)


def _rounds_panel(ax: Axes, games: Sequence[StatsGame], locale: str) -> None:
    for kind, marker, size, label in (
        (GameKind.CHECKOUT, "o", 8, "charts.stats.checkout"),
        (GameKind.PERFECT, "*", 15, "charts.stats.perfect"),
    ):
        points = [(i, g.rounds) for i, g in enumerate(games, start=1) if g.kind is kind]
        if not points:
            continue
        ax.plot(
            [x for x, _ in points],
            [y for _, y in points],
            linestyle="none",
            marker=marker,
            markersize=size,
            color=style.CHECKOUT_COLOUR,
            label=t(label, locale),
            gid=f"rounds:{kind.value}",
        )
    most = max(g.rounds for g in games if g.kind in (GameKind.CHECKOUT, GameKind.PERFECT))
    ax.set_ylim(0, most + 1)
    ax.yaxis.set_major_locator(MaxNLocator(integer=True, nbins=3))
    style.title(ax, t("charts.stats.rounds", locale), small=True)


def _score_panel(ax: Axes, games: Sequence[StatsGame], locale: str) -> None:
    left = [(i, g) for i, g in enumerate(games, start=1) if g.kind in _NOT_OUT]
    top = style.ceiling((g.score for _, g in left), max(g.start_score for _, g in left))
    for kind, colour, label in (
        (GameKind.FINISHED, style.PLAYER_COLOURS[0], "charts.stats.finished"),
        (GameKind.LOST, style.LOSS_COLOUR, "charts.stats.lost"),
    ):
        bars = [(i, g.score) for i, g in left if g.kind is kind]
        if not bars:
            continue
        ax.bar(
            [x for x, _ in bars],
            style.clipped([y for _, y in bars], top),
            width=0.7,
            color=colour,
            label=t(label, locale),
            gid=f"score:{kind.value}",
        )
    style.mark_off_chart(ax, [i for i, _ in left], [g.score for _, g in left], top)
    ax.set_ylim(0, top)
    ax.yaxis.set_major_locator(MaxNLocator(nbins=3))
    style.title(ax, t("charts.stats.score", locale), small=True)


_NOT_OUT = (GameKind.FINISHED, GameKind.LOST)


def build_stats_figure(data: StatsChartInput, locale: str) -> Figure:
    games = data.games
    figure = style.new_figure(WIDTH, HEIGHT, MARGINS)
    panels = []
    if any(g.kind not in _NOT_OUT for g in games):
        panels.append(_rounds_panel)
    if any(g.kind in _NOT_OUT for g in games):
        panels.append(_score_panel)
    if not panels:
        figure.text(
            0.5,
            0.5,
            t("charts.stats.empty", locale),
            ha="center",
            color=style.INK,
            fontproperties=style.font(),
        )
        return figure
    axes = figure.subplots(len(panels), 1, sharex=True, squeeze=False)[:, 0]
    for ax, draw in zip(axes, panels, strict=True):
        style.style_axes(ax)
        draw(ax, games, locale)
    tops = [ax.get_ylim()[1] for ax in axes]
    figure.subplots_adjust(left=style.left_margin(max(tops), WIDTH))
    last = axes[-1]
    last.set_xlim(0.4, max(len(games), SLOTS_MIN) + 0.6)
    step = math.ceil(max(len(games), SLOTS_MIN) / DATE_TICKS)
    last.xaxis.set_major_locator(FixedLocator(range(len(games), 0, -step)))
    last.xaxis.set_major_formatter(_dates(games, locale))
    figure.legend(
        loc="lower center",
        bbox_to_anchor=(0.5, 0.0),
        ncols=4,
        frameon=False,
        fontsize=style.FONT_SIZE - 4,
        handletextpad=0.3,
        columnspacing=1.2,
        labelcolor=style.INK,
    )
    return figure


def stats_chart(data: StatsChartInput, locale: str) -> bytes:
    """The /stats chart as a transparent PNG."""
    return style.to_png(build_stats_figure(data, locale))
