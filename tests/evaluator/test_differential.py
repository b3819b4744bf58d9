"""Differential: the pool's verdict equals a cold `php -r` on 2,000 generated formulas.

The formulas are built from random Digits the way players build them (the
digits in order, split into literals, joined by operators and the Set's
functions) and must pass `check()`, so this is exactly what reaches PHP in a
game. The generator leans on PHP's surprises: zeros and octal literals (`023`,
invalid `08`), shifts past 63 bits, `pow` overflowing to float or INF, `sqrt`
of negatives, divisions and modulo by zero, unary minus (`3- -4`: `3--4`
would be PHP's decrement, which the checker refuses).

The reference compiles each formula natively in its own `php -r` (no eval,
no worker, no sandbox), so a bug in any layer of ours shows up as a mismatch.
"""

from __future__ import annotations

import itertools
import os
import random
import struct
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from functools import cache
from pathlib import Path

import pytest

from evaluator.check import check
from evaluator.result import ErrorCode, EvalError, Evaluation, FormulaError, Verdict
from evaluator.sandbox.pool import WorkerPool

SEED = 20261129
COUNT = 2000
FUNCTIONS = ("pow", "sqrt", "hexdec", "octdec", "bindec")
OPERATORS = ("+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>")

Reference = tuple[str, str]  # ("int"|"float"|"throw"|"parse", value or "Class: message")


def _digits(rng: random.Random) -> str:
    return "".join("0" if rng.random() < 0.3 else str(rng.randint(1, 9)) for _ in range(4))


def _split(rng: random.Random, digits: str) -> list[str]:
    cuts = sorted(rng.sample(range(1, len(digits)), rng.randint(0, len(digits) - 1)))
    bounds = [0, *cuts, len(digits)]
    return [digits[a:b] for a, b in itertools.pairwise(bounds)]


def _atom(rng: random.Random, literal: str) -> str:
    roll = rng.random()
    if roll < 0.12:
        return f"{rng.choice(('hexdec', 'octdec', 'bindec'))}({literal})"
    if roll < 0.18:
        return f"sqrt({literal})"
    if roll < 0.26:
        return f"-{literal}"
    return literal


def _expr(rng: random.Random, literals: list[str]) -> str:
    if len(literals) == 1:
        return _atom(rng, literals[0])
    k = rng.randint(1, len(literals) - 1)
    left, right = _expr(rng, literals[:k]), _expr(rng, literals[k:])
    roll = rng.random()
    if roll < 0.15:
        text = f"pow({left},{right})"
    elif roll < 0.2:
        text = f"sqrt({left}-{' ' if right.startswith('-') else ''}{right})"
    else:
        op = rng.choice(OPERATORS)
        space = " " if rng.random() < 0.2 else ""
        if not space and op == "-" and right.startswith("-"):
            space = " "  # `3--4` is PHP's decrement: players write `3- -4`
        text = f"{left}{space}{op}{space}{right}"
    return f"({text})" if rng.random() < 0.3 else text


def generate(count: int = COUNT, seed: int = SEED) -> list[str]:
    """`count` formulas that all pass check(), normalized as check() returns them."""
    rng = random.Random(seed)
    formulas: list[str] = []
    while len(formulas) < count:
        digits = _digits(rng)
        try:
            formulas.append(check(_expr(rng, _split(rng, digits)), digits, FUNCTIONS))
        except FormulaError as exc:
            raise AssertionError(f"the generator made a formula check() refuses: {exc}") from exc
    return formulas


_SHOW = (
    "is_int($r) ? 'int ' . $r"
    " : (is_float($r) ? 'float ' . var_export($r, true) : 'other ' . gettype($r))"
)
_ONE = (
    "try { $r = (%s); echo " + _SHOW + "; }"
    " catch (Throwable $e) { echo 'throw ', get_class($e), ': ', $e->getMessage(); }"
)
_BATCH = (
    "foreach (array_slice($argv, 1) as $file) {"
    " try { $r = include $file; echo " + _SHOW + "; }"
    " catch (ParseError $e) { echo 'parse ', $e->getMessage(); }"
    " catch (Throwable $e) { echo 'throw ', get_class($e), ': ', $e->getMessage(); }"
    ' echo "\\n"; }'
)
_PHP = ["php", "-n", "-d", "display_errors=stderr"]


def reference_one(formula: str) -> Reference:
    """A cold, plain `php -r` with the formula compiled natively: the ground truth."""
    proc = subprocess.run(
        [*_PHP, "-r", _ONE % formula], capture_output=True, text=True, timeout=30, check=False
    )
    if proc.returncode == 255 and "Parse error" in proc.stderr:
        return "parse", proc.stderr.split("Parse error:", 1)[1].split(" in ", 1)[0].strip()
    kind, _, value = proc.stdout.partition(" ")
    return kind, value


def reference_batch(formulas: list[str], directory: Path) -> list[Reference]:
    """Many formulas in one cold `php -r`, each compiled natively from its own file
    by `include` (a ParseError there is catchable). The same as `reference_one`
    (a test checks that on a sample), without 10 ms of start-up per formula."""
    files = []
    for index, formula in enumerate(formulas):
        file = directory / f"f{index}.php"
        file.write_text(f"<?php return ({formula});\n")
        files.append(str(file))
    proc = subprocess.run(
        [*_PHP, "-r", _BATCH, "--", *files], capture_output=True, text=True, timeout=60, check=False
    )
    lines = proc.stdout.split("\n")[: len(formulas)]
    assert len(lines) == len(formulas), proc.stderr
    return [(kind, value) for kind, _, value in (line.partition(" ") for line in lines)]


@cache
def cases() -> tuple[tuple[str, Reference], ...]:
    formulas = generate()
    chunks = [formulas[i : i + 250] for i in range(0, len(formulas), 250)]
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        dirs = [Path(tmp) / str(i) for i in range(len(chunks))]
        for d in dirs:
            d.mkdir()
        results = pool.map(reference_batch, chunks, dirs)
        return tuple(zip(formulas, [r for chunk in results for r in chunk], strict=True))


def bits(x: float) -> bytes:
    return struct.pack("<d", x)


def agrees(verdict: Verdict, expected: Reference) -> bool:
    kind, value = expected
    if isinstance(verdict, Evaluation):
        if kind == "int" and verdict.php_type == "int":
            return verdict.value == int(value)
        if kind == "float" and verdict.php_type == "float":
            return bits(float(verdict.value)) == bits(float(value))
        return False
    assert isinstance(verdict, EvalError)
    if verdict.code == ErrorCode.SYNTAX:
        return kind == "parse" and value == verdict.message
    if verdict.code == ErrorCode.NOT_FINITE:
        return kind == "float" and value in ("INF", "-INF", "NAN")
    if verdict.code == ErrorCode.PHP:
        return kind == "throw" and value == f"{verdict.error_class}: {verdict.message}"
    return False


def test_generator_covers_the_surprises() -> None:
    formulas = [f for f, _ in cases()]
    references = [r for _, r in cases()]
    assert len(formulas) >= 2000
    assert len(set(formulas)) > 1900
    kinds = {kind for kind, _ in references}
    assert kinds >= {"int", "float", "throw", "parse"}
    joined = " ".join(formulas)
    for needle in ("pow(", "sqrt(", "hexdec(", "octdec(", "bindec(", "<<", ">>", "- -", "(0"):
        assert needle in joined, needle
    throws = " ".join(v for k, v in references if k == "throw")
    assert "Division by zero" in throws
    assert "Modulo by zero" in throws
    assert any(k == "float" and v in ("INF", "NAN") for k, v in references)
    assert any(k == "parse" and "Invalid numeric literal" in v for k, v in references)
    overflow = [f for f, (k, _) in cases() if k == "float" and "/" not in f and "sqrt" not in f]
    assert overflow, "no integer overflow to float was generated"


@pytest.mark.slow
async def test_pool_agrees_with_cold_php(pool: WorkerPool) -> None:
    table = cases()
    verdicts = await pool.run_many(formula for formula, _ in table)
    mismatches = [
        (formula, expected, verdict)
        for (formula, expected), verdict in zip(table, verdicts, strict=True)
        if not agrees(verdict, expected)
    ]
    assert not mismatches[:20], f"{len(mismatches)} of {len(table)} differ"


def test_batch_reference_equals_one_php_r_per_formula() -> None:
    """The fast reference gives exactly what a separate `php -r` per formula gives."""
    sample = random.Random(SEED).sample(list(cases()), 60)
    sample += [(f, r) for f, r in cases() if r[0] == "parse"][:10]
    with ThreadPoolExecutor((os.cpu_count() or 1) * 2) as executor:
        singles = list(executor.map(reference_one, [f for f, _ in sample]))
    assert [r for _, r in sample] == singles
