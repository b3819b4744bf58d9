"""`formula-darts eval`: judge formulas with real PHP, one on the command line or a JSONL stream.

The stream mode (`_stream`) is for tools and replays: tens of thousands of lines
per second, exactly one output line per input line, in order, and never a
traceback. Lines are split in linear time however long they are (`_lines`).

Only what the command needs is imported: the evaluator and the Sets, not the bot
(past its entry point), pydantic, the Docker SDK (`EVALUATOR=auto` takes the local
sandbox when it can run), the rules' game machines or the solver's process (`rules` and
`solver` load their parts when asked), so a run starts in under 20 cold `php -r` runs'
time (docs/BENCHMARKS.md, tests/evaluator/test_cli_eval_hostile.py).

A formula may start with `-` (`-pow(10,3)`, as the solver writes them), which
argparse would take for an option: `dash_formula` passes such a word on as
`--formula=<word>`, and `--` still ends the options.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from evaluator.cli._stream import in_language, stream
from evaluator.language import language
from evaluator.result import EvalError
from evaluator.sandbox.local import LocalWorkerFactory, SandboxUnavailable
from evaluator.sandbox.pool import SandboxStartError
from evaluator.service import Evaluator, error_text, make_pool, open_evaluator
from evaluator.settings import EvaluatorSettings, SettingsError
from rules.digits import valid_digits
from rules.game_set import FormulaLanguage
from rules.scoring import apply_points
from rules.sets import CLASSIC, GameSet, SetsError, load_sets

_NEGATIVE_NUMBER = re.compile(r"^-\d+$|^-\d*\.\d+$")  # argparse reads these as values


def _options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("formula", nargs="?", help="the formula, e.g. '34+89'")
    parser.add_argument(
        "--formula",
        dest="formula_option",
        metavar="FORMULA",
        help="the formula, also one starting with '-' (a bare '-pow(10,3)' works too)",
    )
    parser.add_argument("--digits", help="the round's four digits, e.g. 3489")
    parser.add_argument("--set", dest="set_name", default=CLASSIC.name, help="Set name (darts)")
    parser.add_argument("--score", type=float, help="Score before the round: show points")
    parser.add_argument("--sets-file", type=Path, help="a Sets file instead of sets.yaml")
    parser.add_argument(
        "--language",
        choices=[lang.value for lang in FormulaLanguage],
        help="the formula language (default: the Set's); another language than the Set's "
        "brings that language's default functions",
    )
    parser.add_argument(
        "--jsonl", action="store_true", help="read JSON lines on stdin, write one per line"
    )


def register(sub: Any) -> None:  # argparse._SubParsersAction
    parser = sub.add_parser(
        "eval",
        help="judge formulas with real PHP",
        description="Judge a formula as the game does: the checker, then PHP in the sandbox "
        "(EVALUATOR=auto: the local one when it can run, else Docker).",
    )
    _options(parser)
    parser.set_defaults(func=run)


def dash_formula(words: Sequence[str]) -> list[str]:
    """`eval`'s words with a bare formula starting with `-` passed as `--formula=<word>`.

    argparse takes a word starting with `-` for an option unless it is a negative
    number, so `eval --digits 1034 -pow(10,3)` was refused. A single-dash word
    that is none of eval's options is the formula; words after `--` are left
    alone (positional, as argparse reads them), and so is any other command.
    """
    if list(words[:1]) != ["eval"]:
        return list(words)
    probe = argparse.ArgumentParser(add_help=True)
    _options(probe)
    known = probe._option_string_actions  # argparse has no public table of them
    out = ["eval"]
    rest = list(words[1:])
    wants_value = False
    for index, word in enumerate(rest):
        if word == "--":
            out += rest[index:]
            break
        dashed = (
            word.startswith("-")
            and not word.startswith("--")
            and len(word) > 1
            and word.split("=", 1)[0] not in known
            and not _NEGATIVE_NUMBER.match(word)
        )
        if dashed and wants_value:  # `--formula -pow(1,0)+34`: the option's own value
            out[-1] = f"{out[-1]}={word}"
        else:
            out.append(f"--formula={word}" if dashed else word)
        action = known.get(word)
        wants_value = action is not None and action.nargs != 0 and not dashed
    return out


def run(args: argparse.Namespace) -> int:
    if args.formula_option is not None:
        if args.formula is not None:
            print("formula-darts eval: give the formula once", file=sys.stderr)
            return 2
        args.formula = args.formula_option
    try:
        sets = load_sets(args.sets_file)
    except SetsError as exc:
        print(f"formula-darts eval: {exc}", file=sys.stderr)
        return 2
    if args.language is not None:
        chosen = FormulaLanguage(args.language)
        sets = {name: in_language(s, chosen) for name, s in sets.items()}
    if args.jsonl:
        if args.formula is not None:
            print("formula-darts eval: --jsonl reads formulas from stdin only", file=sys.stderr)
            return 2
        return asyncio.run(_with_evaluator(lambda ev: stream(ev, sets, sys.stdin, sys.stdout)))
    if args.formula is None or args.digits is None:
        print("formula-darts eval: give --digits and a formula (or --jsonl)", file=sys.stderr)
        return 2
    if not valid_digits(args.digits):
        print(
            "formula-darts eval: --digits must be four digits from 1000 to 9999, "
            f"got {args.digits!r}",
            file=sys.stderr,
        )
        return 2
    game_set = sets.get(args.set_name)
    if game_set is None:
        print(f"formula-darts eval: no Set named {args.set_name!r}", file=sys.stderr)
        return 2
    if args.score is not None and not (math.isfinite(args.score) and args.score >= 0):
        print("formula-darts eval: --score must be a finite number, 0 or more", file=sys.stderr)
        return 2
    score = None if args.score is None else _as_number(args.score)
    return asyncio.run(
        _with_evaluator(lambda ev: _one(ev, args.formula, args.digits, game_set, score))
    )


def _as_number(value: float) -> int | float:
    return int(value) if value.is_integer() else value


async def _open(settings: EvaluatorSettings) -> Evaluator:
    """The local sandbox unless EVALUATOR=docker, or auto finds no php or bubblewrap here:
    then the evaluator's own choice, which imports the Docker SDK only for that."""
    if settings.evaluator != "docker":
        try:
            local = LocalWorkerFactory(settings)
        except SandboxUnavailable:
            if settings.evaluator == "local":
                raise
        else:
            pool = make_pool(local, settings)
            await pool.start()
            return Evaluator(
                pool, f"EVALUATOR={settings.evaluator}: local ({local.name})", settings=settings
            )
    return await open_evaluator(settings)


async def _with_evaluator(body: Callable[[Evaluator], Any]) -> int:
    try:
        settings = EvaluatorSettings()
    except SettingsError as exc:  # a bad POOL_SIZE and the like: one line, not a traceback
        print(f"formula-darts eval: {exc}", file=sys.stderr)
        return 2
    try:
        evaluator = await _open(settings)
    except (SandboxUnavailable, SandboxStartError) as exc:
        print(f"formula-darts eval: {exc}", file=sys.stderr)
        return 3
    async with evaluator:
        code: int = await body(evaluator)
        return code


async def _one(
    evaluator: Evaluator, formula: str, digits: str, game_set: GameSet, score: int | float | None
) -> int:
    verdict = await evaluator.evaluate(formula, digits, game_set)
    if isinstance(verdict, EvalError):
        print(f"{formula}: invalid {error_text(verdict)}")
        return 1
    lang = language(game_set.language)
    print(f"{verdict.formula} = {lang.show(verdict.value)} ({lang.type_name(verdict.value)})")
    if score is not None:
        points, new_score = apply_points(
            score, verdict.value, game_set.goal, game_set.bonus, numbers=game_set.language_rules
        )
        shown = lang.show
        print(f"points {shown(points)}, score {shown(score)} → {shown(new_score)}")
    return 0
