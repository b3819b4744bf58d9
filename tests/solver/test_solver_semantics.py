"""The solver's PHP arithmetic against real php: a table of PHP's surprises, then seeded
random operands, each through the scalar code and the numpy code."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from solver import php
from solver import values as V
from solver.grammar import Func, Op
from tests.solver.php_batch import agree, outcome_of, php_outcomes

SCALAR_BINARY: dict[Op, Callable[[php.Number, php.Number], php.Number]] = {
    Op.ADD: php.add,
    Op.SUB: php.sub,
    Op.MUL: php.mul,
    Op.DIV: php.div,
    Op.MOD: php.mod,
    Op.AND: php.band,
    Op.OR: php.bor,
    Op.XOR: php.bxor,
    Op.SHL: php.shl,
    Op.SHR: php.shr,
    Op.POW: php.pow_,
    Op.INTDIV: php.intdiv,
    Op.FMOD: php.fmod,
    Op.MAX: php.max_,
    Op.MIN: php.min_,
}
SCALAR_UNARY: dict[Func, Callable[[php.Number], php.Number]] = {
    Func.SQRT: php.sqrt,
    Func.HEXDEC: php.hexdec,
    Func.OCTDEC: php.octdec,
    Func.BINDEC: php.bindec,
    Func.ABS: php.php_abs,
    Func.FLOOR: php.floor,
    Func.CEIL: php.ceil,
    Func.ROUND: php.round_,
}

# (op, a, b): each of PHP's number surprises the game relies on
SURPRISES: list[tuple[Op | Func | str, php.Number, php.Number]] = [
    (Op.DIV, 7, 2, ), (Op.DIV, 9, 3), (Op.DIV, php.INT_MIN, -1), (Op.DIV, 1, 0), (Op.DIV, 1, -0.0),
    (Op.DIV, 0, -1), (Op.DIV, 0.0, -1), (Op.MOD, 7, -3), (Op.MOD, -7, 3), (Op.MOD, 1, 0.5),
    (Op.MOD, php.INT_MIN, -1), (Op.MOD, 1e20, 3), (Op.MOD, -1e20, 7), (Op.MOD, math.nan, 2),
    (Op.MOD, 3.7, 2), (Op.OR, 1e20, 1), (Op.OR, math.inf, 1), (Op.XOR, 5, 3.5), (Op.AND, 5, 2),
    (Op.SHL, 1, 64), (Op.SHL, 1, 63), (Op.SHL, 1, -1), (Op.SHR, -1, 70), (Op.SHR, 5, 64),
    (Op.SHR, 1, -1), (Op.ADD, php.INT_MAX, 1), (Op.SUB, php.INT_MIN, 1),
    (Op.MUL, 3037000500, 3037000500),
    (Op.MUL, 2**62, 2), (Op.MUL, -(2**62), 2), (Op.MUL, php.INT_MIN, -1), (Op.POW, 2, 63),
    (Op.POW, -2, 63), (Op.POW, 3, 40), (Op.POW, -3, 41), (Op.POW, 7, 23), (Op.POW, 0, 0),
    (Op.POW, 0, -1), (Op.POW, 0.0, -1), (Op.POW, -8, 1 / 3), (Op.POW, 2, -2), (Op.POW, -1, 65),
    (Op.POW, php.INT_MIN, 2), (Op.POW, 10, 19), (Op.INTDIV, 7.5, 2), (Op.INTDIV, math.inf, 2),
    (Op.INTDIV, 1e20, 2), (Op.INTDIV, -7, 2), (Op.INTDIV, php.INT_MIN, -1), (Op.INTDIV, 7, 0),
    (Op.FMOD, 7, 0), (Op.FMOD, -7, 2), (Op.MAX, 1, 1.0), (Op.MAX, 1.0, 1), (Op.MAX, math.nan, 1),
    (Op.MAX, 1, math.nan), (Op.MIN, math.nan, 1), (Op.MIN, 1, math.nan), (Op.MAX, 0, -0.0),
    (Op.MAX, -0.0, 0),
    (Func.HEXDEC, 3.5, 0), (Func.HEXDEC, 1e14, 0), (Func.HEXDEC, 99999999999999.0, 0),
    (Func.HEXDEC, 123456789012345.0, 0), (Func.HEXDEC, 1 / 3, 0), (Func.HEXDEC, -15, 0),
    (Func.HEXDEC, math.inf, 0), (Func.HEXDEC, math.nan, 0), (Func.HEXDEC, php.INT_MAX, 0),
    (Func.HEXDEC, php.INT_MIN, 0), (Func.HEXDEC, 1.5e-7, 0), (Func.HEXDEC, -1e25, 0),
    (Func.HEXDEC, 1.2345678901234567e300, 0), (Func.HEXDEC, 63, 0), (Func.OCTDEC, 1e14, 0),
    (Func.OCTDEC, php.INT_MIN, 0), (Func.OCTDEC, 98, 0), (Func.OCTDEC, 0.0001, 0),
    (Func.BINDEC, 1e-5, 0), (Func.BINDEC, 1e15, 0), (Func.SQRT, -1, 0), (Func.SQRT, -0.0, 0),
    (Func.ROUND, 0.49999999999999994, 0), (Func.ROUND, 2.4999999999999996, 0),
    (Func.ROUND, -2.5, 0), (Func.ROUND, 5, 0), (Func.ROUND, 4503599627370495.5, 0),
    (Func.ROUND, 28.499999999999996, 0), (Func.FLOOR, 5, 0), (Func.FLOOR, -0.5, 0),
    (Func.CEIL, -0.5, 0), (Func.ABS, php.INT_MIN, 0), (Func.ABS, -0.0, 0),
    ("neg", php.INT_MIN, 0), ("neg", 0, 0), ("neg", 0.0, 0),
]  # fmt: skip


def _literal(v: php.Number) -> str:
    if isinstance(v, int):
        return "PHP_INT_MIN" if v == php.INT_MIN else str(v)
    if math.isnan(v):
        return "NAN"
    if math.isinf(v):
        return "INF" if v > 0 else "-INF"
    return "(-0.0)" if v == 0 and math.copysign(1, v) < 0 else f"({v!r})"


def _code(op: Op | Func | str, a: php.Number, b: php.Number) -> str:
    if op == "neg":
        return f"-({_literal(a)})"
    if isinstance(op, Func):
        return f"{op.value}({_literal(a)})"
    assert isinstance(op, Op)
    if op.is_call:
        return f"{op.value}({_literal(a)}, {_literal(b)})"
    return f"{_literal(a)} {op.value} {_literal(b)}"


def _scalar(op: Op | Func | str, a: php.Number, b: php.Number) -> tuple[php.Number | None, bool]:
    try:
        if op == "neg":
            return php.neg(a), False
        if isinstance(op, Func):
            return SCALAR_UNARY[op](a), False
        assert isinstance(op, Op)
        return SCALAR_BINARY[op](a, b), False
    except php.PhpError:
        return None, True


def _vector(
    ops: list[Op | Func | str], a: list[php.Number], b: list[php.Number]
) -> list[tuple[php.Number | None, bool]]:
    out: list[tuple[php.Number | None, bool]] = []
    for k, op in enumerate(ops):
        va, vb = V.of_scalars([a[k]]), V.of_scalars([b[k]])
        if op == "neg":
            out.append((V.neg(va).scalar(0), False))
        elif isinstance(op, Func):
            out.append((V.UNARY[op](va).scalar(0), False))
        else:
            assert isinstance(op, Op)
            res, ok = V.BINARY[op](va, vb)
            out.append((res.scalar(0), False) if ok[0] else (None, True))
    return out


def _random_operand(rng: random.Random) -> php.Number:
    roll = rng.random()
    if roll < 0.3:
        return rng.randint(-20, 20)
    if roll < 0.4:
        return rng.choice([php.INT_MAX, php.INT_MIN, 2**62, 10**15, 999999999999999, 3037000500])
    if roll < 0.5:
        return rng.randint(-(10**12), 10**12)
    if roll < 0.6:
        return rng.choice([0.0, -0.0, 0.5, 2.5, 1e14, 1e15, 1e-5, 9.3e18, 2e19, math.inf, math.nan])
    if roll < 0.8:
        return rng.uniform(-1000, 1000)
    return rng.uniform(-1, 1) * 10 ** rng.randint(-30, 40)


def _cases() -> list[tuple[Op | Func | str, php.Number, php.Number]]:
    rng = random.Random(20261201)
    ops: list[Op | Func | str] = [*Op, *Func, "neg"]
    cases = list(SURPRISES)
    for _ in range(6000):
        op = rng.choice(ops)
        b = (
            rng.randint(-3, 70)
            if op in (Op.SHL, Op.SHR, Op.POW) and rng.random() < 0.7
            else _random_operand(rng)
        )
        cases.append((op, _random_operand(rng), b))
    return cases


def test_scalar_and_numpy_arithmetic_agree_with_php(tmp_path: Path) -> None:
    cases = _cases()
    reference = php_outcomes([_code(*c) for c in cases], tmp_path)
    vector = _vector([c[0] for c in cases], [c[1] for c in cases], [c[2] for c in cases])
    wrong = []
    for case, theirs, (vec_value, vec_error) in zip(cases, reference, vector, strict=True):
        value, error = _scalar(*case)
        if not agree(outcome_of(value, error), theirs):
            wrong.append(("scalar", _code(*case), value, theirs))
        if not agree(outcome_of(vec_value, vec_error), theirs):
            wrong.append(("numpy", _code(*case), vec_value, theirs))
    assert not wrong, wrong[:10]


def test_numpy_paths_agree_with_the_scalar_code_in_bulk() -> None:
    """Whole arrays (not one value at a time): the masked fallbacks and chunked digit reads."""
    rng = random.Random(7)
    a = [_random_operand(rng) for _ in range(20000)]
    b = [rng.randint(-3, 70) if rng.random() < 0.5 else _random_operand(rng) for _ in range(20000)]
    va, vb = V.of_scalars(a), V.of_scalars(b)
    for op, fn in SCALAR_BINARY.items():
        res, ok = V.BINARY[op](va, vb)
        for k in range(len(a)):
            value, error = _scalar(op, a[k], b[k])
            assert bool(ok[k]) != error, (op, a[k], b[k])
            if not error:
                assert value is not None and php.same(value, res.scalar(k)), (
                    op,
                    a[k],
                    b[k],
                    value,
                    res.scalar(k),
                )
        del fn
    for func, fn in SCALAR_UNARY.items():  # type: ignore[assignment]
        res = V.UNARY[func](va)
        for k in range(len(a)):
            assert php.same(fn(a[k]), res.scalar(k)), (func, a[k])  # type: ignore[call-arg]


@pytest.mark.parametrize(
    ("text", "value"), [("0", 0), ("00", 0), ("023", 19), ("0777", 511), ("3489", 3489), ("10", 10)]
)
def test_literals_read_as_php_does(text: str, value: int) -> None:
    assert php.literal(text) == value


@pytest.mark.parametrize("text", ["08", "09", "0128", "0009"])
def test_octal_literals_with_8_or_9_do_not_parse(text: str) -> None:
    with pytest.raises(php.PhpParseError):
        php.literal(text)


def test_int_and_float_of_the_same_number_are_different_values() -> None:
    assert not php.same(3, 3.0)
    assert not php.same(0.0, -0.0)
    assert php.same(math.nan, math.nan)
    assert V.identical(V.of_scalars([3, 0.0]), V.of_scalars([3.0, -0.0])).tolist() == [False, False]
    assert np.all(V.float_keys(np.array([-0.0])) < V.float_keys(np.array([0.0])))


@pytest.mark.parametrize(
    ("value", "text"),
    [(3.5, "3.5"), (1e14, "1.0E+14"), (99999999999999.0, "99999999999999"), (1e15, "1.0E+15"),
     (123456789012345678.0, "1.2345678901235E+17"), (-0.0, "-0"), (0.1 + 0.2, "0.3"),
     (1e-5, "1.0E-5"), (0.0001, "0.0001"), (1.5e-7, "1.5E-7"), (math.inf, "INF"),
     (math.nan, "NAN")],
)  # fmt: skip
def test_float_text_is_phps_precision_14(value: float, text: str) -> None:
    assert php.to_string(value) == text
