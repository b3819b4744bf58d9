"""What the terminal prints, in the reader's language (`reader_locale`): numbers as the
Set's language prints them, a formula's error with a caret under its column, a game's
table of rounds and its outcome. Every word is the catalog's (`terminal.yaml`)."""

from __future__ import annotations

from collections.abc import Mapping

import rules
from bot.i18n import DEFAULT_LOCALE, describe_eval_error, normalize_locale, t
from evaluator.language import language
from evaluator.result import EvalError
from rules import GameState

FORMULA_COLUMN = 40
LOCALE_VARIABLES = ("LC_ALL", "LC_MESSAGES", "LANG")
"""Where a terminal says its reader's language, first set first (as gettext reads them)."""
COLUMNS = ("round", "digits", "formula", "result", "points", "score")


def reader_locale(chosen: str | None, environ: Mapping[str, str]) -> str:
    """The terminal's language: `--lang` when given, else the locale the environment
    names (`uk_UA.UTF-8` → uk); English for anything the catalog does not have."""
    if chosen:
        return normalize_locale(chosen)
    for variable in LOCALE_VARIABLES:
        value = environ.get(variable, "")
        if value:
            return normalize_locale(value.split(".", 1)[0].replace("_", "-"))
    return DEFAULT_LOCALE


def fmt(value: rules.Number, lang: rules.FormulaLanguage) -> str:
    """As the Set's language prints it (PHP's echo, JavaScript's String), like the
    Discord face; the result line names the type."""
    return language(lang).echo(value)


def describe_error(
    error: EvalError, formula: str, lang: rules.FormulaLanguage, locale: str = DEFAULT_LOCALE
) -> str:
    """The error as the bot words it in `locale`, with a caret under the column it names,
    as a compiler would; an error the language raised names its class as the language
    does (`PHP DivisionByZeroError`, `JavaScript SyntaxError`)."""
    text = describe_eval_error(error, locale, formula, lang=lang)
    lines = [f"  ✗ {text}"]
    if error.error_class and error.error_class not in text:
        lines[0] = f"  ✗ {language(lang).label} {error.error_class}: {text}"
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


def summary(state: GameState, locale: str = DEFAULT_LOCALE) -> str:
    """Every round in a table, then the outcome."""
    lang = state.game_set.language
    body: list[list[str]] = []
    for rnd in state.rounds:
        answer = rnd.answers[0]
        if answer is None:
            no_answer = t("terminal.no_answer", locale)
            body.append([str(rnd.number), rnd.digits, no_answer, "", "", ""])
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
    rows = _table([t(f"terminal.column.{c}", locale) for c in COLUMNS], body)
    rows.append(outcome_text(state, locale))
    return "\n".join(rows)


def outcome_text(state: GameState, locale: str) -> str:
    result = state.outcome
    if result is None:
        return t("terminal.outcome.playing", locale)
    term = result.termination
    if term is rules.Termination.CHECKOUT:
        text = t("terminal.outcome.checkout", locale, rounds=result.rounds)
        return f"{text} {t('terminal.outcome.perfect', locale)}" if result.perfect else text
    score = fmt(state.scores[0], state.game_set.language)
    return t(f"terminal.outcome.{term.value}", locale, rounds=result.rounds, score=score)
