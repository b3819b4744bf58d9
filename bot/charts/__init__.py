"""Score charts as PNG: a game's Score by round, and a player's last games for /stats.

Pure functions of stored records (`game_chart`, `stats_chart`) drawn with
matplotlib's object API on an Agg canvas, no pyplot and no global state; the bot
runs them in a worker process through `ChartRenderer.render`, which never raises.
"""

from bot.charts._elo import DUELS_MAX, EloChartInput, EloDuel, build_elo_figure, elo_input
from bot.charts._game import build_game_figure, game_chart, score_series
from bot.charts._renderer import ChartRenderer
from bot.charts._stats import (
    GAMES_MAX,
    GameKind,
    StatsChartInput,
    StatsGame,
    build_stats_figure,
    stats_chart,
    stats_input,
)

__all__ = [
    "DUELS_MAX",
    "GAMES_MAX",
    "ChartRenderer",
    "EloChartInput",
    "EloDuel",
    "GameKind",
    "StatsChartInput",
    "StatsGame",
    "build_elo_figure",
    "build_game_figure",
    "build_stats_figure",
    "elo_input",
    "game_chart",
    "score_series",
    "stats_chart",
    "stats_input",
]
