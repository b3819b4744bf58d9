"""The JavaScript solver against real node: every operation and function over edge values,
and every candidate it shows for a sample of Digits and Scores.

node runs in one plain process per test here (the numbers are the point, not the
sandbox): doubles travel as their 64 bits in hex, so -0, NaN and ±Infinity survive.
A formula runs as a classic script in a fresh context (`vm.runInNewContext`, what the
evaluator's worker does); its JavaScript text is also checked by `evaluator.js_check`.
"""

from __future__ import annotations

import json
import math
import shutil
import struct
import subprocess
from typing import Any

import numpy as np
import pytest

from evaluator.js_check import check
from rules.game_set import FormulaLanguage
from rules.scoring import apply_points
from rules.sets import GameSet, parse_sets
from solver import js_values as J
from solver.column import of_floats
from solver.grammar import Grammar, JsFunc, JsOp, Level, Op, Shape, Wrap, formula_cost
from solver.solve import Solver
from tests.evaluator.js.test_js_check import JS_DARTS

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")

JS_SET: GameSet = parse_sets(JS_DARTS)["js-darts"]

EDGES = [
    *(0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, 3.0, 7.0, -7.0, 9.0, 31.0, 32.0, 33.0),
    *(2.0**31, 2.0**31 - 1, -(2.0**31), -(2.0**31) - 1, 2.0**32, 2.0**32 + 5, -(2.0**32)),
    *(2.0**53, 2.0**53 + 2, -(2.0**53), 1e21, -1e21, 1e308, -1e308, 5e-324, 1e-300),
    *(math.nan, math.inf, -math.inf, 0.49999999999999994, -0.49999999999999994, 1 / 3),
    *(123.456, -9.75, 2.0 / 3, 8.0, -8.0, 1e-7, 4.5, -4.5, 0.1),
]

_BINARY_JS = {
    Op.ADD: "a + b",
    Op.SUB: "a - b",
    Op.MUL: "a * b",
    Op.DIV: "a / b",
    Op.MOD: "a % b",
    Op.AND: "a & b",
    Op.OR: "a | b",
    Op.XOR: "a ^ b",
    Op.SHL: "a << b",
    Op.SHR: "a >> b",
    JsOp.USHR: "a >>> b",
    JsOp.EXP: "a ** b",
    JsOp.POW: "Math.pow(a, b)",
    JsOp.HYPOT: "Math.hypot(a, b)",
    JsOp.MAX: "Math.max(a, b)",
    JsOp.MIN: "Math.min(a, b)",
}

_NODE = r"""
const vm = require('vm');
const hex = (x) => { const v = new DataView(new ArrayBuffer(8)); v.setFloat64(0, x);
  return v.getBigUint64(0).toString(16).padStart(16, '0'); };
const num = (h) => { const v = new DataView(new ArrayBuffer(8));
  v.setBigUint64(0, BigInt('0x' + h)); return v.getFloat64(0); };
const job = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const out = {};
if (job.pairs) {
  const a = job.pairs[0].map(num), b = job.pairs[1].map(num);
  for (const [name, code] of Object.entries(job.binary)) {
    const f = new Function('a', 'b', 'return ' + code);
    out[name] = a.map((x, i) => hex(f(x, b[i])));
  }
  for (const [name, code] of Object.entries(job.unary)) {
    const f = new Function('a', 'return ' + code);
    out[name] = a.map((x) => hex(f(x)));
  }
}
if (job.formulas) {
  out.formulas = job.formulas.map((text) => {
    try { const v = vm.runInNewContext(text, Object.create(null));
      return typeof v === 'number' ? hex(v) : 'not a number'; }
    catch (e) { return 'error: ' + e.constructor.name + ': ' + e.message; }
  });
}
process.stdout.write(JSON.stringify(out));
"""


def _hex(x: float) -> str:
    return struct.pack(">d", x).hex()


def _num(h: str) -> float:
    value: float = struct.unpack(">d", bytes.fromhex(h))[0]
    return value


def node(job: dict[str, object]) -> dict[str, list[str]]:
    out = subprocess.run(
        ["node", "-e", _NODE], input=json.dumps(job), capture_output=True, text=True, check=True
    )
    result: dict[str, list[str]] = json.loads(out.stdout)
    return result


def _same(mine: float, theirs: str) -> bool:
    other = _num(theirs)
    if math.isnan(mine):
        return math.isnan(other)
    return _hex(mine) == theirs


def test_every_operation_and_function_is_nodes_over_edge_values() -> None:
    a = np.array([x for x in EDGES for _ in EDGES], np.float64)
    b = np.array([y for _ in EDGES for y in EDGES], np.float64)
    unary = {f.name: f"{f.value}(a)" for f in JsFunc}
    answers = node(
        {
            "pairs": [[_hex(x) for x in a], [_hex(y) for y in b]],
            "binary": {op.name: code for op, code in _BINARY_JS.items()},
            "unary": {**unary, "NEG": "-a"},
        }
    )
    wrong: list[tuple[Any, ...]] = []
    for op in _BINARY_JS:
        mine, ok = J.BINARY[op](of_floats(a), of_floats(b))  # type: ignore[index]
        assert ok.all()
        for k in range(len(a)):
            if not _same(float(mine.f[k]), answers[op.name][k]):
                wrong.append((op.value, a[k], b[k], mine.f[k], _num(answers[op.name][k])))
    for f in JsFunc:
        got = J.apply_funcs([f], of_floats(a))[f].f
        for k in range(len(a)):
            if not _same(float(got[k]), answers[f.name][k]):
                wrong.append((f.value, a[k], None, got[k], _num(answers[f.name][k])))
    neg = J.neg(of_floats(a)).f
    wrong += [
        ("-", a[k], None, neg[k], None)
        for k in range(len(a))
        if not _same(neg[k], answers["NEG"][k])
    ]
    assert wrong == []


def test_pow_and_cbrt_are_nodes_where_c_differs() -> None:
    """V8's `**` and Math.cbrt are its own (fdlibm's), not C's: numpy's differ in the last
    bit on about one fractional input in eleven, so these come from node."""
    rng = np.random.default_rng(23)
    a, b = rng.uniform(-50, 50, 3000), rng.uniform(-10, 10, 3000)
    answers = node(
        {
            "pairs": [[_hex(x) for x in a], [_hex(y) for y in b]],
            "binary": {"EXP": "a ** b", "POW": "Math.pow(a, b)"},
            "unary": {"CBRT": "Math.cbrt(a)"},
        }
    )
    mine, _ = J.BINARY[JsOp.EXP](of_floats(a), of_floats(b))
    cbrt = J.apply_funcs([JsFunc.CBRT], of_floats(a))[JsFunc.CBRT].f
    assert all(_same(float(mine.f[k]), answers["EXP"][k]) for k in range(len(a)))
    assert answers["EXP"] == answers["POW"]  # so Math.pow is never written (`**` is shorter)
    assert all(_same(float(cbrt[k]), answers["CBRT"][k]) for k in range(len(a)))
    with np.errstate(all="ignore"):
        c_pow = np.power(np.abs(a), b)
    assert sum(not _same(float(c_pow[k]), answers["EXP"][k]) for k in range(len(a)) if a[k] > 0) > 0


def test_literals_are_read_as_node_reads_them() -> None:
    texts = ["0", "00", "07", "023", "0123", "08", "09", "0089", "0777", "1000", "9999", "0008"]
    answers = node({"formulas": texts})["formulas"]
    assert [J.literal(t) for t in texts] == [_num(h) for h in answers]


def test_unary_minus_on_a_power_base_is_written_in_parentheses() -> None:
    grammar = Grammar.for_functions(JS_SET.functions, FormulaLanguage.JAVASCRIPT)
    assert JsOp.POW not in grammar.ops and JsOp.EXP in grammar.ops
    assert JsOp.EXP.contexts() == (Level.ATOM, Level.POW)  # base: an atom; exponent: not
    assert grammar.wrap_level(Wrap(None)) == Level.POW  # so `(-2)**2`, never `-2**2`
    assert grammar.wrap_level(Wrap(JsFunc.SQRT, Shape.NEG_F)) == Level.POW
    assert grammar.wrap_level(Wrap(JsFunc.SQRT, Shape.F_NEG)) == Level.ATOM
    php = Grammar.for_functions(["pow", "sqrt"])
    assert php.wrap_level(Wrap(None)) == Level.ATOM  # PHP's grammar has no `**`


SAMPLE = [
    ("3489", 501),
    ("7351", 437),
    ("9146", 3),
    ("2580", 100),
    ("1111", 501),
    ("9999", 50.5),
    ("1000", 1),
    ("5023", 250),
]


@pytest.fixture(scope="module")
def solver() -> Solver:
    return Solver(cache_size=2)


def test_every_candidate_is_valid_javascript_whose_node_value_is_the_claimed_one(
    solver: Solver,
) -> None:
    shown = []
    for digits, score in SAMPLE:
        solution = solver.solve(digits, score, JS_SET, top=3)
        assert 1 <= len(solution.candidates) <= 3
        values = [c.value for c in solution.candidates]
        assert len({float(v) for v in values}) == len(values)  # equal values: one Result
        shown += [(digits, score, c) for c in solution.candidates]
        aimed = solver.solve(digits, score, JS_SET, aim=40)
        shown += [(digits, score, c) for c in aimed.candidates]
        shown.append((digits, JS_SET.start_score, solver.closest(digits, JS_SET)))
    answers = node({"formulas": [c.formula for _, _, c in shown]})["formulas"]
    for (digits, score, candidate), answer in zip(shown, answers, strict=True):
        assert check(candidate.formula, digits, JS_SET.functions) == candidate.formula
        assert isinstance(candidate.value, float)
        assert not answer.startswith(("error", "not")), (candidate.formula, answer)
        assert _hex(candidate.value) == answer, (candidate.formula, candidate.value, _num(answer))
        assert math.isfinite(candidate.value)
        points, new_score = apply_points(
            score, candidate.value, JS_SET.goal, JS_SET.bonus, numbers=JS_SET.language_rules
        )
        assert (candidate.points, candidate.score) == (points, new_score)
        assert candidate.length == len(candidate.formula.replace(" ", ""))


@pytest.mark.parametrize(("digits", "score"), [("3489", 437), ("2967", 3), ("4188", 1)])
def test_the_best_answer_is_no_worse_than_any_formula_of_a_random_sample(
    solver: Solver, digits: str, score: int
) -> None:
    """Random formulas of the grammar, evaluated by node: none leaves a smaller new Score,
    nor the same one with a more readable text (fewer calls, then unary minuses, then
    characters), than the solver's best answer (tiny Scores
    too, where the solver leaves the function forms around the whole formula out)."""
    rng = np.random.default_rng(2026)
    best = solver.solve(digits, score, JS_SET).best
    answer = node({"formulas": [best.formula]})["formulas"][0]
    assert _hex(float(best.value)) == answer, (best, _num(answer))
    formulas = [_random_formula(digits, rng) for _ in range(3000)]
    answers = node({"formulas": formulas})["formulas"]
    for text, answer in zip(formulas, answers, strict=True):
        if answer.startswith(("error", "not")) or not math.isfinite(_num(answer)):
            continue
        _, new_score = apply_points(
            score, _num(answer), JS_SET.goal, JS_SET.bonus, numbers=JS_SET.language_rules
        )
        key = (float(new_score), formula_cost(text))
        assert key >= (float(best.score), formula_cost(best.formula)), (text, best)


_OPS = ["+", "-", "*", "/", "%", "**", "&", "|", "^", "<<", ">>", ">>>"]
_FUNCS = ["Math.sqrt", "Math.cbrt", "Math.abs", "Math.floor", "Math.round", "Math.sign"]


def _random_formula(digits: str, rng: np.random.Generator) -> str:
    """Split the Digits into literals and join them with random operators and wraps,
    always parenthesized (what node reads is what the solver's grammar holds)."""
    cuts = sorted(rng.choice(np.arange(1, len(digits)), rng.integers(1, 4), replace=False))
    parts = [digits[i:j] for i, j in zip([0, *cuts], [*cuts, len(digits)], strict=True)]
    text = _wrap(parts[0], rng)
    for part in parts[1:]:
        op = str(rng.choice(_OPS))
        text = _wrap(f"({text}){op}({_wrap(part, rng)})", rng)
    return text


def _wrap(text: str, rng: np.random.Generator) -> str:
    roll = rng.random()
    if roll < 0.5:
        return text
    if roll < 0.65:
        return f"(-({text}))"
    return f"{rng.choice(_FUNCS)}({text})"


def test_the_shipped_javascript_sample_is_what_the_solver_lists() -> None:
    """The practice bot's checkout chances for js-darts come from its own shipped file."""
    from solver.finish import (
        SHIPPED_FILES,
        SHIPPED_REACH,
        _shipped,
        sample_digits,
        whole_magnitudes,
    )

    data = json.loads(SHIPPED_FILES[FormulaLanguage.JAVASCRIPT].path.read_text())
    assert data["digits"] == sample_digits() and data["reach"] == SHIPPED_REACH
    grammar = Grammar.for_functions(JS_SET.functions, FormulaLanguage.JAVASCRIPT)
    listed = whole_magnitudes(data["digits"][0], grammar, SHIPPED_REACH).tolist()
    assert listed == data["magnitudes"][0]
    assert _shipped(1024, FormulaLanguage.JAVASCRIPT) is not None


def test_the_practice_opponent_plays_a_javascript_set(solver: Solver) -> None:
    """PERFECT plays to finish (solver.finish) in node's numbers: a JavaScript formula."""
    from solver.finish import finishing

    move = finishing(solver, "3489", 321.5, JS_SET, last=False)
    answer = node({"formulas": [move.formula]})["formulas"][0]
    assert check(move.formula, "3489", JS_SET.functions) == move.formula
    assert _hex(move.value) == answer
