"""The solver: the best formula a round allows, in its Set's language's own numbers.

Pure (numpy and `rules` only): nothing of discord, the database, Docker or
the evaluator; the bot confirms every shown formula with real PHP or node
(`bot/solving.py`). A JavaScript Set's `**` comes from a node helper process
(`node_math.py`: V8's is not C's) but for its exact cases, which numpy answers
(`js_pow.py`); its `Math.cbrt` is V8's algorithm redone in numpy (`js_cbrt.py`);
everything else is numpy.

The grammar it is optimal over (PHP's; a JavaScript Set's is the same with its
operators `+ - * / % ** & | ^ << >> >>>` and `Math.*` functions, `solver.grammar.SYNTAX`):
- the Digits, in order, split into integer literals (a leading 0 is octal,
  `08` does not parse);
- every node is a literal or a binary operation: an operator `+ - * / % & |
  ^ << >>` or a two-argument function of the Set (`pow`, `intdiv`, `fmod`,
  `max`, `min`; `max`/`min` with two arguments, `round` only with one);
- each node may be wrapped once: `x`, `-x`, `f(x)`, `-f(x)`, `f(-x)` or
  `-f(-x)` with `f` a one-argument function of the Set (`sqrt`, `hexdec`,
  `octdec`, `bindec`, `abs`, `floor`, `ceil`, `round`). So a function goes
  around any literal or any subexpression, the whole formula included, but
  functions do not nest directly (`f(g(x))` is not in the grammar, while
  `f(g(x)+y)` is); `- -x` is never useful and left out.
Among formulas of the same new Score the most readable wins (RULES.md, "The best
answer"): fewest function calls, then fewest unary minuses, then fewest characters
without spaces, written with the fewest parentheses the language needs
(`grammar.formula_cost`); ties go to the first formula in plain string order
(without spaces).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from solver.practice import Level, PracticeMove, practice_move
    from solver.process import Lane, SolverProcess, ordinary
    from solver.result import Candidate, FailureReason, Solution, SolveFailure

_HOMES: dict[str, str] = {
    "Level": "solver.practice",
    "PracticeMove": "solver.practice",
    "practice_move": "solver.practice",
    "Lane": "solver.process",
    "SolverProcess": "solver.process",
    "ordinary": "solver.process",
    "Candidate": "solver.result",
    "FailureReason": "solver.result",
    "Solution": "solver.result",
    "SolveFailure": "solver.result",
}
"""Where each name lives. Its module is imported when the name is first asked for (PEP
562): a command that needs one part (`formula-darts eval`, `solve`) does not load the rest."""

__all__ = [
    "Candidate",
    "FailureReason",
    "Lane",
    "Level",
    "PracticeMove",
    "Solution",
    "SolveFailure",
    "SolverProcess",
    "ordinary",
    "practice_move",
]


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
