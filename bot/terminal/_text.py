"""What the terminal prints: numbers as the Set's language prints them, a formula's
error with a caret under its column, a game's table of rounds and its outcome."""

from __future__ import annotations

import rules
from evaluator.language import language
from evaluator.result import EvalError
from rules import GameState

FORMULA_COLUMN = 40


def fmt(value: rules.Number, lang: rules.FormulaLanguage) -> str:
    """As the Set's language prints it (PHP's echo, JavaScript's String), like the
    Discord face; the result line names the type."""
    return language(lang).echo(value)


def describe_error(error: EvalError, formula: str, lang: rules.FormulaLanguage) -> str:
    """The error with a caret under the column it names, as a compiler would; an error
    the language raised names its class as the language does (`PHP DivisionByZeroError`,
    `JavaScript SyntaxError`)."""
    lines = [f"  ✗ {error.code.value}: {error.message}"]
    if error.error_class:
        lines[0] = f"  ✗ {language(lang).label} {error.error_class}: {error.message}"
    if error.position is not None and 0 < error.position <= len(formula) + 1:
        lines.append(f"    {formula}")
        lines.append("    " + " " * (error.position - 1) + "^")
    return "\n".join(lines)


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    """Columns as wide as their widest cell: every number is shown whole."""
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    left = {2}  # the formula column reads better left-aligned
    return [
        "  ".join(
            c.ljust(w) if i in left else c.rjust(w)
            for i, (c, w) in enumerate(zip(r, widths, strict=True))
        ).rstrip()
        for r in [header, *rows]
    ]


def _short(formula: str) -> str:
    return formula if len(formula) <= FORMULA_COLUMN else formula[: FORMULA_COLUMN - 1] + "…"


def summary(state: GameState) -> str:
    """Every round in a table, then the outcome."""
    lang = state.game_set.language
    body: list[list[str]] = []
    for rnd in state.rounds:
        answer = rnd.answers[0]
        if answer is None:
            body.append([str(rnd.number), rnd.digits, "(no answer)", "", "", ""])
        else:
            body.append(
                [
                    str(rnd.number),
                    rnd.digits,
                    _short(answer.formula),
                    fmt(answer.result, lang),
                    fmt(answer.points, lang),
                    fmt(answer.score, lang),
                ]
            )
    rows = _table(["round", "digits", "formula", "result", "points", "score"], body)
    result = state.outcome
    if result is None:
        rows.append("Game not finished.")
    elif result.termination is rules.Termination.CHECKOUT:
        perfect = " — PERFECT game!" if result.perfect else ""
        rows.append(f"Checkout in {result.rounds} round(s){perfect}. You win.")
    elif result.termination is rules.Termination.MAX_ROUNDS:
        rows.append(
            f"All {result.rounds} rounds played, {fmt(state.scores[0], lang)} left: finished "
            "(counts as a win, below every checkout)."
        )
    elif result.termination is rules.Termination.TIMEOUT:
        rows.append("Time ran out: the game is lost.")
    elif result.termination is rules.Termination.VOID:
        rows.append("The game was void: it counts for nobody.")
    else:
        rows.append("You resigned: the game is lost.")
    return "\n".join(rows)
