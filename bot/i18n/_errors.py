"""A formula's error in the player's language: what, where, and PHP's own words."""

from __future__ import annotations

from babel.lists import format_list

from bot.i18n._catalog import catalog, normalize_locale
from bot.i18n._languages import PHP_OPENERS, PHP_OPERATORS, FormulaTexts, texts
from bot.i18n._markdown import LOOKALIKE, inline_code
from evaluator.check import normalize
from evaluator.result import ErrorCode, EvalError
from rules.game_set import FormulaLanguage

NO_DIGITS = ("", "none")
"""What the checker's `read` parameter says when the formula has no digit at all."""

OPERATOR_KINDS = {key: kind.removeprefix("operator.") for key, kind in PHP_OPERATORS.items()}
"""PHP's refused operators that get their own text: what PHP reads, how to write it instead."""

OPENER_KINDS = tuple((start, kind.removeprefix("opener.")) for start, kind in PHP_OPENERS)
"""What PHP starts at a refused token, by how the token begins (a backtick runs a shell)."""

TWICE_EXAMPLE = "3- -4"
"""The `--` hint's example when the player's formula is not at hand."""

HINT_MAX = 40
"""The `--` hint shows the player's formula, or this much of it around the fix."""


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


def _twice_fixed(error: EvalError, formula: str | None) -> str:
    """The player's formula with a space inside its `--` (`5--2` -> `5- -2`)."""
    text = normalize(formula) if formula is not None else ""
    at = (error.position or 0) - 1
    token = error.text or ""
    if at < 0 or not token or text[at : at + len(token)] != token:
        return TWICE_EXAMPLE
    fixed = text[: at + 1] + " " + text[at + 1 :]
    if len(fixed) <= HINT_MAX:
        return fixed
    start = max(0, at - HINT_MAX // 2)
    window = fixed[start : start + HINT_MAX]
    return ("…" if start else "") + window + ("…" if start + HINT_MAX < len(fixed) else "")


def _kind(error: EvalError, reason: object, lang: FormulaTexts) -> str | None:
    """The catalog key of a refused token that gets its own text, if it does."""
    text = error.text or ""
    if reason not in ("operator", "token"):
        return None
    if text in lang.operators:
        return lang.refusals + lang.operators[text]
    opener = next((kind for start, kind in lang.openers if text.lower().startswith(start)), None)
    if opener is not None:
        return lang.refusals + opener
    if lang.cast is not None and text.startswith("(") and text.endswith(")"):
        return lang.refusals + lang.cast
    return None


def _own(key: str, lang: FormulaTexts) -> str:
    """`key` (an `eval.` key), or the language's own text of it when it has one."""
    if lang.overrides:
        own = lang.overrides + key.removeprefix("eval.")
        if own in catalog().messages:
            return own
    return key


def _key(
    error: EvalError, params: dict[str, object], formula: str | None, lang: FormulaTexts
) -> str:
    return _own(_shared_key(error, params, formula, lang), lang)


def _shared_key(
    error: EvalError, params: dict[str, object], formula: str | None, lang: FormulaTexts
) -> str:
    book = catalog()
    code = error.code.value
    if error.code is ErrorCode.TIMEOUT:  # PHP's fatal "Maximum execution time" among them
        return "eval.timeout"
    if error.error_class or error.code is ErrorCode.RUNTIME:
        reading = lang.read(error.message)
        if reading is None:
            return lang.engine
        params.update(reading[1])
        return reading[0]
    if error.code is ErrorCode.TOO_LONG:
        if error.position is not None:
            return "eval.too_long.nesting"
        if formula is not None:
            params["length"] = len(formula)
            return "eval.too_long.length"
    if error.code is ErrorCode.DIGITS and not read_digits(str(params.get("read", ""))):
        return "eval.digits.none"
    reason = params.get("reason")
    kind = _kind(error, reason, lang) if error.code is ErrorCode.FORBIDDEN else None
    if kind is not None and kind in book.messages:
        return kind
    if reason and f"eval.{code}.{reason}" in book.messages:
        return f"eval.{code}.{reason}"
    return f"eval.{code}" if f"eval.{code}" in book.messages else "eval.unknown"


def describe_eval_error(
    error: EvalError,
    locale: str,
    formula: str | None = None,
    *,
    lang: FormulaLanguage,
) -> str:
    """Catalog text for the error's code (and `reason`, when the checker gives one).

    PHP's message is part of the game: English shows PHP's words, and another
    language says what PHP reports in its own words (`_php`), or quotes PHP's
    English when the message is not a common one. The checker's own English
    messages are never shown: each code has its catalog text, and what the
    checker glued into its parameters (the digits it read) is written again in
    the reader's language. The refused text is inline code that a backtick in
    it cannot break. `formula` (what the player sent) lets a too-long error say
    how long it was, and the `--` hint show the player's own formula fixed. `lang`, the
    Set's language, chooses how its engine's messages are read and which texts are its
    own (`_languages`: JavaScript's refusals, node's messages, NaN and Infinity).
    """
    own = texts(lang)
    language = normalize_locale(locale)
    params: dict[str, object] = dict(error.params)
    text = error.text or ""
    params["text"] = inline_code(text)
    params["call"] = inline_code(f"{text}(…)")
    params["fixed"] = inline_code(_twice_fixed(error, formula))
    params.setdefault("column", error.position if error.position is not None else "?")
    params["message"] = error.message.replace("`", LOOKALIKE)
    params["error_class"] = error.error_class or "Error"
    key = _key(error, params, formula, own)
    if error.code is ErrorCode.NOT_FINITE:
        params["value"] = own.not_finite(error.message)
    if error.code is ErrorCode.DIGITS:
        params["read"] = digits_text(str(params.get("read", "")), language)
    return catalog().format(key, language, **params)
