"""Differential: the node pool's verdict equals real node's on 3,000 generated formulas.

Formulas are built as players build them (the Digits in order, split into
literals, joined by the twelve operators, unary minus and the Set's Math
functions) and must pass the JavaScript checker, so this is exactly what
reaches node in a game. The generator leans on JavaScript's surprises: legacy
octal (`023` is 19, `08` is 8), `-2**2` (a SyntaxError), 32-bit `^ & | << >>`,
`>>>` of negatives, `%` of negatives, division by zero (Infinity, NaN),
`Math.sqrt` of negatives, `**` past 2^1024.

The reference is one cold `node` running each formula as a classic script in
its own realm (`vm.Script` in this context: no fresh context, no frozen Math,
no worker, no sandbox), checked on a sample against a separate `node -p` per
formula. Every Result must be the same double (bit for bit, -0 included) and
print as node prints it; every error an error of the same kind and message.
"""

from __future__ import annotations

import itertools
import json
import random
import re
import struct
import subprocess
from concurrent.futures import ThreadPoolExecutor
from functools import cache

import pytest

from evaluator.js_check import check
from evaluator.language import language
from evaluator.result import ErrorCode, EvalError, Evaluation, FormulaError, Verdict
from evaluator.sandbox.pool import WorkerPool
from rules.game_set import JS_ALLOWED_FUNCTIONS, FormulaLanguage

SEED = 20261201
COUNT = 3000
OPERATORS = ("+", "-", "*", "/", "%", "**", "&", "|", "^", "<<", ">>", ">>>")
ONE_ARG = ("Math.sqrt", "Math.cbrt", "Math.abs", "Math.floor", "Math.ceil", "Math.round")
ONE_ARG += ("Math.trunc", "Math.sign")  # type: ignore[assignment]
TWO_ARGS = ("Math.pow", "Math.hypot", "Math.max", "Math.min")
FUNCTIONS = tuple(sorted(JS_ALLOWED_FUNCTIONS))
JS = language(FormulaLanguage.JAVASCRIPT)

Reference = tuple[str, str]  # ("number", String(x) or "-0") | ("throw", "Class: message")

_REFERENCE = r"""
const vm = require('vm');
const out = [];
for (const formula of JSON.parse(require('fs').readFileSync(0, 'utf8'))) {
  try {
    const value = new vm.Script(formula).runInThisContext();
    out.push(['number', Object.is(value, -0) ? '-0' : String(value)]);
  } catch (e) {
    out.push(['throw', e.constructor.name + ': ' + e.message]);
  }
}
process.stdout.write(JSON.stringify(out));
"""
_THROWN = re.compile(r"^(\w*Error): (.*)$", re.MULTILINE)


def _digits(rng: random.Random) -> str:
    return "".join("0" if rng.random() < 0.3 else str(rng.randint(1, 9)) for _ in range(4))


def _split(rng: random.Random, digits: str) -> list[str]:
    cuts = sorted(rng.sample(range(1, len(digits)), rng.randint(0, len(digits) - 1)))
    return [digits[a:b] for a, b in itertools.pairwise([0, *cuts, len(digits)])]


def _atom(rng: random.Random, literal: str) -> str:
    roll = rng.random()
    if roll < 0.15:
        return f"{rng.choice(ONE_ARG)}({literal})"
    if roll < 0.25:
        return f"-{literal}"
    return literal


def _expr(rng: random.Random, literals: list[str]) -> str:
    if len(literals) == 1:
        return _atom(rng, literals[0])
    k = rng.randint(1, len(literals) - 1)
    left, right = _expr(rng, literals[:k]), _expr(rng, literals[k:])
    roll = rng.random()
    if roll < 0.15:
        text = f"{rng.choice(TWO_ARGS)}({left},{right})"
    elif roll < 0.2:
        text = f"{rng.choice(ONE_ARG)}({left}-{' ' if right.startswith('-') else ''}{right})"
    else:
        op = rng.choice(OPERATORS)
        space = " " if rng.random() < 0.2 else ""
        if not space and op in ("-", "+") and right.startswith("-"):
            space = " "  # `3--4` is a decrement: players write `3- -4`
        text = f"{left}{space}{op}{space}{right}"
    return f"({text})" if rng.random() < 0.3 else text


def generate(count: int = COUNT, seed: int = SEED) -> list[str]:
    """`count` formulas that all pass the checker, normalized as it returns them."""
    rng = random.Random(seed)
    formulas: list[str] = []
    while len(formulas) < count:
        digits = _digits(rng)
        try:
            formulas.append(check(_expr(rng, _split(rng, digits)), digits, FUNCTIONS))
        except FormulaError as exc:
            raise AssertionError(
                f"the generator made a formula the checker refuses: {exc}"
            ) from exc
    return formulas


def reference_batch(formulas: list[str]) -> list[Reference]:
    proc = subprocess.run(
        ["node", "-e", _REFERENCE],
        input=json.dumps(formulas),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return [(kind, value) for kind, value in json.loads(proc.stdout)]


def reference_one(formula: str) -> Reference:
    """A cold `node -p` per formula (after a space: `-5` is no option): what it prints,
    or the error it dies of."""
    proc = subprocess.run(
        ["node", "-p", f" {formula}"], capture_output=True, text=True, timeout=30, check=False
    )
    if proc.returncode == 0:
        return "number", proc.stdout.strip()
    thrown = _THROWN.search(proc.stderr)
    assert thrown is not None, proc.stderr
    return "throw", f"{thrown[1]}: {thrown[2]}"


@cache
def cases() -> tuple[tuple[str, Reference], ...]:
    formulas = generate()
    return tuple(zip(formulas, reference_batch(formulas), strict=True))


def bits(x: float) -> bytes:
    return struct.pack("<d", x)


def agrees(verdict: Verdict, expected: Reference) -> bool:
    kind, value = expected
    if isinstance(verdict, Evaluation):
        if kind != "number" or value in ("NaN", "Infinity", "-Infinity"):
            return False
        same = bits(float(verdict.value)) == bits(-0.0 if value == "-0" else float(value))
        return same and JS.show(verdict.value) == ("0" if value == "-0" else value)
    assert isinstance(verdict, EvalError)
    if verdict.code == ErrorCode.NOT_FINITE:
        return kind == "number" and value in ("NaN", "Infinity", "-Infinity")
    if verdict.code in (ErrorCode.SYNTAX, ErrorCode.PHP):
        return kind == "throw" and value == f"{verdict.error_class}: {verdict.message}"
    return False


def test_generator_covers_the_surprises() -> None:
    table = cases()
    assert len({f for f, _ in table}) > 2900
    values = [v for _, (k, v) in table if k == "number"]
    throws = " ".join(v for _, (k, v) in table if k == "throw")
    assert "SyntaxError" in throws  # -2**2, 09 after a literal, ...
    assert {"NaN", "Infinity"} <= set(values)
    assert any("." in v for v in values) and any("e+" in v for v in values)
    assert any(v.startswith("-") for v in values)
    joined = " ".join(f for f, _ in table)
    for needle in (*OPERATORS, "Math.", "- -", "(0", " 0"):
        assert needle in joined, needle
    assert any(f.startswith("0") and f[1:2].isdigit() for f, _ in table)  # legacy octal


@pytest.mark.slow
async def test_pool_agrees_with_real_node(js_pool: WorkerPool) -> None:
    table = cases()
    verdicts = await js_pool.run_many(formula for formula, _ in table)
    mismatches = [
        (formula, expected, verdict)
        for (formula, expected), verdict in zip(table, verdicts, strict=True)
        if not agrees(verdict, expected)
    ]
    assert not mismatches[:20], f"{len(mismatches)} of {len(table)} differ"


def test_batch_reference_equals_one_node_per_formula() -> None:
    """The fast reference gives exactly what a separate `node` per formula gives."""
    sample = random.Random(SEED).sample(list(cases()), 40)
    sample += [(f, r) for f, r in cases() if r[0] == "throw"][:10]
    with ThreadPoolExecutor(4) as executor:
        singles = list(executor.map(reference_one, [f for f, _ in sample]))
    assert [r for _, r in sample] == singles


def test_results_print_as_javascript_prints_them() -> None:
    shown = [
        (f, v)
        for f, (k, v) in cases()
        if k == "number" and v not in ("NaN", "Infinity", "-Infinity", "-0")
    ]
    assert len(shown) > 1000
    assert all(JS.show(float(v)) == v for _, v in shown)
