"""Playing to finish: the formula whose new Score the next round is likeliest to check out.

The best answer (smallest new Score) is what a round reveals; it is not how a
perfect player plays. From 0.54 the smallest new Score is a float like 0.00035,
which almost no Digits can take exactly, then 9e-7, and so on: the practice bot
needed six rounds. A whole-number Score that most Digits can take in one round is
worth more. How many can is estimated from the solver's tables: the whole values
near 0 of the top levels of a fixed sample of Digits, each (and its negation) scored
as a round would score it. Listing them takes seconds, too long inside a move (and
a simulated clock's settle): for the default functions they are shipped in
`checkout_sample.json` (`python -m solver.finish` writes it; a test recomputes some);
a Set with other functions lists them once per solver process. A JavaScript Set's
default functions have their own file (`checkout_sample_js.json`): the languages'
numbers differ.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from rules.game_set import FormulaLanguage
from rules.languages import each_language, language_rules
from rules.scoring import Number, is_zero
from rules.sets import GameSet
from solver.grammar import Grammar
from solver.result import Candidate
from solver.search import prepare, x_hits
from solver.solve import Solver

SAMPLE = 12
"""Digits in the sample (seeded, the same in every process)."""
SAMPLE_SEED = 20261201
SHIPPED = Path(__file__).with_name("checkout_sample.json")


@dataclass(frozen=True, slots=True)
class ShippedSample:
    """A language's shipped sample, for its default functions."""

    key: FormulaLanguage
    path: Path


SHIPPED_FILES: Mapping[FormulaLanguage, ShippedSample] = each_language(
    ShippedSample(FormulaLanguage.PHP, SHIPPED),
    ShippedSample(FormulaLanguage.JAVASCRIPT, Path(__file__).with_name("checkout_sample_js.json")),
)
SHIPPED_REACH = 4096
"""The shipped whole values go this far from 0 (REACH + 2 Goal for a Goal up to 1,536)."""
REACH = 1024
"""Whole Scores up to this are estimated; a larger one counts as never taken in one round."""
TRIES = 8
"""Whole Scores, the likeliest first, asked for as aims (a query each, ~20 ms)."""


@dataclass(frozen=True, slots=True)
class Chances:
    """For each whole Score up to REACH, the share of the sample that can take it exactly."""

    share: np.ndarray

    def of(self, score: Number) -> float:
        """The chance that a round's Digits can check `score` out: 1 at 0, none for a
        fraction (no Result lands on it but by luck) or past the reach."""
        if is_zero(score):
            return 1.0
        value = float(score)
        if not value.is_integer() or not 0 < value <= REACH:
            return 0.0
        return float(self.share[int(value)])

    def likeliest(self, count: int) -> list[int]:
        """The `count` whole Scores likeliest to be checked out (the smaller on ties)."""
        order = np.lexsort((np.arange(len(self.share)), -self.share))
        return [int(s) for s in order[:count] if s > 0 and self.share[s] > 0]


def sample_digits() -> list[str]:
    rng = random.Random(SAMPLE_SEED)
    return [str(rng.randint(1000, 9999)) for _ in range(SAMPLE)]


def whole_magnitudes(digits: str, grammar: Grammar, reach: int) -> np.ndarray:
    """Every v in 0..reach such that v or -v is a top-level value (int or whole float)."""
    far = float(reach)
    f = x_hits(prepare(digits, grammar), np.array([-far]), np.array([far])).x.f
    whole = (np.floor(f) == f) & (np.abs(f) <= far)
    return np.unique(np.abs(f[whole]).astype(np.int64))


def _default_grammar(language: FormulaLanguage) -> Grammar:
    return Grammar.for_functions(language_rules(language).functions.defaults, language)


def _shipped(reach: int, language: FormulaLanguage) -> list[np.ndarray] | None:
    path = SHIPPED_FILES[language].path
    if not path.exists():
        return None
    data = json.loads(path.read_text(encoding="ascii"))
    if data["reach"] < reach or data["digits"] != sample_digits():
        return None
    return [np.array(v, np.int64) for v in data["magnitudes"]]


@functools.lru_cache(maxsize=8)
def chances(grammar: Grammar, goal: int, bonus: int) -> Chances:
    """Per whole Score, the share of the sample Digits with a Result whose points are it."""
    reach = REACH + 2 * goal
    default = grammar == _default_grammar(grammar.language)
    sample = _shipped(reach, grammar.language) if default else None
    if sample is None:
        sample = [whole_magnitudes(d, grammar, reach) for d in sample_digits()]
    counts = np.zeros(REACH + 1, np.float64)
    for magnitudes in sample:
        r = magnitudes[magnitudes <= reach]
        r = np.concatenate([r, -r])
        points = np.abs(goal - np.abs(r - goal))
        points = np.where(points == goal, points + bonus, points)
        counts[np.unique(points[(points > 0) & (points <= REACH)])] += 1
    return Chances(counts / len(sample))


def finishing(
    solver: Solver, digits: str, score: Number, game_set: GameSet, *, last: bool
) -> Candidate:
    """The best answer if it checks out (or in the last round, where nothing comes after);
    otherwise, of the best answer and the formulas nearest the likeliest whole Scores,
    the one whose new Score is likeliest checked out next round (then the smaller)."""
    best = solver.solve(digits, score, game_set).best
    if is_zero(best.score) or last:
        return best
    grammar = Grammar.for_functions(game_set.functions, game_set.language)
    table = chances(grammar, game_set.goal, game_set.bonus)
    choice, value = best, table.of(best.score)
    for aim in table.likeliest(TRIES):
        if table.share[aim] <= value:
            break
        found = solver.solve(digits, score, game_set, aim=aim).best
        chance = table.of(found.score)
        if chance > value or (chance == value and float(found.score) < float(choice.score)):
            choice, value = found, chance
    return choice


def write_shipped(language: FormulaLanguage = FormulaLanguage.PHP) -> None:
    """Write the language's sample for its default functions (a few seconds a Digits)."""
    grammar = _default_grammar(language)
    digits = sample_digits()
    magnitudes = [whole_magnitudes(d, grammar, SHIPPED_REACH).tolist() for d in digits]
    data = {"reach": SHIPPED_REACH, "digits": digits, "magnitudes": magnitudes}
    text = json.dumps(data, separators=(",", ":")) + "\n"
    SHIPPED_FILES[language].path.write_text(text, encoding="ascii")


if __name__ == "__main__":
    import sys

    write_shipped(FormulaLanguage(sys.argv[1]) if len(sys.argv) > 1 else FormulaLanguage.PHP)
