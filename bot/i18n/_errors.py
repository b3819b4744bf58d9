"""A formula's error in the player's language: what, where, and PHP's own words."""

from __future__ import annotations

from babel.lists import format_list

from bot.i18n._catalog import catalog, normalize_locale
from evaluator.result import ErrorCode, EvalError

NO_DIGITS = ("", "none")
"""What the checker's `read` parameter says when the formula has no digit at all."""

OPERATOR_KINDS = {"**": "power", "//": "comment", "/*": "comment", "--": "twice", "++": "twice"}
"""Refused operators that get their own hint (how to write it instead)."""


def _not_finite_value(message: str) -> str:
    """NAN, INF or -INF: PHP's own names, the same in every language."""
    for value in ("-INF", "INF", "NAN"):
        if value in message.upper():
            return value
    return "NAN"


def read_digits(read: str) -> list[str]:
    """The digits the checker read, from its `read` parameter ("4,3", "none", or "43")."""
    if read.strip().lower() in NO_DIGITS:
        return []
    parts = [part.strip() for part in read.split(",") if part.strip()]
    if len(parts) == 1 and parts[0].isdigit():
        return list(parts[0])
    return parts


def digits_text(read: str, language: str) -> str:
    """The digits read as a list in the reader's language: "4 і 3", never "4,3" (a decimal)."""
    return format_list(read_digits(read), locale=language)


def _key(error: EvalError, params: dict[str, object], formula: str | None) -> str:
    book = catalog()
    code = error.code.value
    if error.php_class:
        return "eval.php"
    if error.code is ErrorCode.TOO_LONG:
        if error.position is not None:
            return "eval.too_long.nesting"
        if formula is not None:
            params["length"] = len(formula)
            return "eval.too_long.length"
    if error.code is ErrorCode.DIGITS and not read_digits(str(params.get("read", ""))):
        return "eval.digits.none"
    reason = params.get("reason")
    if reason in ("operator", "token"):
        kind = OPERATOR_KINDS.get(str(params.get("text", "")))
        if kind and f"eval.forbidden.operator.{kind}" in book.messages:
            return f"eval.forbidden.operator.{kind}"
    if reason and f"eval.{code}.{reason}" in book.messages:
        return f"eval.{code}.{reason}"
    return f"eval.{code}" if f"eval.{code}" in book.messages else "eval.unknown"


def describe_eval_error(error: EvalError, locale: str, formula: str | None = None) -> str:
    """Catalog text for the error's code (and `reason`, when the checker gives one).

    PHP's message is shown exactly as PHP says it: it is part of the game. The
    checker's own English messages never are: each code has its catalog text,
    and what the checker glued into its parameters (the digits it read) is
    written again in the reader's language. `formula` (what the player sent)
    lets a too-long error say how long it was.
    """
    language = normalize_locale(locale)
    params: dict[str, object] = dict(error.params)
    params.setdefault("text", error.text or "")
    params.setdefault("column", error.position if error.position is not None else "?")
    params["message"] = error.message
    params["php_class"] = error.php_class or "Error"
    key = _key(error, params, formula)
    if error.code is ErrorCode.NOT_FINITE:
        params["value"] = _not_finite_value(error.message)
    if error.code is ErrorCode.DIGITS:
        params["read"] = digits_text(str(params.get("read", "")), language)
    return catalog().format(key, language, **params)
