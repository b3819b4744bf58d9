"""`formula-darts eval`, run as a real process on the local sandbox."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import threading
from typing import Any

ENV = {**os.environ, "EVALUATOR": "local", "POOL_SIZE": "2"}


def cli(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", "eval", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=ENV,
        timeout=120,
        check=False,
    )


def jsonl(*rows: Any) -> list[dict[str, Any]]:
    lines = "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows)
    proc = cli("--jsonl", stdin=lines)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


def bits(x: float) -> bytes:
    return struct.pack("<d", x)


def test_one_formula() -> None:
    proc = cli("--digits", "3489", "34+89")
    assert proc.returncode == 0
    assert proc.stdout == "34+89 = 123 (int)\n"


def test_one_formula_with_score() -> None:
    proc = cli("--digits", "2476", "2*47+6", "--score", "424")
    assert proc.returncode == 0
    assert "points 150" in proc.stdout
    assert "→ 274" in proc.stdout


def test_invalid_formula_exits_1_with_the_reason() -> None:
    proc = cli("--digits", "3489", "43+89")
    assert proc.returncode == 1
    assert "[digits]" in proc.stdout
    parse = cli("--digits", "3489", "34 89")
    assert parse.returncode == 1
    assert "[syntax]" in parse.stdout
    assert "ParseError" in parse.stdout


def test_usage_errors() -> None:
    assert cli("34+89").returncode == 2
    assert cli("--digits", "3489", "34+89", "--set", "nope").returncode == 2
    bad_digits = cli("--digits", "12", "12")
    assert bad_digits.returncode == 2
    assert "four digits from 1000 to 9999" in bad_digits.stderr
    assert cli("--digits", "3489", "34+89", "--score", "inf").returncode == 2


def test_jsonl_results_in_order() -> None:
    out = jsonl(
        {"digits": "3489", "formula": "34+89", "score": 501},
        {"digits": "3489", "formula": "43+89"},
        {"digits": "7001", "formula": "700+1", "score": 501},
        {"digits": "1000", "formula": "1/0+00"},
        {"digits": "3489", "formula": "3/4+89"},
        {"digits": "1234", "formula": "1234", "score": 50, "set": "sprint"},
    )
    assert out[0] == {"ok": True, "type": "int", "value": 123, "points": 77, "score": 424}
    assert out[1]["ok"] is False
    assert out[1]["error"]["code"] == "digits"
    assert out[2] == {"ok": True, "type": "int", "value": 701, "points": 501, "score": 0}
    assert out[3]["error"]["code"] == "php"
    assert out[3]["error"]["php_class"] == "DivisionByZeroError"
    assert out[4] == {"ok": True, "type": "float", "value": 89.75}
    assert out[5]["points"] == 1034
    assert out[5]["score"] == 984


def test_jsonl_floats_read_back_to_the_same_double() -> None:
    php = subprocess.run(
        ["php", "-n", "-r", "echo json_encode([1/7, pow(98,76), 0.1+0.2]);"],
        capture_output=True,
        text=True,
        check=True,
    )
    expected = json.loads(php.stdout)
    out = jsonl(
        {"digits": "1700", "formula": "1/7+00"},
        {"digits": "9876", "formula": "pow(98,76)"},
        {"digits": "1012", "formula": "0.1+0.2"},  # '.' is forbidden: an error line
    )
    assert out[0]["type"] == "float"
    assert bits(out[0]["value"]) == bits(expected[0])
    assert bits(out[1]["value"]) == bits(expected[1])
    assert out[2]["error"]["code"] == "forbidden"


BAD_LINES = [
    "not json",
    "[1, 2]",
    '{"digits": "3489"}',
    '{"digits": true, "formula": "34+89"}',
    '{"digits": "3489", "formula": "34+89", "set": "nope"}',
    '{"digits": "3489", "formula": "34+89", "score": "501"}',
    '"\\ud800"',
    '{"digits": "348", "formula": "34+8"}',
    '{"digits": "0348", "formula": "0348"}',
    '{"digits": "3489", "formula": "34+89", "score": 1e400}',
    '{"digits": "3489", "formula": "34+89", "score": -1}',
    '{"digits": "3489", "formula": "\\ud800"}',
    '{"digits": "\\udc00", "formula": "34+89"}',
    '{"digits": "3489", "formula": "34+89", "set": "\\udfff"}',
    '{"digits": "3489", "formula": "34+89", "score": 1' + "0" * 400 + "}",
]


def test_jsonl_bad_lines_get_error_lines() -> None:
    good = {"digits": "3489", "formula": "34+89"}
    out = jsonl(*[row for line in BAD_LINES for row in (line, good)])
    assert len(out) == 2 * len(BAD_LINES)
    for line, error, answer in zip(BAD_LINES, out[::2], out[1::2], strict=True):
        assert error["ok"] is False, line
        assert error["error"]["code"] == "input", line
        assert answer["value"] == 123


def test_jsonl_answers_thousands_of_lines_in_order() -> None:
    """Throughput is measured in bench/bench_pool.py; here: every line, in order."""
    rows = [
        {"digits": str(n), "formula": f"{n // 100:02d}+{n % 100:02d}"} for n in range(1000, 6000)
    ]
    out = jsonl(*rows)
    assert len(out) == 5000
    assert out[3489 - 1000] == {"ok": True, "type": "int", "value": 123}
    assert out[1008 - 1000]["error"]["code"] == "syntax"  # 10+08: 08 is no octal number
    # Exactly the second halves 08 and 09 are parse errors (invalid octal).
    failed = [n for n, row in zip(range(1000, 6000), out, strict=True) if not row["ok"]]
    assert failed == [n for n in range(1000, 6000) if n % 100 in (8, 9)]


def test_jsonl_answers_each_line_before_the_next_arrives() -> None:
    """Interactive use: the answer to a line comes while stdin is still open."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "eval", "--jsonl"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=ENV,
    )
    assert proc.stdin is not None
    assert proc.stdout is not None
    timer = threading.Timer(60, proc.kill)
    timer.start()
    try:
        for formula, value in (("34+89", 123), ("3*4+89", 101)):
            proc.stdin.write(json.dumps({"digits": "3489", "formula": formula}) + "\n")
            proc.stdin.flush()
            assert json.loads(proc.stdout.readline())["value"] == value
        proc.stdin.close()
        assert proc.wait(timeout=30) == 0
    finally:
        timer.cancel()
        proc.kill()
        proc.wait()


def test_jsonl_stops_quietly_when_the_reader_goes_away() -> None:
    """`eval --jsonl < big | head -1`: no hang, no traceback, exit 0."""
    rows = "".join(json.dumps({"digits": "3489", "formula": "34+89"}) + "\n" for _ in range(20000))
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "eval", "--jsonl"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=ENV,
    )
    assert proc.stdin is not None
    assert proc.stdout is not None
    writer = threading.Thread(target=_feed, args=(proc.stdin, rows.encode()), daemon=True)
    writer.start()
    assert json.loads(proc.stdout.readline())["value"] == 123
    proc.stdout.close()  # like `head -1` exiting
    try:
        _, stderr = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0
    assert b"Traceback" not in stderr


def _feed(pipe: Any, data: bytes) -> None:
    try:
        pipe.write(data)
        pipe.close()
    except (BrokenPipeError, ValueError, OSError):
        pass


def test_jsonl_a_lone_surrogate_is_one_error_line_and_nothing_is_lost() -> None:
    rows = ['{"digits": "3489", "formula": "3\\ud8004+89"}', {"digits": "3489", "formula": "34+89"}]
    out = jsonl(*rows, *rows)
    assert len(out) == 4
    assert [row["ok"] for row in out] == [False, True, False, True]
    assert out[0]["error"]["code"] == "input"
    assert "surrogate" in out[0]["error"]["message"]


def test_jsonl_scores_are_numbers_as_php_reads_them() -> None:
    """json_decode makes an integer past 64 bits a float: so must we, then score in PHP's terms."""
    php = subprocess.run(
        [
            "php", "-n", "-r",
            'echo json_encode([abs(json_decode("9223372036854775808") - 77),'
            ' abs(json_decode("9223372036854775807") - 77)]);',
        ],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    big, top = json.loads(php.stdout)
    out = jsonl(
        '{"digits": "3489", "formula": "34+89", "score": 9223372036854775808}',
        '{"digits": "3489", "formula": "34+89", "score": 9223372036854775807}',
    )
    assert isinstance(out[0]["score"], float) and bits(out[0]["score"]) == bits(big)
    assert isinstance(out[1]["score"], int) and out[1]["score"] == top


def test_eval_imports_only_what_it_needs() -> None:
    """No storage, Discord or Docker SDK on the eval path (EVALUATOR=local): start-up is
    imports, and SQLAlchemy with Alembic alone cost half a second (bench_cli measures it)."""
    probe = (
        "import io, sys\n"
        'sys.stdin = io.TextIOWrapper(io.BytesIO(b\'{"digits": "3489", "formula": "34+89"}\\n\'))\n'
        "from bot.cli import main\n"
        "assert main(['eval', '--jsonl']) == 0\n"
        "heavy = ('sqlalchemy', 'alembic', 'sqlmodel', 'discord', 'docker', 'aiosqlite')\n"
        "print(','.join(m for m in heavy if m in sys.modules))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=ENV, timeout=120,
        check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    answer, loaded = proc.stdout.splitlines()
    assert json.loads(answer)["value"] == 123
    assert loaded == ""
