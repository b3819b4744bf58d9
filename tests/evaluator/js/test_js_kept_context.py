"""The node worker keeps one vm context for formulas that can only compute (worker.js,
`PURE`): whatever a formula tries to leave behind (globals, prototypes, Math, getters)
must not reach the formulas after it. Every attempt below is a formula of mode "e",
unchecked (the pool's `run` sends what it is given); after each, pure formulas whose
values a leak would change must still give theirs."""

from __future__ import annotations

import asyncio

import pytest

from evaluator.result import ErrorCode, EvalError, Evaluation
from evaluator.sandbox.pool import WorkerPool

OBJECT = "({}).constructor"
SYMBOL = f"{OBJECT}.getOwnPropertySymbols(Math)[0].constructor"  # Symbol, not a global here
LEAVE_BEHIND = [
    "globalThis.x = 5",
    "this.y = 1",
    "var z = 2",
    "w = 3",
    "Math.abs = function () { return 7 }",
    "Math.max = Math.min",
    f"{OBJECT}.defineProperty(Math, 'sqrt', {{ get() {{ return () => 7 }} }})",
    f"{OBJECT}.setPrototypeOf(Math, {{ valueOf() {{ return 7 }} }})",
    "(1).constructor.prototype.valueOf = function () { return 7 }",
    "/x/.constructor.prototype.toString = function () { return '7' }",
    f"{OBJECT}.prototype.valueOf = function () {{ return 7 }}",
    f"{OBJECT}.prototype.toString = function () {{ return '7' }}",
    f"{OBJECT}.defineProperty({OBJECT}.prototype, 'valueOf', {{ get() {{ return () => 7 }} }})",
    "Math.max.constructor.prototype.call = function () { return 7 }",
    "Math.max.constructor.prototype.apply = function () { return 7 }",
    "Math.__proto__.valueOf = () => 7",
    "[].constructor.prototype.join = () => '7'",
    "this.Math = { abs: () => 7, sqrt: () => 7, max: () => 7, min: () => 7, pow: () => 7 }",
    f"{OBJECT}.defineProperty(this, 'Math', {{ get() {{ return {{ abs: () => 7 }} }} }})",
    "delete this.Math",
    "Math = 7",
    f"/x/.constructor.prototype[{SYMBOL}.toPrimitive] = () => 7",
    f"{OBJECT}.prototype[{SYMBOL}.toPrimitive] = () => 7",
    "try { null.x } catch (e) { e.constructor.prototype.constructor = { name: 'Forged' } }",
    "Math.max.constructor('globalThis.q = 7')()",
]
PROBES = {
    "Math.abs(0-2)": 2.0, "Math.sqrt(16)": 4.0, "Math.max(3,4)+1": 5.0, "023": 19.0,
    "34+89": 123.0, "Math.min(1,9)*Math.pow(2,3)": 8.0, "Math.max()<0": None,
}  # fmt: skip
"""Pure formulas (the kept context's kind) and their values (None: not a number)."""
TYPE_ERROR = "1(2)"
"""Pure too, and a TypeError of the kept context's own: its class is read from it."""
NOT_A_NUMBER = ["Math.max(/7/)", "Math.abs(/7/)+1", "Math.max(/7/,/8/)"]
"""A regular expression is NaN as a number, unless its or Object's prototype was changed."""


async def probe(pool: WorkerPool) -> None:
    for formula, value in PROBES.items():
        verdict = await pool.run(formula)
        if value is None:
            assert isinstance(verdict, EvalError) and verdict.code == ErrorCode.PHP, verdict
        else:
            assert verdict == Evaluation(formula, value), (formula, verdict)
    for formula in NOT_A_NUMBER:
        verdict = await pool.run(formula)
        assert isinstance(verdict, EvalError), (formula, verdict)
        assert verdict.code == ErrorCode.NOT_FINITE, (formula, verdict)
    assert await pool.run(TYPE_ERROR) == TYPE_ERROR_VERDICT


TYPE_ERROR_VERDICT = EvalError(ErrorCode.RUNTIME, "1 is not a function", error_class="TypeError")


async def test_nothing_a_formula_leaves_reaches_the_next(js_pool: WorkerPool) -> None:
    await probe(js_pool)
    for attempt in LEAVE_BEHIND:
        for _ in range(js_pool.size):  # every worker, whichever takes it
            await js_pool.run(attempt)
        await probe(js_pool)


@pytest.mark.parametrize("attempt", LEAVE_BEHIND[8:])
async def test_nor_in_one_batch(js_pool: WorkerPool, attempt: str) -> None:
    """Attempts and probes queued together reach a worker as one batch, in any order."""
    formulas = [attempt, *PROBES, *NOT_A_NUMBER, TYPE_ERROR] * 3
    verdicts = await asyncio.gather(*(js_pool.run(f) for f in formulas))
    for formula, verdict in zip(formulas, verdicts, strict=True):
        if (value := PROBES.get(formula)) is not None:
            assert verdict == Evaluation(formula, value), (formula, verdict)
        elif formula in NOT_A_NUMBER:
            assert isinstance(verdict, EvalError) and verdict.code == ErrorCode.NOT_FINITE
        elif formula == TYPE_ERROR:
            assert verdict == TYPE_ERROR_VERDICT, verdict


async def test_no_context_compiles_code_from_strings(js_pool: WorkerPool) -> None:
    """The Function constructor (reached from any function) is refused in a formula's
    context: no code it builds can run there, kept or fresh."""
    verdict = await js_pool.run("Math.max.constructor('globalThis.q = 7')()")
    assert isinstance(verdict, EvalError) and verdict.error_class == "EvalError", verdict
    assert "Code generation from strings disallowed" in verdict.message
