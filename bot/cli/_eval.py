"""`formula-darts eval`: judge formulas with real PHP, one on the command line or a JSONL stream.

The stream mode is for tools and replays: tens of thousands of lines per
second, exactly one output line per input line, in order, and never a
traceback — a bad input line (blank, not JSON, nested too deep, longer than
MAX_LINE, not an object, a lone surrogate, a bad field) gets an error line
with code `input` and the lines after it are read as usual. Lines are split
in linear time however long they are. Numbers are read as PHP's json_decode
reads them: an integer beyond 64 bits is a float.

Only what the command needs is imported (the evaluator, rules; not the bot's
storage, pydantic-settings or the Docker SDK: `EVALUATOR=auto` takes the local
sandbox when it can run), so a run starts in a few cold `php -r` runs' time.

A formula may start with `-` (`-pow(10,3)`, as the solver writes them), which
argparse would take for an option: `dash_formula` passes such a word on as
`--formula=<word>`, and `--` still ends the options.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import math
import os
import re
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

from bot.cli._lines import MAX_LINE, Line, Overlong, read_lines
from evaluator import EvalError, Evaluation, Evaluator, EvaluatorSettings, open_evaluator
from evaluator.language import language
from evaluator.sandbox.local import LocalWorkerFactory, SandboxUnavailable
from evaluator.sandbox.pool import SandboxStartError
from evaluator.service import error_text, make_pool
from rules.digits import valid_digits
from rules.game_set import FormulaLanguage
from rules.scoring import INT_MAX, INT_MIN, apply_points
from rules.sets import CLASSIC, GameSet, SetsError, load_sets

"""Bytes of one input line (a valid one is under 1 KiB); a longer one is an `input`
error, and no more than this much of it is ever held."""
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
        sets = {name: _in_language(s, chosen) for name, s in sets.items()}
    if args.jsonl:
        if args.formula is not None:
            print("formula-darts eval: --jsonl reads formulas from stdin only", file=sys.stderr)
            return 2
        return asyncio.run(_with_evaluator(lambda ev: _stream(ev, sets, sys.stdin, sys.stdout)))
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


def _in_language(game_set: GameSet, chosen: FormulaLanguage) -> GameSet:
    """The Set's numbers in `chosen` (with that language's default functions if it is new)."""
    if game_set.language is chosen:
        return game_set
    functions = language(chosen).default_functions
    return dataclasses.replace(game_set, language=chosen, functions=functions)


def _as_number(value: float) -> int | float:
    return int(value) if value.is_integer() else value


async def _open() -> Evaluator:
    """The local sandbox unless EVALUATOR=docker, or auto finds no php or bubblewrap here:
    then the evaluator's own choice, which imports the Docker SDK only for that."""
    settings = EvaluatorSettings()
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
        evaluator = await _open()
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
        points, new_score = apply_points(score, verdict.value, game_set.goal, game_set.bonus)
        shown = lang.show
        print(f"points {shown(points)}, score {shown(score)} → {shown(new_score)}")
    return 0


class _InputError(ValueError):
    pass


def _text(value: object, field: str) -> object:
    """A JSON string that is not text (a lone surrogate such as "\\ud800") is refused."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            bad = value[exc.start].encode("unicode_escape").decode()
            raise _InputError(f'"{field}" holds a lone surrogate ({bad}), not text') from None
    return value


def _php_number(value: int | float) -> int | float:
    """As PHP's json_decode reads it: an integer outside 64 bits is a float (INF if huge)."""
    if isinstance(value, int) and not INT_MIN <= value <= INT_MAX:
        try:
            return float(value)
        except OverflowError:
            return math.inf if value > 0 else -math.inf
    return value


def _parse(line: Line, sets: dict[str, GameSet]) -> tuple[str, str, GameSet, int | float | None]:
    if isinstance(line, Overlong):
        raise _InputError(f"a line of {line.size} bytes; at most {MAX_LINE}")
    if not line.strip():
        raise _InputError("an empty line; expected a JSON object")
    try:
        data = json.loads(line.decode("utf-8"))
    except RecursionError:
        raise _InputError("not a JSON line: nested too deep") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise _InputError(f"not a JSON line: {exc}") from None
    if not isinstance(data, dict):
        raise _InputError("expected a JSON object")
    formula, digits = _text(data.get("formula"), "formula"), _text(data.get("digits"), "digits")
    if isinstance(digits, int) and not isinstance(digits, bool):
        digits = str(digits)
    if not isinstance(formula, str) or not isinstance(digits, str):
        raise _InputError('"formula" and "digits" must be strings')
    if not valid_digits(digits):
        raise _InputError(f'"digits" must be four digits from 1000 to 9999, got {digits!r}')
    name = _text(data.get("set", CLASSIC.name), "set")
    game_set = sets.get(name) if isinstance(name, str) else None
    if game_set is None:
        raise _InputError(f"no Set named {name!r}")
    chosen = _text(data.get("language", game_set.language.value), "language")
    if chosen not in [lang.value for lang in FormulaLanguage]:
        known = ", ".join(lang.value for lang in FormulaLanguage)
        raise _InputError(f'"language" must be one of {known}, got {chosen!r}')
    game_set = _in_language(game_set, FormulaLanguage(chosen))
    score = data.get("score")
    if isinstance(score, int) and not isinstance(score, bool):
        score = _php_number(score)
    if score is not None and (
        isinstance(score, bool)
        or not isinstance(score, int | float)
        or not math.isfinite(score)
        or score < 0
    ):
        raise _InputError('"score" must be a finite number, 0 or more')
    return formula, digits, game_set, score


async def _answer(evaluator: Evaluator, line: Line, sets: dict[str, GameSet]) -> str:
    try:
        formula, digits, game_set, score = _parse(line, sets)
    except _InputError as exc:
        return _error_line({"code": "input", "message": str(exc), "php_class": None})
    verdict = await evaluator.evaluate(formula, digits, game_set)
    if isinstance(verdict, EvalError):
        return _error_line({"php_class": None, **verdict.as_dict()})
    assert isinstance(verdict, Evaluation)
    value, lang = verdict.value, language(game_set.language)
    out = f'{{"ok": true, "type": "{lang.type_name(value)}", "value": {lang.json_number(value)}'
    if score is not None:
        points, new_score = apply_points(score, value, game_set.goal, game_set.bonus)
        out += f', "points": {lang.json_number(points)}, "score": {lang.json_number(new_score)}'
    return out + "}"


def _error_line(error: dict[str, object]) -> str:
    return _dump({"ok": False, "error": error})


def _dump(data: dict[str, Any]) -> str:
    """One output line; escaped to ASCII if it holds something that is not text."""
    line = json.dumps(data, ensure_ascii=False)
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(data)
    return line


async def _stream(
    evaluator: Evaluator, sets: dict[str, GameSet], source: IO[str], sink: IO[str]
) -> int:
    """Chunks of lines as the reader thread hands them over, each judged with every
    worker busy (requests pipelined) and printed in input order, flushed per chunk.

    One line typed interactively is a chunk of one: answered at once. A reader
    that goes away (`| head`) stops the pipeline quietly."""
    loop = asyncio.get_running_loop()
    batches: asyncio.Queue[list[Line] | None] = asyncio.Queue(maxsize=4)
    stop = threading.Event()
    thread = threading.Thread(target=read_lines, args=(source, loop, batches, stop), daemon=True)
    thread.start()
    pool = evaluator.pool
    lanes = max(1, min(pool.size * 16, pool.size + pool.queue_limit))
    while (lines := await batches.get()) is not None:
        if stop.is_set():
            continue  # keep draining so the reader thread never blocks
        out = await _answer_all(evaluator, lines, sets, lanes)
        try:
            sink.write("".join(line + "\n" for line in out))
            sink.flush()
        except BrokenPipeError:
            stop.set()
            _silence(sink)
    return 0


async def _answer_all(
    evaluator: Evaluator, lines: list[Line], sets: dict[str, GameSet], lanes: int
) -> list[str]:
    out = [""] * len(lines)
    cursor = iter(range(len(lines)))

    async def lane() -> None:
        for index in cursor:
            out[index] = await _answer(evaluator, lines[index], sets)

    await asyncio.gather(*(lane() for _ in range(min(lanes, len(lines)))))
    return out


def _silence(sink: IO[str]) -> None:
    """Point a closed stdout at /dev/null, so exiting does not complain about it again."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sink.fileno())
        os.close(devnull)
