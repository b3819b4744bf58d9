"""A stand-in for the solver on JavaScript Sets, and node itself as the reference.

The solver's JavaScript engine is another branch's work (`solver-js`). Until it lands,
the bot's flows that need a best answer (reveals, Practice, the daily post's closest
formula) are played with this: a handful of formulas made of the round's Digits,
judged by the bot's own evaluator (real node, in its sandbox) and scored by the
rules, best first. When the real solver lands, the fixtures swap it in on the line
marked SWAP (`ConfirmedSolver(solver, evaluator)`), and nothing else changes.

`node_text` runs a formula in a cold `node` outside the bot (a classic script, as
`node -p` runs it): what every Result the bot shows must equal.
"""

from __future__ import annotations

import json
import subprocess

import rules
from evaluator import Evaluation, Evaluator
from rules import GameSet
from solver.result import Candidate

NODE_SCRIPT = (
    "const v = require('vm').runInNewContext(process.argv[1]);"
    "process.stdout.write(JSON.stringify([String(v), Object.is(v, -0) ? '-0' : v]));"
)


def node_text(formula: str) -> tuple[str, float]:
    """`String(x)` of the formula's value in a cold node, and the value itself."""
    out = subprocess.run(
        ["node", "-e", NODE_SCRIPT, "--", formula],
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    )
    text, value = json.loads(out.stdout)
    return text, float(value)


def node_scores(results: list[float], start: int = 501, goal: int = 100, bonus: int = 50) -> str:
    """RULES.md's scoring of `results` computed by node itself: the final Score's text."""
    script = (
        f"let s = {start}; for (const r of JSON.parse(process.argv[1])) {{"
        f" let p = Math.abs({goal} - Math.abs(r - {goal})); if (p == {goal}) p += {bonus};"
        " s = Math.abs(s - p); } process.stdout.write(String(s));"
    )
    out = subprocess.run(
        ["node", "-e", script, "--", json.dumps(results)],
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    )
    return out.stdout


def formulas_of(digits: str) -> list[str]:
    a, b, c, d = tuple(digits)
    return [
        f"{a}{b}+{c}{d}",
        f"{a}{b}{c}+{d}",
        f"{a}+{b}{c}{d}",
        f"Math.sqrt({a}{b})+{c}{d}",
        f"{a}*{b}{c}+{d}",
        f"{a}{b}*{c}+{d}",
        f"{a}+{b}+{c}+{d}",
        f"{a}{b}-{c}-{d}",
    ]


class NodeStandIn:
    """The games' Revealer (and the daily post's Closest) from real node's Results."""

    def __init__(self, evaluator: Evaluator, solver: object = None) -> None:
        """`solver` (the session's SolverProcess) is not asked: it is taken so that the
        fixture's SWAP line is all that changes when the real one can be."""
        self.evaluator = evaluator
        self.solver = solver
        self.asked: list[tuple[str, str]] = []

    async def _candidates(
        self, digits: str, score: rules.Number, game_set: GameSet
    ) -> list[Candidate]:
        formulas = formulas_of(digits)
        verdicts = await self.evaluator.evaluate_many([(f, digits, game_set) for f in formulas])
        found = []
        for formula, verdict in zip(formulas, verdicts, strict=True):
            if isinstance(verdict, Evaluation):
                points, new = rules.apply_points(
                    score,
                    verdict.value,
                    game_set.goal,
                    game_set.bonus,
                    numbers=game_set.language_rules,
                )
                found.append(Candidate(verdict.formula, verdict.value, points, new, len(formula)))
        return found

    async def best(
        self, digits: str, score: rules.Number, game_set: GameSet, *, aim: int = 0
    ) -> Candidate | None:
        self.asked.append(("best", digits))
        found = await self._candidates(digits, score, game_set)
        return min(found, key=lambda c: abs(float(c.score) - aim), default=None)

    async def finish(
        self, digits: str, score: rules.Number, game_set: GameSet, *, last: bool = False
    ) -> Candidate | None:
        self.asked.append(("finish", digits))
        return await self.best(digits, score, game_set)

    async def prepare(self, digits: str, game_set: GameSet) -> None:
        return None

    async def closest(self, digits: str, game_set: GameSet) -> Candidate | None:
        found = await self._candidates(digits, game_set.start_score, game_set)
        return min(found, key=lambda c: abs(float(c.value) - game_set.goal), default=None)
