"""Puzzles in the terminal: a Storm and a Streak on the same flow and pool as the bot,
with scripted input, real PHP and the solver's pool; and `formula-darts puzzle` run for
real on a piped stdin."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest

import rules
from bot.common import SetsDirectory
from bot.puzzles import PuzzleRuns, play_puzzles
from bot.storage import PuzzleKind, Store
from evaluator import Evaluator
from tests.bot.puzzles.conftest import Fill
from tests.support.paths import ROOT

pytestmark = pytest.mark.asyncio(loop_scope="session")
GLOBAL = rules.load_sets()


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


async def test_a_storm_in_the_terminal(store: Store, evaluator: Evaluator, fill: Fill) -> None:
    await fill(GLOBAL["darts"], 3)
    clock, out = Clock(), io.StringIO()
    runs = PuzzleRuns(store, evaluator, SetsDirectory(store, GLOBAL), clock)
    answers: list[str | None] = []

    async def read() -> str | None:
        clock.now += 3
        if not answers:  # the first puzzle: wrong, then its best; then a Skip; then stop
            answers.extend(["1+1", "BEST", "", ":q"])
        line = answers.pop(0)
        if line == "BEST":
            run = await store.puzzles.run(started[0])
            assert run is not None and run.puzzle_id is not None
            puzzle = await store.puzzles.puzzle(run.puzzle_id)
            assert puzzle is not None
            return puzzle.best_formula
        return line

    started: list[str] = []
    original_start = runs.start

    async def start(*args, **kwargs):  # type: ignore[no-untyped-def]
        shown = await original_start(*args, **kwargs)
        started.append(shown.run.id)
        return shown

    runs.start = start  # type: ignore[method-assign]
    run = await play_puzzles(runs, PuzzleKind.STORM, "darts", read, out)
    text = out.getvalue()
    assert "⚡ Storm · darts · ends in 180 s" in text and "**" not in text
    assert "is not valid" in text and "grade 1.00" in text and "skipped · grade 0" in text
    assert "Storm over · darts · total 1.00 · solved 1 of 2" in text
    assert run.finished_at is not None


def test_formula_darts_puzzle_plays_a_streak_on_piped_input(tmp_path) -> None:
    """The pool is empty: the command prepares ten puzzles with the solver, then plays;
    "1" is not a formula of the Digits (it may be corrected), then the input ends: stopped."""
    url = f"sqlite+aiosqlite:///{tmp_path}/terminal.sqlite3"
    env = {**os.environ, "DATABASE_URL": url}
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "puzzle", "--streak", "--url", url],
        input="1\n", check=False, capture_output=True, text=True, cwd=ROOT, env=env, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Streak · darts" in done.stdout and "Streak over · darts · length" in done.stdout
    assert "preparing 10 puzzles of darts" in done.stderr
