"""Training in a terminal: the same rules and the same PHP sandbox, no Discord.

It is what `formula-darts play` runs and what `formula-darts run` falls back to
without a token, so a fresh clone can play a real game with nothing set up.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import TextIO

import rules
from evaluator.result import EvalError, Evaluation
from rules import GameSet, GameState, Mode

Evaluate = Callable[[str, str, tuple[str, ...]], Awaitable[Evaluation | EvalError]]
ReadLine = Callable[[float], Awaitable[str | None]]

RESIGN_WORDS = {":q", "quit", "resign", "exit"}


def _fmt(value: rules.Number) -> str:
    if isinstance(value, float):
        text = repr(value)
        return text[:-2] if text.endswith(".0") and "e" not in text else text
    return str(value)


def describe_error(error: EvalError, formula: str) -> str:
    """The error with a caret under the column it names, as a compiler would."""
    lines = [f"  ✗ {error.code.value}: {error.message}"]
    if error.php_class:
        lines[0] = f"  ✗ PHP {error.php_class}: {error.message}"
    if error.position is not None and 0 < error.position <= len(formula) + 1:
        lines.append(f"    {formula}")
        lines.append("    " + " " * (error.position - 1) + "^")
    return "\n".join(lines)


def summary(state: GameState) -> str:
    """Every round in a table, then the outcome."""
    rows = [" round  digits  formula                 result        points   score"]
    for rnd in state.rounds:
        answer = rnd.answers[0]
        if answer is None:
            rows.append(f" {rnd.number:>5}  {rnd.digits:>6}  {'(no answer)':<22}")
            continue
        rows.append(
            f" {rnd.number:>5}  {rnd.digits:>6}  {answer.formula[:22]:<22}  "
            f"{_fmt(answer.result)[:12]:>12}  {_fmt(answer.points)[:7]:>7}  {_fmt(answer.score):>6}"
        )
    result = state.outcome
    if result is None:
        rows.append("Game not finished.")
    elif result.termination is rules.Termination.CHECKOUT:
        perfect = " — PERFECT game!" if result.perfect else ""
        rows.append(f"Checkout in {result.rounds} round(s){perfect}. You win.")
    elif result.termination is rules.Termination.MAX_ROUNDS:
        rows.append(
            f"All {result.rounds} rounds played, {_fmt(state.scores[0])} left: finished "
            "(counts as a win, below every checkout)."
        )
    elif result.termination is rules.Termination.TIMEOUT:
        rows.append("Time ran out: the game is lost.")
    else:
        rows.append("You resigned: the game is lost.")
    return "\n".join(rows)


async def play(
    game_set: GameSet,
    evaluate: Evaluate,
    read_line: ReadLine,
    out: TextIO,
    *,
    digits_source: Callable[[], str] = rules.random_digits,
    clock: Callable[[], float] = time.time,
) -> GameState:
    """Play one Training game; the I/O is injected so tests can drive it."""
    state = rules.new_game(uuid.uuid4().hex, Mode.TRAINING, game_set, ["you"])
    print(
        f"Formula Darts — {game_set.name}: Score {game_set.start_score}, Goal {game_set.goal}, "
        f"Bonus {game_set.bonus}, {game_set.max_rounds} rounds, {game_set.time_limit} s each.\n"
        f"Functions: {', '.join(game_set.functions)}. Type a PHP formula using the digits in "
        "order; ':q' resigns.",
        file=out,
    )
    while state.outcome is None:
        state = rules.apply(state, rules.StartRound(digits_source(), clock()))
        rnd = state.current_round
        assert rnd is not None
        print(
            f"\nRound {rnd.number}/{game_set.max_rounds} · Score {_fmt(state.scores[0])} · "
            f"Digits {rnd.digits} · {game_set.time_limit} s",
            file=out,
        )
        while state.current_round is not None:
            left = rnd.deadline - clock()
            line = await read_line(left) if left > 0 else None
            if line is None:
                state = rules.apply(state, rules.Expire(max(clock(), rnd.deadline)))
                print("  ⏱ time is up.", file=out)
                break
            formula = line.strip()
            if formula.lower() in RESIGN_WORDS:
                state = rules.apply(state, rules.Resign("you"))
                break
            if not formula:
                continue
            verdict = await evaluate(formula, rnd.digits, game_set.functions)
            if isinstance(verdict, EvalError):
                print(describe_error(verdict, formula), file=out)
                print(f"  try again ({max(0, round(rnd.deadline - clock()))} s left)", file=out)
                continue
            try:
                state = rules.apply(
                    state, rules.Submit("you", verdict.formula, verdict.value, clock())
                )
            except rules.DeadlinePassed:
                state = rules.apply(state, rules.Expire(clock()))
                print("  ⏱ too late: the deadline passed.", file=out)
                break
            answer = state.rounds[-1].answers[0]
            assert answer is not None
            print(
                f"  ✓ {verdict.formula} = {_fmt(verdict.value)} ({verdict.php_type}) → "
                f"{_fmt(answer.points)} points, score {_fmt(answer.score)}",
                file=out,
            )
    print("\n" + summary(state), file=out)
    return state


async def _stdin_reader() -> ReadLine:
    """A deadline-aware line reader on stdin without a thread left blocking."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    try:
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    except (ValueError, OSError):  # a regular file: epoll can't watch it, a thread can

        async def read_blocking(seconds: float) -> str | None:
            try:
                line = await asyncio.wait_for(asyncio.to_thread(sys.stdin.readline), seconds)
            except TimeoutError:
                return None
            return line or ":q"

        return read_blocking

    async def read(seconds: float) -> str | None:
        sys.stdout.write("formula> ")
        sys.stdout.flush()
        try:
            raw = await asyncio.wait_for(reader.readline(), seconds)
        except TimeoutError:
            sys.stdout.write("\n")
            return None
        return raw.decode("utf-8", "replace") if raw else ":q"

    return read


async def play_terminal(set_name: str | None = None, sets_file: str | None = None) -> int:
    """Load the Sets, open the sandbox, play one game; returns an exit code."""
    from evaluator import open_evaluator

    try:
        sets = rules.load_sets(sets_file)
    except rules.SetsError as exc:
        print(f"Sets file problems:\n{exc}", file=sys.stderr)
        return 1
    name = set_name or "darts"
    if name not in sets:
        print(f"No Set named {name!r}; choose one of: {', '.join(sets)}", file=sys.stderr)
        return 2
    try:
        evaluator = await open_evaluator()
    except RuntimeError as exc:
        print(f"Cannot start the PHP sandbox: {exc}", file=sys.stderr)
        return 1
    try:
        read_line = await _stdin_reader()
        await play(sets[name], evaluator.evaluate, read_line, sys.stdout)
    finally:
        with contextlib.suppress(Exception):
            await evaluator.close()
    return 0


def run_terminal(set_name: str | None = None, sets_file: str | None = None) -> int:
    return asyncio.run(play_terminal(set_name, sets_file))
