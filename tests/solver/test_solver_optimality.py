"""Optimality: for 20 seeded Digits, no formula of a brute-forced slice of the grammar,
evaluated by real PHP through the pool's batch form, beats the solver's best.

The slice is written here independently of the solver: the Digits split into
literals, every binary tree over them, and at every node one of the ten
operators or pow; no unary minus and no one-argument function (about 7,400
formulas per Digits, 150,000 in all: tens of seconds through a pool of 2). The
`slow` variant (CI runs it too) adds, for 2 of the Digits, one one-argument
function around one literal or around the whole formula: sqrt for the first,
hexdec for the second (about 44,000 formulas each). "Beats" compares
(new Score, readability cost: calls, unary minuses, then length without spaces, text):
the solver must be at least as good.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator

import pytest

from evaluator import Evaluation, Evaluator
from rules.scoring import apply_points
from rules.sets import CLASSIC, GameSet
from solver.grammar import formula_cost
from solver.php import same
from solver.solve import Solver
from tests.support.fixtures import evaluator  # noqa: F401 (fixture)

SESSION = pytest.mark.asyncio(loop_scope="session")

SEED = 20261203
DIGITS = 20
OPERATORS = ("+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>")
PRECEDENCE = {"|": 0, "^": 1, "&": 2, "<<": 3, ">>": 3, "+": 4, "-": 4, "*": 5, "/": 5, "%": 5}
ATOM = 9
FUNCTIONS = ("sqrt", "hexdec", "octdec", "bindec")


def seeded_digits() -> list[str]:
    rng = random.Random(SEED)
    return [str(rng.randint(1000, 9999)) for _ in range(DIGITS)]


def splits(digits: str) -> Iterator[list[str]]:
    for cuts in itertools.product((False, True), repeat=len(digits) - 1):
        parts, start = [], 0
        for k, cut in enumerate(cuts, 1):
            if cut:
                parts.append(digits[start:k])
                start = k
        yield [*parts, digits[start:]]


Node = tuple[str, int]  # (text, precedence of its top: ATOM for literals and calls)


def trees(leaves: list[str]) -> Iterator[Node]:
    """Every binary tree over the leaves in order, each node an operator or pow."""
    if len(leaves) == 1:
        yield leaves[0], ATOM
    for k in range(1, len(leaves)):
        for left in trees(leaves[:k]):
            for right in trees(leaves[k:]):
                for op in OPERATORS:
                    yield combine(op, left, right)
                yield f"pow({left[0]},{right[0]})", ATOM


def combine(op: str, left: Node, right: Node) -> Node:
    level = PRECEDENCE[op]
    lt = left[0] if left[1] >= level else f"({left[0]})"
    rt = right[0] if right[1] > level else f"({right[0]})"
    return f"{lt}{op}{rt}", level


def slice_formulas(digits: str, functions: tuple[str, ...]) -> set[str]:
    """With functions: at most one, around one literal or around the whole formula."""
    out: set[str] = set()
    for leaves in splits(digits):
        out.update(text for text, _ in trees(leaves))
        for f in functions:
            out.update(f"{f}({text})" for text, _ in trees(leaves))
            for k, leaf in enumerate(leaves):
                changed = [*leaves[:k], f"{f}({leaf})", *leaves[k + 1 :]]
                out.update(text for text, _ in trees(changed))
    return out


def key(score: float, text: str) -> tuple[float, int, str]:
    """The best answer's order (RULES.md): Score, then readability, then plain text."""
    bare = text.replace(" ", "")
    return (score, formula_cost(bare), bare)


async def brute_force_best(
    evaluator: Evaluator,
    digits: str,
    game_set: GameSet,
    score: int,
    functions: tuple[str, ...],
) -> tuple[float, int, str]:
    formulas = sorted(slice_formulas(digits, functions))
    verdicts = await evaluator.evaluate_many((f, digits, game_set) for f in formulas)
    best = (float("inf"), 0, "")
    for formula, verdict in zip(formulas, verdicts, strict=True):
        if isinstance(verdict, Evaluation):
            _, new_score = apply_points(
                score, verdict.value, game_set.goal, game_set.bonus, numbers=game_set.language_rules
            )
            best = min(best, key(float(new_score), formula))
    return best


async def _check(evaluator: Evaluator, functions: tuple[str, ...], count: int = DIGITS) -> None:
    """With functions, the k-th Digits uses only the k-th function (the slices stay small)."""
    solver = Solver(cache_size=2)
    rng = random.Random(SEED + 1)
    for k, digits in enumerate(seeded_digits()[:count]):
        allowed = (functions[k % len(functions)],) if functions else ()
        score = rng.choice([501, rng.randint(2, 500)])
        best = solver.solve(digits, score, CLASSIC).best
        ours = key(float(best.score), best.formula)
        theirs = await brute_force_best(evaluator, digits, CLASSIC, score, allowed)
        assert ours <= theirs, (digits, score, best, theirs)
        verdict = await evaluator.evaluate(best.formula, digits, CLASSIC)
        assert isinstance(verdict, Evaluation) and same(verdict.value, best.value), (
            digits,
            best,
            verdict,
        )


@SESSION
async def test_no_formula_of_the_operator_slice_beats_the_solver(evaluator: Evaluator) -> None:
    await _check(evaluator, ())


@pytest.mark.slow
@SESSION
async def test_no_formula_with_one_function_beats_the_solver(evaluator: Evaluator) -> None:
    await _check(evaluator, FUNCTIONS, count=2)


def test_the_slices_have_the_documented_size() -> None:
    assert 7000 <= len(slice_formulas("3489", ())) <= 8000
    assert 40_000 <= len(slice_formulas("3489", ("sqrt",))) <= 50_000
