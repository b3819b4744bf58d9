"""Training in a terminal: the same rules and the same sandbox (PHP, or node for a
JavaScript Set), no Discord.

It is what `formula-darts play` runs and what `formula-darts run` falls back to
without a token, so a fresh clone can play a real game with nothing set up.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import stat
import sys
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import TextIO

import rules
from bot.solving import ConfirmedSolver
from evaluator.language import language
from evaluator.result import EvalError, Evaluation
from rules import GameSet, GameState, Mode
from solver.process import SolverProcess
from solver.result import Candidate

Evaluate = Callable[[str, str, GameSet], Awaitable[Evaluation | EvalError]]
"""`Evaluator.evaluate`: the Set decides the language (its checker and its sandbox)."""
ReadLine = Callable[[float], Awaitable[str | None]]

RESIGN = ":q"
PROMPT = "formula> "
RESIGN_WORDS = {RESIGN, "quit", "resign", "exit"}
REVEAL_WAIT_S = 2.0
"""How long a round's result waits for its best answer (solved while the round ran)."""


def _fmt(value: rules.Number, lang: rules.FormulaLanguage) -> str:
    """As the Set's language prints it (PHP's echo, JavaScript's String), like the
    Discord front end; the result line names the type."""
    return language(lang).echo(value)


FORMULA_COLUMN = 40


def describe_error(
    error: EvalError, formula: str, lang: rules.FormulaLanguage = rules.FormulaLanguage.PHP
) -> str:
    """The error with a caret under the column it names, as a compiler would; an error
    the language raised names its class as the language does (`PHP DivisionByZeroError`,
    `JavaScript SyntaxError`)."""
    lines = [f"  ✗ {error.code.value}: {error.message}"]
    if error.error_class:
        lines[0] = f"  ✗ {language(lang).label} {error.error_class}: {error.message}"
    if error.position is not None and 0 < error.position <= len(formula) + 1:
        lines.append(f"    {formula}")
        lines.append("    " + " " * (error.position - 1) + "^")
    return "\n".join(lines)


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    """Columns as wide as their widest cell: every number is shown whole."""
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    left = {2}  # the formula column reads better left-aligned
    return [
        "  ".join(
            c.ljust(w) if i in left else c.rjust(w)
            for i, (c, w) in enumerate(zip(r, widths, strict=True))
        ).rstrip()
        for r in [header, *rows]
    ]


def _short(formula: str) -> str:
    return formula if len(formula) <= FORMULA_COLUMN else formula[: FORMULA_COLUMN - 1] + "…"


def summary(state: GameState) -> str:
    """Every round in a table, then the outcome."""
    lang = state.game_set.language
    body: list[list[str]] = []
    for rnd in state.rounds:
        answer = rnd.answers[0]
        if answer is None:
            body.append([str(rnd.number), rnd.digits, "(no answer)", "", "", ""])
        else:
            body.append(
                [
                    str(rnd.number),
                    rnd.digits,
                    _short(answer.formula),
                    _fmt(answer.result, lang),
                    _fmt(answer.points, lang),
                    _fmt(answer.score, lang),
                ]
            )
    rows = _table(["round", "digits", "formula", "result", "points", "score"], body)
    result = state.outcome
    if result is None:
        rows.append("Game not finished.")
    elif result.termination is rules.Termination.CHECKOUT:
        perfect = " — PERFECT game!" if result.perfect else ""
        rows.append(f"Checkout in {result.rounds} round(s){perfect}. You win.")
    elif result.termination is rules.Termination.MAX_ROUNDS:
        rows.append(
            f"All {result.rounds} rounds played, {_fmt(state.scores[0], lang)} left: finished "
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
    revealer: ConfirmedSolver | None = None,
) -> GameState:
    """Play one Training game; the I/O is injected so tests can drive it.

    With a `revealer`, each round's best answer is solved while the round is played and
    shown after it (waited for at most REVEAL_WAIT_S: a slow solve is skipped)."""
    state = rules.new_game(uuid.uuid4().hex, Mode.TRAINING, game_set, ["you"])
    lang = language(game_set.language)
    print(
        f"Formula Darts — {game_set.name}: Score {game_set.start_score}, Goal {game_set.goal}, "
        f"Bonus {game_set.bonus}, {game_set.max_rounds} rounds, {game_set.time_limit} s each.\n"
        f"Functions: {', '.join(game_set.functions)}. Type a {lang.label} formula using the "
        "digits in order; ':q' resigns.",
        file=out,
    )
    while state.outcome is None:
        state = rules.apply(state, rules.StartRound(digits_source(), clock()))
        rnd = state.current_round
        assert rnd is not None
        best = (
            None
            if revealer is None
            else asyncio.ensure_future(revealer.best(rnd.digits, state.scores[0], game_set))
        )
        print(
            f"\nRound {rnd.number}/{game_set.max_rounds} · Score "
            f"{_fmt(state.scores[0], lang.key)} · "
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
            verdict = await evaluate(formula, rnd.digits, game_set)
            if isinstance(verdict, EvalError):
                print(describe_error(verdict, formula, lang.key), file=out)
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
                f"  ✓ {verdict.formula} = {_fmt(verdict.value, lang.key)} "
                f"({lang.type_name(verdict.value)}) → "
                f"{_fmt(answer.points, lang.key)} points, score {_fmt(answer.score, lang.key)}",
                file=out,
            )
        if best is not None:
            await _show_best(best, out, lang.key)
    print("\n" + summary(state), file=out)
    return state


async def _show_best(
    best: asyncio.Future[Candidate | None], out: TextIO, lang: rules.FormulaLanguage
) -> None:
    try:
        found = await asyncio.wait_for(best, REVEAL_WAIT_S)
    except TimeoutError:
        return
    if found is not None:
        print(
            f"  best possible: {found.formula} = {_fmt(found.value, lang)} → "
            f"score {_fmt(found.score, lang)}",
            file=out,
        )


def _terminal_reader(out: TextIO) -> ReadLine:
    """Lines typed at a terminal, with line editing: arrows, Home/End, history (Up).

    prompt_toolkit rather than the stdlib's readline: `input()` cannot be
    interrupted at a deadline, while a prompt_toolkit prompt is a coroutine the
    clock cancels, leaving the terminal as it found it. Ctrl-D resigns, as end
    of input does; Ctrl-C stops the command as before.
    """
    from prompt_toolkit import PromptSession

    session: PromptSession[str] = PromptSession()

    async def read(seconds: float) -> str | None:
        try:
            return await asyncio.wait_for(session.prompt_async(PROMPT), seconds)
        except TimeoutError:
            return None
        except EOFError:
            print("(input ended: resigning)", file=out)
            return RESIGN

    return read


async def _stdin_reader(out: TextIO) -> ReadLine:
    """A deadline-aware line reader on stdin.

    A terminal gets line editing (`_terminal_reader`). Pipes and sockets are
    watched by the event loop, so a timeout leaves nothing blocked behind;
    anything else (a file, /dev/null) can't be watched, but never blocks
    either, so a thread reads it. End of input resigns the game instead of
    waiting for the clock.
    """
    if sys.stdin.isatty() and sys.stdout.isatty():
        return _terminal_reader(out)
    interactive = sys.stdin.isatty()
    mode = os.fstat(sys.stdin.fileno()).st_mode
    next_line: Callable[[], Awaitable[str | None]]
    if interactive or stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
        reader = asyncio.StreamReader()
        loop = asyncio.get_running_loop()
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)

        async def next_line() -> str | None:
            raw = await reader.readline()
            return raw.decode("utf-8", "replace") if raw else None

    else:

        async def next_line() -> str | None:
            return await asyncio.to_thread(sys.stdin.readline) or None

    async def read(seconds: float) -> str | None:
        if interactive:
            out.write(PROMPT)
            out.flush()
        try:
            line = await asyncio.wait_for(next_line(), seconds)
        except TimeoutError:
            if interactive:
                out.write("\n")
            return None
        if line is None:
            print("(input ended: resigning)", file=out)
            return RESIGN
        if not interactive:
            print(f"{PROMPT}{line.rstrip()}", file=out)
        return line

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
        evaluator = await open_evaluator(languages=[sets[name].language])
    except RuntimeError as exc:
        label = language(sets[name].language).label
        print(f"Cannot start the {label} sandbox: {exc}", file=sys.stderr)
        return 1
    try:
        async with SolverProcess() as solver:
            read_line = await _stdin_reader(sys.stdout)
            revealer = ConfirmedSolver(solver, evaluator)
            await play(sets[name], evaluator.evaluate, read_line, sys.stdout, revealer=revealer)
    finally:
        with contextlib.suppress(Exception):
            await evaluator.close()
    return 0


def run_terminal(set_name: str | None = None, sets_file: str | None = None) -> int:
    return asyncio.run(play_terminal(set_name, sets_file))
