"""`formula-darts solve`, run as a real process."""

from __future__ import annotations

import json
import struct
import subprocess
import sys
from typing import Any

from evaluator.check import check
from rules.sets import CLASSIC


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
    assert lines[1] == "1. 3^-sqrt(4)<<8|9 = -501 (int), points 501, new Score 0"
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
    assert out[0] == {"ok": True, "formula": "3^-sqrt(4)<<8|9", "type": "int", "value": -501,
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
