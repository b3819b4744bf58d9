"""The terminal Training game, driven through its injected I/O with the real sandbox."""

from __future__ import annotations

import io
import itertools
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import rules
from bot.terminal import play
from evaluator import Evaluation, Evaluator, open_evaluator
from tests.support.fixtures import solver  # noqa: F401 (fixture)
from tests.support.paths import ROOT

CLASSIC = rules.load_sets()["darts"]


@pytest.fixture
async def evaluator() -> AsyncIterator[Evaluator]:
    opened = await open_evaluator()
    try:
        yield opened
    finally:
        await opened.close()


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


def scripted(lines: list[str | None], clock: Clock, step: float = 1.0):  # type: ignore[no-untyped-def]
    feed = iter(lines)

    async def read_line(seconds: float) -> str | None:
        line = next(feed)
        if line is None:  # the player says nothing until the deadline
            clock.now += seconds
            return None
        clock.now += step
        return line

    return read_line


async def test_checkout_with_retries_and_summary(evaluator: Evaluator) -> None:
    digits = itertools.cycle(["3489", "2476", "7001"])
    clock, out = Clock(), io.StringIO()
    lines = ["43+89", "34+8x", "34+89", "2*47+6", "7/0+01", "700+1", ":q"]
    state = await play(
        CLASSIC,
        evaluator.evaluate,
        scripted(lines, clock),  # type: ignore[arg-type]
        out,
        digits_source=lambda: next(digits),
        clock=clock,
    )
    text = out.getvalue()
    assert "digits read 4,3,8,9 but the round's number is 3489" in text
    assert "`x` at column 5 is not allowed" in text
    assert "DivisionByZeroError" in text
    assert "34+89 = 123 (int) → 77 points, score 424" in text
    assert "2*47+6 = 100 (int) → 150 points, score 274" in text
    # 701 is 601 from the Goal: |100 - 601| = 501 points, and |274 - 501| = 227.
    assert [r.answers[0].score for r in state.rounds[:3] if r.answers[0]] == [424, 274, 227]
    assert state.outcome is not None
    assert state.outcome.termination is rules.Termination.RESIGN
    assert "round  digits" in text


async def test_real_checkout_is_a_win(evaluator: Evaluator) -> None:
    clock, out = Clock(), io.StringIO()
    state = await play(
        CLASSIC,
        evaluator.evaluate,
        scripted(["700+1"], clock),
        out,
        digits_source=lambda: "7001",
        clock=clock,
    )
    assert state.outcome == rules.Outcome(rules.Termination.CHECKOUT, 0, 1, True)
    assert "PERFECT" in out.getvalue()


async def test_timeout_loses(evaluator: Evaluator) -> None:
    clock, out = Clock(), io.StringIO()
    state = await play(
        CLASSIC,
        evaluator.evaluate,
        scripted(["34+8", None], clock),
        out,
        digits_source=lambda: "3489",
        clock=clock,
    )
    assert state.outcome is not None
    assert state.outcome.termination is rules.Termination.TIMEOUT
    assert "the game is lost" in out.getvalue()


async def test_resign_loses(evaluator: Evaluator) -> None:
    clock, out = Clock(), io.StringIO()
    state = await play(
        CLASSIC,
        evaluator.evaluate,
        scripted([":q"], clock),
        out,
        digits_source=lambda: "3489",
        clock=clock,
    )
    assert state.outcome is not None
    assert rules.is_loss(state.outcome)


def test_cli_play_through_a_pipe() -> None:
    """The real command, as a player would type into it (a fresh random game, resigned)."""
    proc = subprocess.run(
        [sys.executable, "-m", "bot.cli", "play", "--set", "blitz"],
        input="1+1\n:q\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Round 1/7" in proc.stdout
    assert "You resigned" in proc.stdout


def test_cli_sets_check_reports_all_errors(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("x:\n  goal: 1\n  time_limit: 1\n")
    proc = subprocess.run(
        [sys.executable, "-m", "bot.cli", "sets", "check", str(bad)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 1
    assert "4 problem(s)" in proc.stderr
    for field in ("start_score", "bonus", "max_rounds", "time_limit"):
        assert f"field '{field}'" in proc.stderr
    ok = subprocess.run(
        [sys.executable, "-m", "bot.cli", "sets", "check"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ok.returncode == 0
    assert "OK: 4 Set(s)" in ok.stdout


async def test_summary_shows_every_number_whole_as_php_prints_it(evaluator: Evaluator) -> None:
    clock, out = Clock(), io.StringIO()
    await play(
        CLASSIC,
        evaluator.evaluate,
        scripted(["pow(77,36)", "70/20", ":q"], clock),
        out,
        digits_source=iter(["7736", "7020", "1111"]).__next__,
        clock=clock,
    )
    text = out.getvalue()
    summary = text[text.index("round  digits") :]
    assert "8.197210849721839E+67" in summary  # var_export's form, never cut
    assert "3.5" in summary
    assert "You resigned" in summary


def test_cli_play_ends_at_end_of_input_even_from_dev_null() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "bot.cli", "play"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "input ended" in proc.stdout
    assert "You resigned" in proc.stdout


async def test_each_round_shows_the_best_possible_answer(evaluator: Evaluator, solver) -> None:  # type: ignore[no-untyped-def]
    from bot.solving import ConfirmedSolver

    revealer = ConfirmedSolver(solver, evaluator)
    await revealer.prepare("3489", CLASSIC)  # the round's solve is then quick: a loaded
    clock, out = Clock(), io.StringIO()  # machine still meets the game's 2 s reveal wait
    await play(
        CLASSIC,
        evaluator.evaluate,
        scripted(["34+89", ":q"], clock),
        out,
        digits_source=lambda: "3489",
        clock=clock,
        revealer=revealer,
    )
    text = out.getvalue()
    shown = text.split("best possible: ", 1)[1].splitlines()[0]
    formula, _, rest = shown.partition(" = ")
    verdict = await evaluator.evaluate(formula, "3489", CLASSIC.functions)
    assert isinstance(verdict, Evaluation)  # real PHP computes what is shown
    _points, score = rules.apply_points(501, verdict.value, CLASSIC.goal, CLASSIC.bonus)
    assert rest.endswith(f"score {rules.php_text(score, zero_fraction=False)}")
    assert float(score) <= 424  # no worse than what the player found
