"""The puzzles' flow runs without Discord (the terminal plays it): importing every module
of `bot.puzzles` but its Discord face loads no discord or aiohttp."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[3] / "bot" / "puzzles"
FACE = "discord_face"


def test_the_puzzles_flow_loads_no_discord() -> None:
    modules = sorted(
        f"bot.puzzles.{path.stem}".removesuffix(".__init__")
        for path in PACKAGE.glob("*.py")
        if path.stem != FACE
    )
    assert "bot.puzzles._runs" in modules and "bot.puzzles._terminal" in modules
    code = (
        f"import sys, {', '.join(modules)}\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in {'discord', 'aiohttp'}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
