"""A formula's error in the player's language: what, where, and PHP's own words."""

from __future__ import annotations

from bot.i18n._catalog import catalog
from evaluator.result import ErrorCode, EvalError


def _not_finite_value(message: str) -> str:
    """NAN, INF or -INF: PHP's own names, the same in every language."""
    for value in ("-INF", "INF", "NAN"):
        if value in message.upper():
            return value
    return "NAN"


def describe_eval_error(error: EvalError, locale: str, formula: str | None = None) -> str:
    """Catalog text for the error's code (and `reason`, when the checker gives one).

    PHP's message is shown exactly as PHP says it: it is part of the game. The
    checker's own English messages never are: each code has its catalog text.
    `formula` (what the player sent) lets a too-long error say how long it was.
    """
    params: dict[str, object] = dict(error.params)
    params.setdefault("text", error.text or "")
    params.setdefault("column", error.position if error.position is not None else "?")
    params["message"] = error.message
    params["php_class"] = error.php_class or "Error"
    code = error.code.value
    book = catalog()
    reason = params.get("reason")
    key = f"eval.{code}.{reason}" if reason and f"eval.{code}.{reason}" in book.messages else ""
    if error.php_class:
        key = "eval.php"
    if error.code is ErrorCode.NOT_FINITE:
        params["value"] = _not_finite_value(error.message)
    if error.code is ErrorCode.TOO_LONG:
        if error.position is not None:
            key = "eval.too_long.nesting"
        elif formula is not None:
            key = "eval.too_long.length"
            params["length"] = len(formula)
    if not key:
        key = f"eval.{code}" if f"eval.{code}" in book.messages else "eval.unknown"
    return book.format(key, locale, **params)
