"""`formula-darts sets check` on values YAML cannot build: problems and exit 1, no traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.paths import ROOT

FIELDS = "  start_score: 501\n  goal: 100\n  bonus: 50\n  max_rounds: 7\n  time_limit: 60\n"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            f"x:\n{FIELDS}  description: 2001-13-45\n",
            "line 7, column 16: 2001-13-45 reads",
        ),
        (f"2001-02-30:\n{FIELDS}", "line 1, column 1: 2001-02-30 reads as a date"),
        (f"x:\n{FIELDS}  description: 2001-01-01 25:00:00\n", "(hour must be in 0..23)"),
        (f"x:\n{FIELDS}  attempts: {'7' * 4301}\n", "a number of 4301 characters; at most 100"),
        (f"x:\n{FIELDS}  attempts: 0x{'f' * 5000}\n", "a number of 5002 characters"),
        (f"x:\n{FIELDS}  attempts: 0b{'1' * 20000}\n", "a number of 20002 characters"),
        (f"x:\n{FIELDS}  attempts: 1{':59' * 3000}\n", "a number of 9001 characters"),
    ],
    ids=["month", "key", "hour", "decimal", "hex", "binary", "base-60"],
)
def test_sets_check_lists_the_problem(tmp_path: Path, text: str, said: str) -> None:
    file = tmp_path / "sets.yaml"
    file.write_text(text, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "sets", "check", str(file)],
        capture_output=True, text=True, cwd=ROOT, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "1 problem(s):" in done.stderr
    assert said in done.stderr
