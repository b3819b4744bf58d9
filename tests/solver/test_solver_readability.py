"""The best answer's tie-break (RULES.md, "The best answer"; issue 33): among formulas that
leave the same new Score, the most readable wins: fewest function calls, then fewest unary
minuses, then the shorter.

Each case is a formula the solver chose before this rule (fewer characters, but more
calls or minuses) beside the Digits and Score it was chosen for. Real PHP (php-cli) and
real node evaluate both it and the solver's answer now: the new Scores are equal, and the
answer reads better by the test's own count (written here, apart from the solver's).
"""

from __future__ import annotations

import json
import re
import shutil
import struct
import subprocess
from pathlib import Path

import pytest

from rules.game_set import GameSet
from rules.scoring import apply_points
from rules.sets import CLASSIC, parse_sets
from solver import grammar as G
from solver.solve import Solver
from tests.evaluator.js.test_js_check import JS_DARTS
from tests.solver.php_batch import php_outcomes

JS_SET: GameSet = parse_sets(JS_DARTS)["js-darts"]

PHP_CASES = [
    ("3489", 250, "hexdec(34&-8)*9"),
    ("3489", 501, "3^-sqrt(4)<<8|9"),
    ("3489", 40, "-34&-8%9"),
    ("4589", 501, "-4^(sqrt(5)<<8)-9"),
    ("4589", 3, "-4|589"),
    ("7261", 3, "-7|261"),
]
JS_CASES = [
    ("3489", 40, "-34&-8%9"),
    ("4589", 3, "-4|589"),
    ("7261", 3, "-7|261"),
]


def readability(text: str) -> tuple[int, int, int]:
    """(calls, unary minuses, characters without spaces), counted token by token."""
    tokens = re.findall(r"[A-Za-z_.]+\(|\d+|>>>|\*\*|<<|>>|\S", text)
    calls = sum(len(token) > 1 and token.endswith("(") for token in tokens)
    minuses = 0
    for k, token in enumerate(tokens):
        before = tokens[k - 1] if k else None
        operand_end = before is not None and (before.isdigit() or before == ")")
        minuses += token == "-" and not operand_end
    return calls, minuses, len(text.replace(" ", ""))


def _php_values(formulas: list[str], tmp: Path) -> list[int | float]:
    values: list[int | float] = []
    for kind, value in php_outcomes(formulas, tmp):
        assert kind in ("int", "float"), (formulas, kind)
        values.append(value if isinstance(value, int) else _unhex(str(value)))
    return values


def _unhex(bits: str) -> float:
    value: float = struct.unpack(">d", bytes.fromhex(bits))[0]
    return value


def _node_values(formulas: list[str]) -> list[float]:
    script = (
        "const vm = require('vm');"
        "const f = JSON.parse(require('fs').readFileSync(0, 'utf8'));"
        "process.stdout.write(JSON.stringify(f.map((t) =>"
        " vm.runInNewContext(t, Object.create(null)))));"
    )
    out = subprocess.run(
        ["node", "-e", script], input=json.dumps(formulas), capture_output=True, text=True,
        check=True,
    )  # fmt: skip
    values: list[float] = json.loads(out.stdout)
    return values


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver()


def test_the_test_counts_calls_and_unary_minuses() -> None:
    assert readability("-sqrt(-(-octdec(1*octdec(2/sqrt(3)))>>4))") == (4, 3, 41)
    assert readability("3- -4") == (0, 1, 4)
    assert readability("(-2)**Math.abs(3-4)") == (1, 1, 19)
    for text in ("-sqrt(-(-octdec(1*octdec(2/sqrt(3)))>>4))", "3- -4", "(-2)**Math.abs(3-4)"):
        calls, minuses, chars = readability(text)
        assert G.formula_cost(text) == calls * G.CALL_COST + minuses * G.MINUS_COST + chars


@pytest.mark.parametrize(("digits", "score", "less_readable"), PHP_CASES)
def test_php_a_more_readable_answer_wins_at_the_same_score(
    solver: Solver, digits: str, score: int, less_readable: str, tmp_path: Path
) -> None:
    best = solver.solve(digits, score, CLASSIC).best
    mine, theirs = _php_values([best.formula, less_readable], tmp_path)
    new_scores = [
        apply_points(score, v, CLASSIC.goal, CLASSIC.bonus, numbers=CLASSIC.language_rules)[1]
        for v in (mine, theirs)
    ]
    assert new_scores[0] == new_scores[1] == best.score
    assert readability(best.formula) < readability(less_readable), best.formula
    assert readability(best.formula)[:2] < readability(less_readable)[:2], best.formula


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.parametrize(("digits", "score", "less_readable"), JS_CASES)
def test_javascript_a_more_readable_answer_wins_at_the_same_score(
    solver: Solver, digits: str, score: int, less_readable: str
) -> None:
    best = solver.solve(digits, score, JS_SET).best
    mine, theirs = _node_values([best.formula, less_readable])
    new_scores = [
        apply_points(score, v, JS_SET.goal, JS_SET.bonus, numbers=JS_SET.language_rules)[1]
        for v in (mine, theirs)
    ]
    assert new_scores[0] == new_scores[1] == best.score
    assert readability(best.formula)[:2] < readability(less_readable)[:2], best.formula


def test_every_cost_fits_the_tables_and_orders_as_the_rule_does() -> None:
    """The weights make one sum order (calls, minuses, characters) exactly, and the most
    a 4-digit formula can cost fits the tables' int16 (each node wrapped in the dearest
    form with two pairs of parentheses, each operation the dearest)."""
    for language in G.SYNTAX:
        syntax = G.SYNTAX[language]
        grammar = G.Grammar.for_functions(
            [op.value for op in syntax.calls] + [f.value for f in syntax.funcs], language
        )
        wrap_chars = max(len(f.value) + 4 for f in grammar.funcs)
        op_chars = max(len(op.value) + 3 * op.is_call for op in grammar.ops)
        chars = 4 + 3 * op_chars + 7 * (wrap_chars + 4)
        assert chars < G.MINUS_COST
        assert 14 * G.MINUS_COST + chars < G.CALL_COST
        dearest = 4 + 3 * max(op.length for op in grammar.ops)
        dearest += 7 * (max(w.length for w in grammar.wraps) + 4)
        assert dearest < 2**15
