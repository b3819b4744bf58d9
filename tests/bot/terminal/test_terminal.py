"""The terminal Training game on the real `GameService` (its own face, a real store),
driven through its injected I/O with the real sandbox."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

import pytest

import rules
from bot.play import GameService, Revealer
from bot.storage import Face, GameRecord, Store
from bot.terminal import TerminalFace, play, terminal_faces
from evaluator import Evaluation, Evaluator
from tests.support.fixtures import ForcedDigits, evaluator, solver, store  # noqa: F401 (fixtures)
from tests.support.paths import ROOT

CLASSIC = rules.load_sets()["darts"]
SESSION = pytest.mark.asyncio(loop_scope="session")


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


def scripted(lines: Sequence[str | None], clock: Clock, step: float = 1.0):  # type: ignore[no-untyped-def]
    feed = iter(lines)

    async def read_line(seconds: float) -> str | None:
        line = next(feed)
        if line is None:  # the player says nothing until the deadline
            clock.now += seconds
            return None
        clock.now += step
        return line

    return read_line


async def played(
    store: Store,
    evaluator: Evaluator,
    game_set: rules.GameSet,
    lines: Sequence[str | None],
    digits: Iterable[str],
    *,
    revealer: Revealer | None = None,
    guild_id: int = 0,
    player: int = 0,
    locale: str = "en",
) -> tuple[GameRecord, str]:
    """One terminal game on a real service over `store`, its texts in `locale`: the game
    as stored, the text."""
    clock, out = Clock(), io.StringIO()
    forced = ForcedDigits()
    forced.extend(*digits)
    face = TerminalFace(out, clock, locale)
    service = GameService(
        store, evaluator, rules.load_sets(), revealer=revealer, clock=clock,
        digits_source=forced, faces=terminal_faces(face),
    )  # fmt: skip
    try:
        record = await play(
            service, face, scripted(lines, clock), out,  # type: ignore[arg-type]
            set_name=game_set.name, guild_id=guild_id, player=player,
        )  # fmt: skip
    finally:
        await service.close()
    assert record.face is Face.TERMINAL
    return record, out.getvalue()


def cli_env(tmp_path: Path) -> dict[str, str]:
    """The command's environment, its database a fresh file of the test's."""
    return {**os.environ, "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/cli.sqlite3"}


@SESSION
async def test_checkout_with_retries_and_summary(store: Store, evaluator: Evaluator) -> None:
    lines = ["43+89", "34+8x", "34+89", "2*47+6", "7/0+01", "700+1", ":q"]
    record, text = await played(store, evaluator, CLASSIC, lines, ["3489", "2476", "7001"] * 3)
    state = record.state
    assert "the digits read are 4, 3, 8, and 9, but the round's number is 3489" in text
    assert "`x` at column 5 is not an allowed function" in text
    assert "DivisionByZeroError" in text
    assert "34+89 = 123 (int) → 77 points, score 424" in text
    assert "2*47+6 = 100 (int) → 150 points, score 274" in text
    # 701 is 601 from the Goal: |100 - 601| = 501 points, and |274 - 501| = 227.
    assert [r.answers[0].score for r in state.rounds[:3] if r.answers[0]] == [424, 274, 227]
    assert state.outcome is not None
    assert state.outcome.termination is rules.Termination.RESIGN
    assert "round  digits" in text


@SESSION
async def test_real_checkout_is_a_win(store: Store, evaluator: Evaluator) -> None:
    record, text = await played(store, evaluator, CLASSIC, ["700+1"], ["7001"])
    assert record.state.outcome == rules.Outcome(rules.Termination.CHECKOUT, 0, 1, True)
    assert "PERFECT" in text
    stored = await store.games.load_game(record.state.id)  # the service saved it, face and all
    assert stored is not None and stored.face is Face.TERMINAL and not stored.active


@SESSION
async def test_timeout_loses(store: Store, evaluator: Evaluator) -> None:
    record, text = await played(store, evaluator, CLASSIC, ["34+8", None], ["3489"])
    assert record.state.outcome is not None
    assert record.state.outcome.termination is rules.Termination.TIMEOUT
    assert "time is up" in text and "the game is lost" in text


@SESSION
async def test_resign_loses(store: Store, evaluator: Evaluator) -> None:
    record, _ = await played(store, evaluator, CLASSIC, [":q"], ["3489"])
    assert record.state.outcome is not None
    assert rules.is_loss(record.state.outcome)


def test_cli_play_through_a_pipe(tmp_path: Path) -> None:
    """The real command, as a player would type into it (a fresh random game, resigned)."""
    proc = subprocess.run(
        [sys.executable, "-m", "bot.cli", "play", "--set", "blitz"],
        input="1+1\n:q\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=ROOT,
        env=cli_env(tmp_path),
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


@SESSION
async def test_summary_shows_every_number_whole_as_php_prints_it(
    store: Store, evaluator: Evaluator
) -> None:
    lines = ["pow(77,36)", "70/20", ":q"]
    _, text = await played(store, evaluator, CLASSIC, lines, ["7736", "7020", "1111"])
    summary = text[text.index("round  digits") :]
    assert "8.197210849721839E+67" in summary  # var_export's form, never cut
    assert "3.5" in summary
    assert "You resigned" in summary


def test_cli_play_ends_at_end_of_input_even_from_dev_null(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "bot.cli", "play"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
        env=cli_env(tmp_path),
    )
    assert proc.returncode == 0, proc.stderr
    assert "input ended" in proc.stdout
    assert "You resigned" in proc.stdout


@SESSION
async def test_each_round_shows_the_best_possible_answer(
    store: Store,
    evaluator: Evaluator,
    solver,  # type: ignore[no-untyped-def]
) -> None:
    from bot.solving import ConfirmedSolver

    revealer = ConfirmedSolver(solver, evaluator)
    await revealer.prepare("3489", CLASSIC)  # the round's solve is then quick: a loaded
    # machine still meets the service's reveal wait, the same as Discord's
    _, text = await played(store, evaluator, CLASSIC, ["34+89", ":q"], ["3489"], revealer=revealer)
    shown = text.split("best possible: ", 1)[1].splitlines()[0]
    formula, _, rest = shown.partition(" = ")
    verdict = await evaluator.evaluate(formula, "3489", CLASSIC.functions)
    assert isinstance(verdict, Evaluation)  # real PHP computes what is shown
    _points, score = rules.apply_points(
        501, verdict.value, CLASSIC.goal, CLASSIC.bonus, numbers=CLASSIC.language_rules
    )
    assert rest.endswith(f"score {rules.php_text(score, zero_fraction=False)}")
    assert float(score) <= 424  # no worse than what the player found


@SESSION
async def test_a_refused_start_is_one_clear_line(store: Store, evaluator: Evaluator) -> None:
    """Too many starts in a short time: the terminal says when the next may start, in
    words and a clock time, never Discord's markup or a traceback."""
    from bot.play import GameError, Refusal
    from bot.terminal._game import refusal

    said = refusal(GameError(Refusal.COOLDOWN, expires=1_800_000_000.0))
    assert said.startswith("  ✗ You have started a lot of games") and "<t:" not in said
    assert ":" in said.rsplit("at ", 1)[1]
    for _ in range(6):  # one quick resign is no start: the sixth game starts
        await played(store, evaluator, CLASSIC, [":q"], ["3489"])
    with pytest.raises(GameError) as refused:
        await played(store, evaluator, CLASSIC, [":q"], ["3489"])
    assert refused.value.code is Refusal.COOLDOWN
