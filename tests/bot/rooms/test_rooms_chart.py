"""The room's chart: one line per player from the start Score, and a module the chart
worker can load without the bot's Discord face (it unpickles `room_chart` by name)."""

from __future__ import annotations

import subprocess
import sys

import rules
from bot.rooms._chart import build_room_figure, room_chart
from rules.game import Expire, StartRound, Submit
from rules.room import Join, apply, new_room
from tests.bot.charts.test_game_chart import axes_of, line
from tests.support.paths import ROOT

T0 = 1_700_000_000.0


def test_every_player_has_a_line_of_scores_by_round() -> None:
    state = new_room("r", rules.CLASSIC, "a", 3, T0)
    state = apply(apply(state, Join("b")), Join("c"))
    state = apply(state, StartRound("3489", T0))
    state = apply(state, Submit("a", "34+89", 123, T0 + 1))
    state = apply(state, Submit("b", "3*4+89", 101, T0 + 2))
    state = apply(state, Expire(T0 + 120))
    figure = build_room_figure(state, "uk", {"a": "Alice"})
    ax = axes_of(figure)
    assert [item.get_gid() for item in ax.get_lines()] == ["score:0", "score:1", "score:2"]
    assert line(ax, "score:0") == [(0, 501), (1, 424)]
    assert line(ax, "score:1") == [(0, 501), (1, 402)]
    assert line(ax, "score:2") == [(0, 501), (1, 424)]  # the auto-move 34+89
    assert room_chart(state, "en", {}).startswith(b"\x89PNG\r\n\x1a\n")


def test_the_chart_module_loads_no_discord() -> None:
    code = "import sys, bot.rooms._chart\nprint('discord' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert out.stdout.strip() == "False"
