"""The small chart of `/stats`: a player's last games, oldest to newest.

Two panels over the same games: how many rounds each checkout took (a star for a
Perfect), and the Score left by each game that did not check out (a red bar for
a loss). A panel with nothing to show is left out. The input is a plain value
(`StatsChartInput`) that `stats_input` builds from the stored games, so neither
the chart nor its tests need a database.

Each game has a slot of its own, across the whole width (five games in an evening
stay five marks; on a time axis they would be one blob beside weeks of nothing).
The axis says when by labels chosen for the span of the games' times (`date_ticks`):
the time of day when they were all played on one day (the date once, top right),
the day when they span less than a year, the month beyond; each label under the first
game it names, none repeated.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from enum import StrEnum
from typing import Protocol

from babel.dates import format_date, format_time
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import FixedFormatter, FixedLocator, MaxNLocator

from bot.charts import _style as style
from bot.i18n import normalize_locale, t
from bot.storage import GameRecord
from rules import FormulaLanguage, GameState, Termination, is_zero

GAMES_MAX = 30
SLOTS_MIN = 10
"""Bars are as narrow as they would be for this many games, so three are not three slabs."""
DATE_TICKS = 5
YEAR_DAYS = 365
"""Two dates less than this apart never share a day and month: "d MMM" names them."""
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
    language: FormulaLanguage
    """The game's Set's language: an off-chart Score is written as it prints it."""


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
                language=state.game_set.language,
            )
        )
    return StatsChartInput(tuple(games[-limit:]) if limit > 0 else ())


@dataclass(frozen=True, slots=True)
class DateTicks:
    positions: tuple[int, ...]
    """Game slots (from 1) that carry a label."""
    labels: tuple[str, ...]
    caption: str
    """What the labels leave out (the day of a day's times); "" when nothing."""


LABEL_CHAR_PX = 0.75 * (style.FONT_SIZE - 2) * style.DPI / 72
"""At most about how wide a tick label's character is (its font is FONT_SIZE - 2 points)."""


class Played(Protocol):
    """A game or a duel on a chart's slot: when it started (seconds since the epoch)."""

    @property
    def played_at(self) -> float: ...


def _moment(game: Played) -> datetime:
    return datetime.fromtimestamp(game.played_at, UTC)


def date_ticks(
    games: Sequence[Played], locale: str, left: float = MARGINS.left, *,
    width: float = WIDTH, right: float = MARGINS.right,
) -> DateTicks:  # fmt: skip
    """Labels for the games' slots, their resolution chosen for the span of their times.

    `left`, `right`: the axes' edges (fractions of the figure's `width`, in inches).
    Labels are kept a label's width apart and inside the figure, the newest first."""
    if not games:
        return DateTicks((), (), "")
    language = normalize_locale(locale)
    first, last = _moment(games[0]).date(), _moment(games[-1]).date()
    caption = ""

    def day(value: date, pattern: str) -> str:
        return format_date(value, pattern, locale=language)

    if first == last:
        caption = f"{day(first, 'd MMM y')} · UTC"
        names = [format_time(_moment(g), "HH:mm", tzinfo=UTC, locale=language) for g in games]
    elif (last - first).days < YEAR_DAYS:
        names = [day(_moment(g).date(), "d MMM") for g in games]
    else:
        names = [day(_moment(g).date(), "LLL y") for g in games]
    firsts = [i for i, name in enumerate(names) if i == 0 or name != names[i - 1]]
    figure_px = width * style.DPI
    slot_px = (right - left) * figure_px / (len(games) + 0.2)

    def centre_px(index: int) -> float:  # slot index + 1 on an axis from 0.4 to n + 0.6
        return left * figure_px + (index + 0.6) * slot_px

    widest = (max(len(names[i]) for i in firsts) + 2) * LABEL_CHAR_PX  # with a space between
    gap = max(math.ceil(len(games) / DATE_TICKS), math.ceil(widest / slot_px))
    kept: list[int] = []
    for index in reversed(firsts):  # the newest first, as a reader looks for it
        half = len(names[index]) * LABEL_CHAR_PX / 2
        inside = half <= centre_px(index) <= figure_px - half
        if inside and len(kept) < DATE_TICKS and (not kept or kept[-1] - index >= gap):
            kept.append(index)
    kept.reverse()
    return DateTicks(tuple(i + 1 for i in kept), tuple(names[i] for i in kept), caption)


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
            width=0.7 * min(1.0, len(games) / SLOTS_MIN),
            color=colour,
            label=t(label, locale),
            gid=f"score:{kind.value}",
        )
    for lang in dict.fromkeys(g.language for _, g in left):  # each Score in its own language
        mine = [(i, g.score) for i, g in left if g.language is lang]
        style.mark_off_chart(ax, [i for i, _ in mine], [s for _, s in mine], top, lang)
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
    left = style.left_margin(max(tops), WIDTH)
    figure.subplots_adjust(left=left)
    last = axes[-1]
    last.set_xlim(0.4, len(games) + 0.6)
    ticks = date_ticks(games, locale, left)
    last.xaxis.set_major_locator(FixedLocator(ticks.positions))
    last.xaxis.set_major_formatter(FixedFormatter(ticks.labels))
    if ticks.caption:  # over the top panel's right corner, level with its title
        axes[0].text(
            1.0,
            1.03,
            ticks.caption,
            transform=axes[0].transAxes,
            ha="right",
            va="bottom",
            color=style.INK,
            fontproperties=style.font(small=True),
            gid="date",
        )
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
