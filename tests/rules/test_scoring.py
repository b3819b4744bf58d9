"""Scoring: every table of RULES.md, the seed examples, and PHP itself as the oracle."""

from __future__ import annotations

import json
import random
import subprocess

import pytest

from rules.game_set import FormulaLanguage
from rules.languages import language_rules
from rules.scoring import INT_MAX, INT_MIN, apply_points, is_zero, php_abs, php_sub, round_points

PHP = language_rules(FormulaLanguage.PHP)

RULES_TABLE = [
    # score, result, points, new score (goal 100, bonus 50)
    (501, 123, 77, 424),
    (424, 100, 150, 274),
    (501, 701, 501, 0),
    (100, 300, 150, 50),
    (50, 1234, 1034, 984),
]


@pytest.mark.parametrize(("score", "result", "points", "new_score"), RULES_TABLE)
def test_rules_table(score: int, result: int, points: int, new_score: int) -> None:
    assert apply_points(score, result, 100, 50, numbers=PHP) == (points, new_score)


def test_seed_examples_from_the_original_rules() -> None:
    points, score = apply_points(501, 34 + 89, 100, 50, numbers=PHP)
    assert (points, score) == (77, 424)
    points, score = apply_points(score, 2 * 47 + 6, 100, 50, numbers=PHP)
    assert (points, score) == (150, 274)


def test_float_result_keeps_float_score() -> None:
    points, score = apply_points(501, 3.5, 100, 50, numbers=PHP)
    assert points == 3.5
    assert isinstance(score, float)
    assert score == 497.5


def test_float_equal_to_goal_gets_bonus() -> None:
    assert round_points(100.0, 100, 50, numbers=PHP) == 150.0


def test_int_overflow_turns_into_double_like_php() -> None:
    assert php_sub(INT_MIN, 1) == float(INT_MIN) - 1.0
    assert isinstance(php_sub(INT_MIN, 1), float)
    assert isinstance(php_abs(INT_MIN), float)
    assert php_abs(INT_MAX) == INT_MAX


def test_checkout_accepts_float_zero() -> None:
    assert is_zero(0)
    assert is_zero(0.0)
    assert not is_zero(1e-300)


PHP_REPLAY = r"""
$cases = json_decode(stream_get_contents(STDIN), true);
$out = [];
foreach ($cases as $c) {
    [$score, $result, $goal, $bonus] = [$c["s"], $c["r"], $c["g"], $c["b"]];
    $points = abs($goal - abs($result - $goal));
    if ($points == $goal) { $points += $bonus; }
    $new = abs($score - $points);
    $out[] = [gettype($points), $points, gettype($new), $new];
}
echo json_encode($out);
"""


def _random_number(rng: random.Random) -> int | float:
    kind = rng.randrange(6)
    if kind == 0:
        return rng.randint(-(10**4), 10**4)
    if kind == 1:
        return rng.choice([INT_MAX, INT_MIN, INT_MAX - rng.randint(0, 500), INT_MIN + 7])
    if kind == 2:
        return rng.randint(INT_MIN, INT_MAX)
    if kind == 3:
        return rng.uniform(-1e6, 1e6)
    if kind == 4:
        return rng.choice([100.0, 0.5, -0.0, 1e300, -1e300, 3.5])
    return rng.choice([100, 99, 101, 0, 250])


def _php_type(value: int | float) -> str:
    return "double" if isinstance(value, float) else "integer"


def _as(php_type: str, value: int | float) -> int | float:
    """JSON writes a whole double like 3.0 as 3; PHP's gettype tells which it was."""
    return float(value) if php_type == "double" else value


def test_random_rounds_replay_bit_for_bit_in_php() -> None:
    rng = random.Random(2026)
    cases = []
    for _ in range(3000):
        goal = rng.choice([100, 0, 1, 50, 1000])
        bonus = rng.choice([50, 0, 7])
        score = rng.choice([501, 0, rng.randint(0, 10**6), rng.uniform(0, 1e4)])
        cases.append({"s": score, "r": _random_number(rng), "g": goal, "b": bonus})
    proc = subprocess.run(
        ["php", "-n", "-d", "serialize_precision=-1", "-r", PHP_REPLAY],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        check=True,
    )
    php = json.loads(proc.stdout)
    mismatches = []
    for case, (points_type, php_points, score_type, php_score) in zip(cases, php, strict=True):
        points, score = apply_points(case["s"], case["r"], case["g"], case["b"], numbers=PHP)  # type: ignore[arg-type]
        ours = (_php_type(points), points, _php_type(score), score)
        theirs = (points_type, _as(points_type, php_points), score_type, _as(score_type, php_score))
        if ours != theirs:
            mismatches.append((case, ours, theirs))
    assert not mismatches, mismatches[:5]


def test_numbers_print_as_php_var_export_prints_them() -> None:
    from rules.scoring import php_text

    rng = random.Random(7)
    values: list[int | float] = [
        0.0,
        -0.0,
        3.5,
        100.0,
        1e25,
        1e15,
        1e16,
        1e17,
        1.5e16,
        0.0001,
        0.00001,
        -2.5e-5,
        8.197210849721839e67,
        0.38202247191011907,
        5e-324,
        1.7976931348623157e308,
        INT_MAX,
        INT_MIN + 1,
        0,
        -7,
        float(INT_MAX),
    ]
    values += [rng.uniform(-1e6, 1e6) for _ in range(200)]
    values += [rng.choice([-1, 1]) * 10 ** rng.uniform(-30, 30) for _ in range(300)]
    values += [float(rng.randint(-(10**20), 10**20)) for _ in range(100)]
    code = (
        "foreach (json_decode(stream_get_contents(STDIN)) as $v) "
        '{ echo var_export($v, true), "\\n"; }'
    )
    proc = subprocess.run(
        ["php", "-n", "-d", "serialize_precision=-1", "-r", code],
        input=json.dumps(values),
        capture_output=True,
        text=True,
        check=True,
    )
    php = proc.stdout.splitlines()
    ours = [php_text(v) for v in values]
    mismatches = [(v, o, p) for v, o, p in zip(values, ours, php, strict=True) if o != p]
    assert not mismatches, mismatches[:5]
    # var_export writes PHP_INT_MIN as an expression; a player reads the number.
    assert php_text(INT_MIN) == "-9223372036854775808"
