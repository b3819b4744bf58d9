"""`formula-darts eval` against hostile input (issues 20 and 21): every JSONL line gets
exactly one answer line in order, a long line is never held whole, a formula may
start with `-`, and the eval path loads neither Docker, pydantic-settings nor storage."""

from __future__ import annotations

import asyncio
import io
import json
import os
import subprocess
import sys
import tracemalloc
from types import SimpleNamespace
from typing import Any

import pytest

from evaluator.cli import _stream, dash_formula
from evaluator.cli._lines import MAX_LINE
from rules.sets import load_sets
from tests.support.paths import ROOT

ENV = {**os.environ, "EVALUATOR": "local", "POOL_SIZE": "2"}
GOOD = '{"digits": "3489", "formula": "34+89"}'


def cli(*args: str, stdin: str | bytes | None = None, env: dict[str, str] = ENV) -> Any:
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", "eval", *args],
        input=stdin.encode() if isinstance(stdin, str) else stdin,
        capture_output=True, env=env, cwd=ROOT, timeout=120, check=False,
    )  # fmt: skip


def answers(stdin: str | bytes) -> list[dict[str, Any]]:
    proc = cli("--jsonl", stdin=stdin)
    assert proc.returncode == 0, proc.stderr
    assert b"Traceback" not in proc.stderr
    return [json.loads(line) for line in proc.stdout.decode().splitlines()]


def input_error(answer: dict[str, Any]) -> str:
    assert answer["ok"] is False and answer["error"]["code"] == "input", answer
    return str(answer["error"]["message"])


def test_a_deeply_nested_line_is_one_error_and_the_lines_around_it_are_answered() -> None:
    deep = "[" * 2000 + "]" * 2000
    deep_object = '{"formula": ' * 2000 + "1" + "}" * 2000
    out = answers("\n".join([GOOD, deep, GOOD, deep_object, GOOD]) + "\n")
    assert len(out) == 5
    assert [a["value"] for a in out[::2]] == [123, 123, 123]
    assert "nested too deep" in input_error(out[1])
    assert "nested too deep" in input_error(out[3])


def test_a_blank_line_gets_an_error_line_of_its_own() -> None:
    out = answers(f"{GOOD}\n\n   \n\r\n{GOOD}\n  ")  # the last, unterminated, is blank too
    assert len(out) == 6
    assert out[0]["value"] == out[4]["value"] == 123
    for blank in (out[1], out[2], out[3], out[5]):
        assert "empty line" in input_error(blank)


def test_a_line_too_long_is_an_error_and_the_next_line_is_answered() -> None:
    long = '{"digits": "3489", "formula": "' + "1" * (MAX_LINE + 10) + '"}'
    out = answers(f"{long}\n{GOOD}\n{long}")
    assert len(out) == 3
    assert f"at most {MAX_LINE}" in input_error(out[0])
    assert out[1]["value"] == 123
    assert f"a line of {len(long)} bytes" in input_error(out[2])


class _Idle:
    """Stands for the evaluator where every line is an input error: never asked."""

    pool = SimpleNamespace(size=1, queue_limit=0)

    async def evaluate(self, *args: object) -> None:
        raise AssertionError("an input error never reaches PHP")


def test_a_long_line_is_never_held_whole() -> None:
    """32 MiB on one line took 23 s: each chunk was joined to all of the line before it.
    Now at most MAX_LINE of it is kept, so the memory used stays small (sizes, not times)."""
    size = 16 << 20
    source = io.TextIOWrapper(io.BytesIO(b"[" + b"1," * (size // 2) + b"1]\n\n"))
    sink = io.StringIO()
    tracemalloc.start()
    try:
        asyncio.run(_stream.stream(_Idle(), load_sets(), source, sink))  # type: ignore[arg-type]
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    out = [json.loads(line) for line in sink.getvalue().splitlines()]
    assert len(out) == 2
    assert "a line of" in input_error(out[0]) and "empty line" in input_error(out[1])
    assert peak < 4 * MAX_LINE  # the old loop held the line twice: 32 MiB


@pytest.mark.parametrize(
    "args",
    [
        ("--digits", "1034", "-pow(1,0)+34"),
        ("-pow(1,0)+34", "--digits", "1034"),
        ("--digits", "1034", "--", "-pow(1,0)+34"),
        ("--digits", "1034", "--formula=-pow(1,0)+34"),
        ("--formula", "-pow(1,0)+34", "--digits", "1034"),
        ("--digits=1034", "--score", "50", "-pow(1,0)+34"),
    ],
    ids=["after", "before", "double-dash", "option", "option-value", "with-score"],
)
def test_a_formula_may_start_with_a_minus(args: tuple[str, ...]) -> None:
    proc = cli(*args)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode().startswith("-pow(1,0)+34 = 33 (int)")


def test_options_and_negative_numbers_are_still_read_as_before() -> None:
    assert dash_formula(["eval", "-h"]) == ["eval", "-h"]
    assert dash_formula(["eval", "--score", "-5", "-1034"]) == [
        "eval", "--score", "-5", "-1034",
    ]  # fmt: skip
    assert dash_formula(["sets", "-x"]) == ["sets", "-x"]
    assert dash_formula(["eval", "--set", "-x", "-1"]) == ["eval", "--set=-x", "-1"]
    assert cli("--digits", "1034", "--bogus").returncode == 2
    twice = cli("--digits", "1034", "--formula", "-pow(1,0)+34", "1034")
    assert twice.returncode == 2 and b"once" in twice.stderr


HEAVY = ("docker", "pydantic", "pydantic_settings", "sqlalchemy", "alembic", "sqlmodel", "discord")
"""Start-up time `eval --jsonl` never needs (bench/bench_cli.py measures the start-up)."""


def test_eval_loads_no_docker_sdk_settings_library_storage_or_the_bots_modules() -> None:
    """With the default EVALUATOR=auto the local sandbox is taken when it can run: the
    Docker SDK, pydantic(-settings), SQLAlchemy and Discord are start-up time eval never
    needs, nor the solver's process, nor any bot module past the entry point itself."""
    probe = (
        "import io, sys\n"
        f"sys.stdin = io.TextIOWrapper(io.BytesIO({(GOOD + chr(10)).encode()!r}))\n"
        "from bot.cli import main\n"
        "assert main(['eval', '--jsonl']) == 0\n"
        f"heavy = {HEAVY!r} + ('numpy', 'multiprocessing', 'solver.process', 'rules.game')\n"
        "bot = [m for m in sys.modules if m.startswith('bot.') and not m.startswith('bot.cli')]\n"
        "print(','.join([m for m in heavy if m in sys.modules] + bot))\n"
    )
    env = {k: v for k, v in os.environ.items() if k.upper() != "EVALUATOR"}
    proc = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, cwd=ROOT,
        timeout=120, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    answer, loaded = proc.stdout.splitlines()
    assert json.loads(answer)["value"] == 123
    assert loaded == ""


def test_bad_evaluator_settings_are_one_line_not_a_traceback() -> None:
    proc = cli("--jsonl", stdin=GOOD + "\n", env={**ENV, "POOL_SIZE": "0", "TIMEOUT_S": "soon"})
    assert proc.returncode == 2
    assert b"Traceback" not in proc.stderr
    assert proc.stderr.decode().splitlines() == [
        "formula-darts eval: evaluator settings: POOL_SIZE must be at least 1, got 0; "
        "TIMEOUT_S must be a number, got 'soon'"
    ]
