"""The chart under a game's summary: each player's Score after each round, and the pace.

`build_game_figure` returns the Figure, so tests read its lines' data instead of
pixels; `game_chart` is what a worker runs: the same figure as PNG bytes.
Lines, in order: one per player (gid `score:<index>`), then the pace (gid `pace`).
"""

from __future__ import annotations

from collections.abc import Mapping

from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from bot.charts import _style as style
from bot.i18n import t
from bot.storage import GameRecord
from rules import GameState, Termination

WIDTH, HEIGHT = 8.0, 4.5
"""Inches at 100 dpi: 800 × 450 px, which Discord shows whole in an embed."""
MARGINS = style.Margins(left=0.1, right=0.98, top=0.9, bottom=0.25)
"""The legend under the Round axis; the left margin follows the longest Score."""


def score_series(state: GameState, index: int) -> list[tuple[int, float]]:
    """(round, Score after it) for player `index`, from (0, start score).

    Only rounds that were scored count: a round every player answered (a duel's
    auto-move is an answer). A single game's timed-out round, or a round open when
    someone resigned, changed no Score and has no point.
    """
    points = [(0, float(state.game_set.start_score))]
    for rnd in state.rounds:
        if rnd.answers and all(answer is not None for answer in rnd.answers):
            answer = rnd.answers[index]
            assert answer is not None
            points.append((rnd.number, float(answer.score)))
    return points


def build_game_figure(record: GameRecord, locale: str, names: Mapping[str, str]) -> Figure:
    """The game's chart; `names` maps a player id to the name to show (ids otherwise)."""
    state = record.state
    game_set = state.game_set
    figure = style.new_figure(WIDTH, HEIGHT, MARGINS)
    ax = figure.add_subplot()
    style.style_axes(ax)
    series = [score_series(state, i) for i in range(len(state.players))]
    top = style.ceiling((s for line in series for _, s in line), game_set.start_score)
    for index, (player, line) in enumerate(zip(state.players, series, strict=True)):
        fallback = t("charts.player", locale, number=index + 1)
        xs = [x for x, _ in line]
        ys = [y for _, y in line]
        ax.plot(
            xs,
            style.clipped(ys, top),
            marker="o",
            markersize=6,
            linewidth=2.6,
            color=style.PLAYER_COLOURS[index % len(style.PLAYER_COLOURS)],
            label=style.plain(names.get(player, player), fallback),
            gid=f"score:{index}",
            zorder=3 + index,
        )
        style.mark_off_chart(ax, xs, ys, top, game_set.language)
        if len(line) > 1 and line[-1][1] == 0:
            ax.scatter(
                [xs[-1]], [0], marker="*", s=260, color=style.CHECKOUT_COLOUR, zorder=6,
                clip_on=False, gid=f"checkout:{index}",
            )  # fmt: skip
    _mark_loss(ax, state, series)
    pace_label = style.plain(t("charts.pace", locale, rounds=game_set.min_rounds), "", 60)
    ax.plot(
        [0, game_set.min_rounds],
        [game_set.start_score, 0],
        linestyle=(0, (5, 4)),
        linewidth=1.6,
        color=style.INK,
        label=pace_label,
        gid="pace",
        zorder=2,
    )
    last = max(game_set.min_rounds, *(x for line in series for x, _ in line), 1)
    figure.subplots_adjust(left=style.left_margin(top, WIDTH))
    ax.set_xlim(-0.2, last + 0.2)
    ax.set_ylim(-0.03 * top, top)
    ax.xaxis.set_major_locator(MaxNLocator(nbins=10, integer=True))
    ax.yaxis.set_major_locator(MaxNLocator(nbins=4))
    ax.set_xlabel(t("charts.axis.round", locale), color=style.INK, fontproperties=style.font())
    ax.set_ylabel(t("charts.axis.score", locale), color=style.INK, fontproperties=style.font())
    title = t(
        "charts.title", locale, set=game_set.name, mode=t(f"games.mode.{state.mode.value}", locale)
    )
    style.title(ax, style.plain(title, "", 80))
    figure.legend(
        loc="lower center",
        bbox_to_anchor=(0.5, 0.0),
        ncols=len(state.players) + 1,
        frameon=False,
        fontsize=style.FONT_SIZE - 2,
        labelcolor=style.INK,
    )
    return figure


def _mark_loss(ax: Axes, state: GameState, series: list[list[tuple[int, float]]]) -> None:
    """A red cross where a player lost without a Score of 0: time ran out, or resigned."""
    result = state.outcome
    if result is None or result.termination not in (Termination.TIMEOUT, Termination.RESIGN):
        return
    index = state.resigned if result.termination is Termination.RESIGN else 0
    if index is None:
        return
    x, y = series[index][-1]
    end = max(result.rounds, x)
    if end > x:
        ax.hlines(y, x, end, colors=style.LOSS_COLOUR, linestyles="dotted", linewidth=2, zorder=2)
    ax.scatter(
        [end], [y], marker="X", s=150, color=style.LOSS_COLOUR, zorder=6,
        clip_on=False, gid=f"lost:{index}",
    )  # fmt: skip


def game_chart(record: GameRecord, locale: str, names: Mapping[str, str]) -> bytes:
    """The game's chart as a transparent PNG."""
    return style.to_png(build_game_figure(record, locale, names))
