"""A formula's error in the player's language: what, where, and PHP's own words."""

from __future__ import annotations

from bot.i18n._catalog import catalog
from evaluator.result import EvalError


def describe_eval_error(error: EvalError, locale: str) -> str:
    """Catalog text for the error's code (and `reason`, when the checker gives one).

    PHP's message is shown exactly as PHP says it: it is part of the game.
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
    if not key:
        key = f"eval.{code}" if f"eval.{code}" in book.messages else "eval.unknown"
    return book.format(key, locale, **params)
