"""`formula-darts solve`: the best formulas for Digits and a Score, or a JSONL stream of them.

The solver runs as the bot runs it: in a process of its own (`SolverProcess`) with the
bot's budgets, a deadline a query cannot outlive and a memory limit the kernel enforces
(`--timeout` and `--memory` change them); a query past either is an answer ("no answer:
over the memory limit"), not a process grown to 3 GiB. No PHP, no database, no Discord.
The stream mode answers one line per input line, in order, and never a traceback: a bad
line gets `{"ok": false, "error": {...}}`. Digits' tables and answers are cached: a line
answered before costs a lookup, a new Score on Digits seen before a query (about 20 ms,
docs/BENCHMARKS.md), new Digits a cold solve. Numbers are shown in the Set's language:
PHP's `-402` (int) or `0.5` (float), JavaScript's `-402` (number).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import sys
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from rules.digits import valid_digits
from rules.scoring import Number, php_equal
from rules.sets import CLASSIC, GameSet, SetsError, load_sets
from solver.result import SolveFailure

if TYPE_CHECKING:
    from solver.process import SolverProcess
    from solver.result import Candidate

_ANSWERS = 65536


def register(sub: Any) -> None:  # argparse._SubParsersAction
    parser = sub.add_parser(
        "solve",
        help="the best formulas for Digits and a Score",
        description="Search every formula of the Set's grammar for the smallest new Score.",
    )
    parser.add_argument("digits", nargs="?", help="the round's four digits, e.g. 3489")
    parser.add_argument("--score", type=float, help="Score before the round (the Set's start)")
    parser.add_argument("--set", dest="set_name", default=CLASSIC.name, help="Set name (darts)")
    parser.add_argument("--top", type=int, default=5, help="how many distinct Results (5)")
    parser.add_argument("--sets-file", type=Path, help="a Sets file instead of sets.yaml")
    parser.add_argument(
        "--jsonl", action="store_true", help="read JSON lines on stdin, write one per line"
    )
    parser.add_argument(
        "--timeout", type=float, help="seconds a query may take (the bot's budget by default)"
    )
    parser.add_argument(
        "--memory", type=int, help="MiB the solver process may use (the bot's by default)"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    try:
        sets = load_sets(args.sets_file)
    except SetsError as exc:
        print(f"formula-darts solve: {exc}", file=sys.stderr)
        return 2
    problem = _check_budget(args)
    if args.jsonl and args.digits is not None:
        problem = "--jsonl reads Digits from stdin only"
    elif not args.jsonl:
        problem = problem or _check_args(args, sets)
    if problem:
        print(f"formula-darts solve: {problem}", file=sys.stderr)
        return 2
    return asyncio.run(_main(args, sets))


async def _main(args: argparse.Namespace, sets: dict[str, GameSet]) -> int:
    from solver.process import SolverProcess

    budget: dict[str, Any] = {}
    if args.timeout is not None:
        budget["timeout_s"] = args.timeout
    if args.memory is not None:
        budget["memory_mb"] = args.memory
    async with SolverProcess(**budget) as solver:  # without flags: as the bot makes it
        if args.jsonl:
            return await _stream(solver, sets, sys.stdin, sys.stdout)
        return await _solve_once(solver, args, sets[args.set_name])


async def _solve_once(solver: SolverProcess, args: argparse.Namespace, game_set: GameSet) -> int:
    score = game_set.start_score if args.score is None else _as_number(args.score)
    solution = await solver.best(args.digits, score, game_set, top=_SHARES * args.top)
    if isinstance(solution, SolveFailure):
        print(f"formula-darts solve: no answer: {solution.message}", file=sys.stderr)
        return 1
    shown = _Shown(game_set)
    print(f"{args.digits}, Score {shown.echo(score)}, Set {game_set.name}:")
    for rank, c in enumerate(_by_number(solution.candidates, args.top), 1):
        print(
            f"{rank}. {c.formula} = {shown.value(c.value)} ({shown.type_name(c.value)}), "
            f"points {shown.value(c.points)}, new Score {shown.value(c.score)}"
        )
    return 0


class _Shown:
    """Numbers as the Set's language prints them: its `rules.languages.LanguageRules`, the
    part of the registration the solver may load (not the evaluator's bundle)."""

    def __init__(self, game_set: GameSet) -> None:
        self.rules = game_set.language_rules

    def value(self, value: Number) -> str:
        return self.rules.show(value)

    def echo(self, value: Number) -> str:
        return self.rules.echo(value)

    def type_name(self, value: Number) -> str:
        return self.rules.type_name(value)

    def json(self, value: Number) -> str:
        return self.rules.json_number(value)


_SHARES = 3
"""The most PHP Results one number has: 0, 0.0 and -0.0 (other numbers an int and a float)."""


def _by_number(candidates: Sequence[Candidate], top: int) -> list[Candidate]:
    """The first `top` candidates with different numbers: the solver tells PHP's int 449
    from the float 449.0 (a reveal falls back from one to the other if PHP disagrees),
    but to a reader they are one Result, and the first (the shorter) stands for both."""
    shown: list[Candidate] = []
    for candidate in candidates:
        if len(shown) < top and not any(php_equal(c.value, candidate.value) for c in shown):
            shown.append(candidate)
    return shown


def _check_budget(args: argparse.Namespace) -> str | None:
    if args.timeout is not None and not (math.isfinite(args.timeout) and args.timeout > 0):
        return "--timeout must be a number of seconds above 0"
    if args.memory is not None and args.memory <= _LEAST_MEMORY_MB:
        return f"--memory must be more than {_LEAST_MEMORY_MB} MiB"
    return None


_LEAST_MEMORY_MB = 96
"""What a solver process keeps free for one call (solver.process.CALL_PEAK_MIB)."""


def _check_args(args: argparse.Namespace, sets: dict[str, GameSet]) -> str | None:
    if args.digits is None:
        return "give the Digits (e.g. 3489) or --jsonl"
    if not valid_digits(args.digits):
        return f"Digits are four digits from 1000 to 9999, got {args.digits!r}"
    if args.set_name not in sets:
        return f"no Set named {args.set_name!r}"
    if args.score is not None and not (math.isfinite(args.score) and args.score >= 0):
        return "--score must be a finite number, 0 or more"
    if args.top < 1:
        return "--top must be at least 1"
    return None


def _as_number(value: float) -> int | float:
    return int(value) if value.is_integer() and abs(value) < 2**63 else value


class _InputError(ValueError):
    pass


def _parse(line: str, sets: dict[str, GameSet]) -> tuple[str, int | float, GameSet]:
    try:
        data = json.loads(line)
    except ValueError as exc:
        raise _InputError(f"not a JSON line: {exc}") from None
    except RecursionError:  # `[[[[...` deeper than the parser's stack
        raise _InputError("not a JSON line: nested too deep") from None
    if not isinstance(data, dict):
        raise _InputError("expected a JSON object")
    digits = data.get("digits")
    if isinstance(digits, int) and not isinstance(digits, bool):
        digits = str(digits)
    if not isinstance(digits, str) or not valid_digits(digits):
        raise _InputError(f'"digits" must be four digits from 1000 to 9999, got {digits!r}')
    name = data.get("set", CLASSIC.name)
    game_set = sets.get(name) if isinstance(name, str) else None
    if game_set is None:
        raise _InputError(f"no Set named {name!r}")
    score = data.get("score", game_set.start_score)
    if (
        isinstance(score, bool)
        or not isinstance(score, int | float)
        or not math.isfinite(score)
        or score < 0
        or (isinstance(score, int) and score >= 2**63)
    ):
        raise _InputError('"score" must be a finite number, 0 or more')
    return digits, score, game_set


def _error_line(code: str, message: str) -> str:
    return json.dumps({"ok": False, "error": {"code": code, "message": message}})


async def _answer(
    solver: SolverProcess, line: str, sets: dict[str, GameSet], memo: OrderedDict[Any, str]
) -> str:
    if not line.strip():
        return _error_line("input", "empty line")
    try:
        digits, score, game_set = _parse(line, sets)
    except _InputError as exc:
        return _error_line("input", str(exc))
    key = (digits, type(score), score, game_set)
    cached = memo.get(key)
    if cached is not None:
        memo.move_to_end(key)
        return cached
    solution = await solver.best(digits, score, game_set)
    if isinstance(solution, SolveFailure):  # not kept: a later line may be luckier
        return _error_line(solution.reason.value, solution.message)
    best = solution.best
    shown = _Shown(game_set)
    out = (
        f'{{"ok": true, "formula": {json.dumps(best.formula)}, '
        f'"type": "{shown.type_name(best.value)}", "value": {shown.json(best.value)}, '
        f'"points": {shown.json(best.points)}, "score": {shown.json(best.score)}}}'
    )
    memo[key] = out
    if len(memo) > _ANSWERS:
        memo.popitem(last=False)
    return out


async def _stream(
    solver: SolverProcess, sets: dict[str, GameSet], source: IO[str], sink: IO[str]
) -> int:
    """One output line per input line, each flushed (a tool may wait for it); `| head` ends
    quietly."""
    memo: OrderedDict[Any, str] = OrderedDict()
    try:
        for line in source:
            try:
                out = await _answer(solver, line, sets, memo)
            except Exception as exc:  # a solver bug answers this line and keeps the stream
                out = _error_line("internal", f"{type(exc).__name__}: {exc}")
            sink.write(out + "\n")
            sink.flush()
    except BrokenPipeError:
        _silence(sink)
    return 0


def _silence(sink: IO[str]) -> None:
    import contextlib
    import os

    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sink.fileno())
        os.close(devnull)
