"""`solve --top` lists distinct numbers: PHP's int -501 and float -501.0 are one Result to
a reader (seen failing first: 8993 at 501 listed `-pow(8,sqrt(9))+9|3 = -501` and then
`-pow(8,sqrt(9))+(9|3) = -501.0` as two)."""

from __future__ import annotations

from tests.solver.test_cli_solve import cli


def test_top_lists_each_number_once() -> None:
    proc = cli("8993", "--score", "501", "--top", "5", "--timeout", "600")  # a loaded machine
    assert proc.returncode == 0, proc.stderr
    rows = proc.stdout.splitlines()[1:]
    assert len(rows) == 5
    assert rows[0] == "1. -pow(8,sqrt(9))+9|3 = -501 (int), points 501, new Score 0"
    numbers = [float(row.split(" = ", 1)[1].split(" (", 1)[0]) for row in rows]
    assert len(set(numbers)) == 5, rows
