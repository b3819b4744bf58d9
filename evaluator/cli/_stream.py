"""`formula-darts eval --jsonl`: one answer line per input line, in order, never a traceback.

A bad input line (blank, not JSON, nested too deep, longer than MAX_LINE, not an
object, a lone surrogate, a bad field) gets an error line with code `input` and
the lines after it are read as usual. Numbers are read as PHP's json_decode reads
them: an integer beyond 64 bits is a float.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import math
import os
import threading
from typing import IO, Any

from evaluator.cli._lines import MAX_LINE, Line, Overlong, read_lines
from evaluator.language import language
from evaluator.result import EvalError, Evaluation
from evaluator.service import Evaluator
from rules.digits import valid_digits
from rules.game_set import FormulaLanguage, GameSet
from rules.scoring import INT_MAX, INT_MIN, apply_points
from rules.sets import CLASSIC


def in_language(game_set: GameSet, chosen: FormulaLanguage) -> GameSet:
    """The Set's numbers in `chosen` (with that language's default functions if it is new)."""
    if game_set.language is chosen:
        return game_set
    functions = language(chosen).default_functions
    return dataclasses.replace(game_set, language=chosen, functions=functions)


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
    game_set = in_language(game_set, FormulaLanguage(chosen))
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
        points, new_score = apply_points(
            score, value, game_set.goal, game_set.bonus, numbers=game_set.language_rules
        )
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


async def stream(
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
