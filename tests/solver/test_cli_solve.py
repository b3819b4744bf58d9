"""`formula-darts solve`, run as a real process."""

from __future__ import annotations

import json
import struct
import subprocess
import sys
from typing import Any

import pytest

from bot.cli import main
from evaluator.check import check
from rules.sets import CLASSIC
from solver import FailureReason, SolveFailure


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", "solve", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def test_best_formulas_for_digits_and_a_score() -> None:
    proc = cli("3489", "--score", "501", "--top", "3")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "3489, Score 501, Set darts:"
    assert len(lines) == 4
    assert lines[1] == "1. 3-(sqrt(4)<<8)|9 = -501 (int), points 501, new Score 0"
    for line in lines[1:]:
        formula = line.split(". ", 1)[1].split(" = ", 1)[0]
        assert check(formula, "3489", CLASSIC.functions) == formula


def test_bad_arguments_get_one_line_and_exit_2() -> None:
    for args in (("0999",), ("3489", "--score", "-5"), ("3489", "--set", "nope"), ()):
        proc = cli(*args)
        assert proc.returncode == 2, args
        assert "Traceback" not in proc.stderr and proc.stderr.startswith("formula-darts solve:")


def _bits(x: float) -> bytes:
    return struct.pack("<d", x)


def test_jsonl_answers_one_line_per_line_in_order() -> None:
    rows: list[Any] = [
        {"digits": "3489", "score": 501},
        "not json",
        {"digits": "0123", "score": 5},
        "",
        {"digits": 4711, "score": 300.5},
        {"digits": "1008", "score": 17, "set": "sprint"},
        {"digits": "1008", "set": "nope"},
        [1, 2],
        {"digits": "3489", "score": True},
        {"digits": "3489", "score": 501},
    ]
    text = "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows)
    proc = cli("--jsonl", stdin=text)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(out) == len(rows)
    assert [o["ok"] for o in out] == [
        True,
        False,
        False,
        False,
        True,
        True,
        False,
        False,
        False,
        True,
    ]
    assert out[0] == {"ok": True, "formula": "3-(sqrt(4)<<8)|9", "type": "int", "value": -501,
                      "points": 501, "score": 0}  # fmt: skip
    assert out[-1] == out[0]
    for o in out:
        if not o["ok"]:
            assert o["error"]["code"] == "input" and o["error"]["message"]
    floating = out[4]
    assert floating["type"] == "float"
    # the float text reads back to the very double the solver computed
    assert _bits(json.loads(json.dumps(floating["value"]))) == _bits(floating["value"])
    assert check(floating["formula"], "4711", CLASSIC.functions) == floating["formula"]


def test_the_solve_path_does_not_load_the_database_or_discord() -> None:
    code = (
        "import sys\n"
        "from bot.cli import main\n"
        "main(['solve', '1234', '--top', '1'])\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & "
        "{'sqlalchemy', 'alembic', 'sqlmodel', 'discord', 'docker'}))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert proc.stdout.splitlines()[-1] == "[]"


def test_a_javascript_set_prints_its_numbers_as_javascript_does() -> None:
    """`-402`, typed `number` (as `eval` says), not PHP's `-402.0 (float)`."""
    proc = cli("4589", "--score", "402", "--set", "js-darts", "--top", "1", "--timeout", "300")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "4589, Score 402, Set js-darts:"
    formula = lines[1].split(". ", 1)[1].split(" = ", 1)[0]
    assert lines[1] == f"1. {formula} = -402 (number), points 402, new Score 0"


def test_jsonl_says_input_for_deep_json_and_number_for_javascript() -> None:
    rows = [
        "[" * 100_000,
        '{"a": ' * 50_000 + "1" + "}" * 50_000,
        json.dumps({"digits": "3489", "score": 0.05, "set": "js-darts"}),
    ]
    proc = cli("--jsonl", "--timeout", "300", stdin="".join(r + "\n" for r in rows))
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [o["ok"] for o in out] == [False, False, True]
    assert [o["error"]["code"] for o in out[:2]] == ["input", "input"]
    assert out[2]["type"] == "number"
    assert out[2]["value"] == -0.05 and out[2]["score"] == 2.8449465006019636e-15
    line = proc.stdout.splitlines()[2]
    assert '"value": -0.05,' in line and '"score": 2.8449465006019636e-15}' in line


def test_solve_has_the_bots_budgets_and_reports_a_query_past_them() -> None:
    """A deadline and a memory limit as the bot's solver process has them: past one, the
    query is answered with the reason (the stream goes on), never left to run for
    minutes or grow to gigabytes (`solve --jsonl` at 0.3611: 93 s and 3.0 GiB)."""
    line = json.dumps({"digits": "9779", "score": 501}) + "\n"
    late = cli("--jsonl", "--timeout", "0.01", stdin=line + line)
    assert late.returncode == 0, late.stderr
    assert [json.loads(x)["error"]["code"] for x in late.stdout.splitlines()] == ["timeout"] * 2
    # the memory limit alone can stop it: the deadline is a loaded machine's
    js = cli(
        "3489", "--score", "0.3611", "--set", "js-darts", "--memory", "100", "--timeout", "600"
    )
    assert js.returncode == 1
    assert js.stderr == "formula-darts solve: no answer: over the memory limit\n"
    for bad in (("--timeout", "0"), ("--timeout", "nan"), ("--memory", "50")):
        proc = cli("3489", *bad)
        assert proc.returncode == 2 and proc.stderr.startswith("formula-darts solve: --")


def test_without_flags_solve_makes_its_solver_as_the_bot_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`SolverProcess()` with nothing changed: the bot's budgets (bot/app.py makes its
    solver the same way)."""
    made: list[dict[str, object]] = []

    class Recording:
        def __init__(self, **budget: object) -> None:
            made.append(budget)

        async def __aenter__(self) -> Recording:
            return self

        async def __aexit__(self, *exc: object) -> None:
            return None

        async def best(self, *args: object, **kwargs: object) -> SolveFailure:
            return SolveFailure(FailureReason.TIMEOUT, "recorded")

    monkeypatch.setattr("solver.process.SolverProcess", Recording)
    assert main(["solve", "3489"]) == 1
    assert made == [{}]
