"""The formula checker: normalize, tokenize, whitelist, digits in order.

Pure and fast (microseconds): it runs before anything reaches PHP, and nothing
it rejects ever does. It is deliberately strict about *what* may reach PHP and
deliberately lax about *whether it parses*: syntax like `3--4` or `08` is left
to PHP, because PHP's verdict is part of the game (RULES.md).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal

from evaluator.result import ErrorCode, EvalError, FormulaError

MAX_LENGTH = 256
MAX_NESTING = 32
_RAW_LIMIT = 4 * MAX_LENGTH  # refuse absurd input before normalizing it

_REPLACEMENTS = (
    ("››", ">>"),
    ("‹‹", "<<"),
    ("»", ">>"),
    ("«", "<<"),
    ("×", "*"),
    ("÷", "/"),
    ("−", "-"),
)
_OPERATORS = ("<<", ">>", "+", "-", "*", "/", "%", "&", "|", "^")
_PAIRS_TO_PHP_MEANING = {
    "**": "`**` (use pow)",
    "//": "`//` (a PHP comment)",
    "/*": "`/*` (a PHP comment)",
}

TokenKind = Literal["number", "name", "op", "lparen", "rparen", "comma"]


@dataclass(frozen=True, slots=True)
class Token:
    kind: TokenKind
    text: str
    column: int  # 1-based, in the normalized formula


def normalize(formula: str) -> str:
    """NFKC, the original rules' glyphs to PHP operators, every space to one ' '."""
    text = unicodedata.normalize("NFKC", formula)
    for glyph, operator in _REPLACEMENTS:
        text = text.replace(glyph, operator)
    return "".join(" " if ch.isspace() else ch for ch in text).strip()


def _error(
    code: ErrorCode,
    message: str,
    position: int | None = None,
    text: str | None = None,
    **params: str,
) -> FormulaError:
    return FormulaError(EvalError(code, message, position, text, params=tuple(params.items())))


def _forbidden(text: str, column: int, reason: str, message: str) -> FormulaError:
    return _error(ErrorCode.FORBIDDEN, message, column, text, reason=reason, column=str(column))


def tokenize(text: str, functions: frozenset[str]) -> list[Token]:
    """Split a normalized formula into whitelisted tokens, or raise FormulaError."""
    tokens: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        ch, column = text[i], i + 1
        if ch == " ":
            i += 1
        elif ch.isascii() and ch.isdigit():
            j = i
            while j < n and text[j].isascii() and text[j].isdigit():
                j += 1
            tokens.append(Token("number", text[i:j], column))
            i = j
        elif ch.isascii() and (ch.isalpha() or ch == "_"):
            j = i
            while j < n and text[j].isascii() and (text[j].isalnum() or text[j] == "_"):
                j += 1
            word = text[i:j]
            if word.lower() not in functions:
                allowed = ", ".join(sorted(functions)) or "none"
                raise _forbidden(
                    word,
                    column,
                    "name",
                    f"`{word}` at column {column} is not allowed (functions here: {allowed})",
                )
            tokens.append(Token("name", word, column))
            i = j
        elif text.startswith(tuple(_PAIRS_TO_PHP_MEANING), i):
            pair = text[i : i + 2]
            raise _forbidden(
                pair,
                column,
                "operator",
                f"{_PAIRS_TO_PHP_MEANING[pair]} at column {column} is not allowed",
            )
        elif ch in "(),":
            kind: TokenKind = "lparen" if ch == "(" else "rparen" if ch == ")" else "comma"
            tokens.append(Token(kind, ch, column))
            i += 1
        else:
            operator = next((op for op in _OPERATORS if text.startswith(op, i)), None)
            if operator is None:
                raise _forbidden(ch, column, "char", f"`{ch}` at column {column} is not allowed")
            tokens.append(Token("op", operator, column))
            i += len(operator)
    return tokens


def _check_nesting(tokens: list[Token]) -> None:
    depth = 0
    for token in tokens:
        if token.kind == "lparen":
            depth += 1
            if depth > MAX_NESTING:
                raise _error(
                    ErrorCode.TOO_LONG,
                    f"parentheses nest deeper than {MAX_NESTING} at column {token.column}",
                    token.column,
                    "(",
                    limit=str(MAX_NESTING),
                )
        elif token.kind == "rparen":
            depth -= 1
            if depth < 0:
                raise _error(
                    ErrorCode.SYNTAX,
                    f"`)` at column {token.column} closes nothing",
                    token.column,
                    ")",
                    reason="unmatched_close",
                    column=str(token.column),
                )
    if depth > 0:
        raise _error(
            ErrorCode.SYNTAX,
            f"{depth} `(` not closed",
            None,
            "(",
            reason="unclosed",
            count=str(depth),
        )


def _check_digits(tokens: list[Token], digits: str) -> None:
    read: list[tuple[str, int]] = [
        (ch, token.column + k)
        for token in tokens
        if token.kind == "number"
        for k, ch in enumerate(token.text)
    ]
    if "".join(ch for ch, _ in read) == digits:
        return
    mismatch = next(
        (col for k, (ch, col) in enumerate(read) if k >= len(digits) or ch != digits[k]), None
    )
    shown = ",".join(ch for ch, _ in read) or "none"
    raise _error(
        ErrorCode.DIGITS,
        f"digits read {shown} but the round's number is {digits}",
        mismatch,
        None,
        read=shown,
        digits=digits,
    )


def check(formula: str, digits: str, functions: Iterable[str]) -> str:
    """Return the normalized formula if it may run, else raise FormulaError.

    `functions` are the Set's allowed PHP functions (case-insensitive, as in PHP).
    """
    if len(formula) > _RAW_LIMIT:
        raise _error(
            ErrorCode.TOO_LONG,
            f"a formula has at most {MAX_LENGTH} characters",
            limit=str(MAX_LENGTH),
        )
    text = normalize(formula)
    if len(text) > MAX_LENGTH:
        raise _error(
            ErrorCode.TOO_LONG,
            f"a formula has at most {MAX_LENGTH} characters",
            limit=str(MAX_LENGTH),
        )
    if not text:
        raise _error(ErrorCode.SYNTAX, "the formula is empty", reason="empty")
    tokens = tokenize(text, frozenset(f.lower() for f in functions))
    _check_nesting(tokens)
    _check_digits(tokens, digits)
    return text
