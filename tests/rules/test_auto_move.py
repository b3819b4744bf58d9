"""The duel's auto-move shows the Digits as written and the value real PHP gives that text.

Issue 21: 7001 showed `70+1`, a formula whose digits are not the round's. Every
second half 00..99 is tried (the first half never starts with 0): the shown formula
must read the four Digits in order, and real PHP must compute the value the rules
scored -- `01` is octal 1 in PHP, `08` and `09` are parse errors.
"""

from __future__ import annotations

import re
import subprocess

from rules.digits import auto_move

ALL_HALVES = [f"70{n:02d}" for n in range(100)] + ["1000", "1008", "4589", "9999", "1307"]


def test_7001_reads_as_written() -> None:
    assert auto_move("7001") == ("70+01", 71)
    assert auto_move("4589") == ("45+89", 134)


def test_the_formula_holds_the_digits_in_order() -> None:
    for digits in ALL_HALVES:
        formula, _ = auto_move(digits)
        assert "".join(re.findall(r"\d", formula)) == digits, (digits, formula)


def test_real_php_computes_the_value_the_rules_scored() -> None:
    formulas = [auto_move(digits)[0] for digits in ALL_HALVES]
    script = "".join(f"echo {f}, PHP_EOL;\n" for f in formulas)
    php = subprocess.run(["php", "-n", "-r", script], capture_output=True, text=True, check=True)
    got = php.stdout.split()
    assert got == [str(auto_move(d)[1]) for d in ALL_HALVES]
    assert [int(d[:2]) + int(d[2:]) for d in ALL_HALVES] == [int(v) for v in got]
