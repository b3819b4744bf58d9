"""A JavaScript Set's Points and Scores: `rules.scoring` on float Results is exactly
JavaScript's arithmetic (IEEE doubles), proven against real node on thousands of games.

node's pool gives every Result as a Python float (`evaluator.sandbox.program`), so
`apply_points` takes the float path at every step: the same operations, in the same
order, as `Math.abs(goal - Math.abs(r - goal))` and `Math.abs(score - points)` in node.
"""

from __future__ import annotations

import json
import math
import random
import shutil
import struct
import subprocess

import pytest

import rules
from rules.game_set import FormulaLanguage
from rules.languages import language_rules

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")

JAVASCRIPT = language_rules(FormulaLanguage.JAVASCRIPT)

NODE = """
const lines = require('fs').readFileSync(0, 'utf8').trim().split('\\n');
const out = [];
for (const line of lines) {
  const [goal, bonus, start, results] = JSON.parse(line);
  let score = start; const seen = [];
  for (const hex of results) {
    const r = Buffer.from(hex, 'hex').readDoubleBE(0);
    let points = Math.abs(goal - Math.abs(r - goal));
    if (points == goal) points += bonus;
    score = Math.abs(score - points);
    const b = Buffer.alloc(16); b.writeDoubleBE(points, 0); b.writeDoubleBE(score, 8);
    seen.push(b.toString('hex'));
  }
  out.push(JSON.stringify(seen));
}
process.stdout.write(out.join('\\n'));
"""

EDGES = (0.0, -0.0, 1.0, 100.0, 99.99999999999999, 100.00000000000001, 150.0, 2.0**31,
         2.0**32, 2.0**53, 2.0**53 + 2, 1e21, 1e300, 5e-324, 0.1, 0.30000000000000004,
         -1.0, -100.0, 1.3333333333333335, 501.0)  # fmt: skip


def _hex(value: float) -> str:
    return struct.pack(">d", value).hex()


def _games(count: int, seed: int) -> list[tuple[int, int, int, list[float]]]:
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        results = []
        for _ in range(rng.randint(1, 7)):
            kind = rng.random()
            if kind < 0.3:
                results.append(rng.choice(EDGES))
            elif kind < 0.6:
                results.append(rng.uniform(-1000, 1000))
            elif kind < 0.8:
                results.append(float(rng.randint(-10000, 10000)) / rng.randint(1, 99))
            else:
                results.append(struct.unpack(">d", rng.randbytes(8))[0])
        results = [r for r in results if math.isfinite(r)] or [100.0]
        goal = rng.choice((100, 0, 1, 37, 1_000_000))
        bonus = rng.choice((50, 0, 7))
        start = rng.choice((501, 301, 1, 100_000))
        games.append((goal, bonus, start, results))
    return games


def test_points_and_scores_of_float_results_are_javascripts_bit_for_bit() -> None:
    games = _games(3000, 23)
    lines = "\n".join(json.dumps([g, b, s, [_hex(r) for r in rs]]) for g, b, s, rs in games)
    done = subprocess.run(
        ["node", "-e", NODE], input=lines, capture_output=True, text=True, check=True, timeout=60
    )
    answers = done.stdout.split("\n")
    assert len(answers) == len(games)
    for (goal, bonus, start, results), line in zip(games, answers, strict=True):
        score: rules.Number = start
        ours = []
        for result in results:
            points, score = rules.apply_points(score, result, goal, bonus, numbers=JAVASCRIPT)
            assert isinstance(points, float) and isinstance(score, float)
            ours.append(_hex(points) + _hex(score))
        assert ours == json.loads(line), (goal, bonus, start, results)
