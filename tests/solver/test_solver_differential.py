"""Differential: 5,000 formulas drawn from the solver's own enumeration, the solver's value
against real php's (same type and value, or both errors).

Each formula is a random top-level node of random Digits (any split, any binary
operation of the Set, any wrap form around it) whose operands are random
entries of the solver's tables, written out as the solver writes them. So a
wrong value anywhere in a table, a wrong length or a missing parenthesis in a
text shows up as a mismatch. Half the Digits use every function a Set may allow.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np

from evaluator.check import check
from rules.sets import ALLOWED_FUNCTIONS, DEFAULT_FUNCTIONS
from solver import values as V
from solver.formula import Writer
from solver.grammar import Grammar, Level, Wrap, formula_cost
from solver.search import Prepared
from solver.tables import build_tables
from tests.solver.php_batch import agree, outcome_of, php_outcomes

COUNT = 5000
PER_DIGITS = 200
SEED = 20261202


def _digits(rng: random.Random) -> str:
    rest = "".join("0" if rng.random() < 0.3 else str(rng.randint(1, 9)) for _ in range(3))
    return str(rng.randint(1, 9)) + rest


def _writer(digits: str, grammar: Grammar) -> Writer:
    """A writer over the tables alone (the top-level search structures are not needed)."""
    return Writer(Prepared(digits, grammar, build_tables(digits, grammar), [], []))


def _sample(rng: random.Random, writer: Writer) -> tuple[str, V.Values | None]:
    prep = writer.prep
    n = len(prep.digits)
    split = rng.randint(1, n - 1)
    op = rng.choice(prep.grammar.ops)
    a, c = prep.left(split), prep.right(split)
    i, j = rng.randrange(len(a)), rng.randrange(len(c))
    form: Wrap | None = rng.choice([None, None, *prep.grammar.wraps])
    cl, cr = op.contexts()
    text = op.render(writer.w_text((0, split), i, cl), writer.w_text((split, n), j, cr))
    x, ok = V.BINARY[op](a.values.take(np.array([i])), c.values.take(np.array([j])))  # type: ignore[index]
    if form is not None:
        if op.level < form.inner_context:
            text = f"({text})"
        text = form.render(text)
        x = V.apply_wrap(form, x)
    return text, x if ok[0] else None


def test_solver_values_match_php(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    formulas: list[tuple[str, str, tuple[str, ...]]] = []
    ours = []
    while len(formulas) < COUNT:
        digits = _digits(rng)
        functions = tuple(sorted(ALLOWED_FUNCTIONS)) if rng.random() < 0.5 else DEFAULT_FUNCTIONS
        writer = _writer(digits, Grammar.for_functions(functions))
        for _ in range(PER_DIGITS):
            text, value = _sample(rng, writer)
            formulas.append((text, digits, functions))
            ours.append(outcome_of(None, True) if value is None else outcome_of(value.scalar(0)))
    for text, digits, functions in formulas:
        assert check(text, digits, functions) == text  # a formula the game accepts as it is
    theirs = php_outcomes([f for f, _, _ in formulas], tmp_path)
    wrong = [
        (f, d, mine, php)
        for (f, d, _), mine, php in zip(formulas, ours, theirs, strict=True)
        if not agree(mine, php)
    ]
    assert not wrong, wrong[:10]
    kinds = {kind for kind, _ in theirs}
    assert {"int", "float", "error"} <= kinds  # the sample covers each kind of outcome


def test_formulas_use_the_fewest_parentheses() -> None:
    """Costs count no redundant parenthesis: removing any pair changes PHP's parse."""
    rng = random.Random(SEED + 1)
    writer = _writer("3489", Grammar.for_functions(DEFAULT_FUNCTIONS))
    w = writer.prep.tables[(0, 3)].w
    for index in rng.sample(range(len(w)), 300):
        for ctx in (0, int(Level.ATOM)):
            text = writer.w_text((0, 3), index, ctx)
            assert formula_cost(text) == int(w.lens[index, ctx]), text
