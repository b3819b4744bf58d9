"""The formula checker: normalize, read as PHP reads it, whitelist, digits in order.

Pure and fast (microseconds): it runs before anything reaches PHP, and nothing
it rejects ever does. It is strict about *what* may reach PHP: every token is
cut by PHP's own lexer rules (`evaluator.lexer`), so `3--4` is refused for its
`--` (PHP's decrement) and `0x1A` for being a hexadecimal number. It is lax
about *whether it parses*: `3 4` or `08` is left to PHP, because PHP's verdict
is part of the game (RULES.md).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable
from typing import NamedTuple

from evaluator.lexer import Kind, Token, plain_tokens, tokens
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
_ASCII_SPACES = {ord(ch): " " for ch in map(chr, range(128)) if ch.isspace()}
_COMPARISON = "a comparison"
_ASSIGNMENT = "an assignment"
_MEANINGS = {
    "++": "the increment operator",
    "--": "the decrement operator (for minus a negative number, write `- -`)",
    "&&": "a boolean and",
    "||": "a boolean or",
    "->": "the object operator",
    "?->": "the nullsafe object operator",
    "**": "the power operator (use pow)",
    "??": "the null coalescing operator",
    "::": "the scope operator",
    "=>": "an array arrow",
    "...": "the spread operator",
    "#[": "an attribute",
    **dict.fromkeys(("<=", ">=", "==", "!=", "<>", "<=>", "===", "!=="), _COMPARISON),
    **dict.fromkeys(
        ("+=", "-=", "*=", "**=", "/=", ".=", "%=", "<<=", ">>=", "&=", "|=", "^=", "??="),
        _ASSIGNMENT,
    ),
}
_OPENERS = (
    ("<<<", "a PHP heredoc"),
    ("b<<<", "a PHP heredoc"),
    ("?>", "PHP's closing tag"),
    ("$", "a PHP variable"),
    ("#", "a PHP comment"),
    ("//", "a PHP comment"),
    ("/*", "a PHP comment"),
    ("`", "a shell command"),
)


def normalize(formula: str) -> str:
    """NFKC, the original rules' glyphs to PHP operators, every space to one ' '."""
    if formula.isascii():  # NFKC and the glyphs change nothing: only the spaces
        if formula.isprintable():  # no space but ' ' (every other ASCII one is a control)
            return formula.strip()
        return formula.translate(_ASCII_SPACES).strip()
    text = unicodedata.normalize("NFKC", formula)
    for glyph, operator in _REPLACEMENTS:
        text = text.replace(glyph, operator)
    return "".join(" " if ch.isspace() else ch for ch in text).strip()


def error(
    code: ErrorCode,
    message: str,
    position: int | None = None,
    text: str | None = None,
    **params: str,
) -> FormulaError:
    return FormulaError(EvalError(code, message, position, text, params=tuple(params.items())))


def forbidden(token: Token, reason: str, detail: str = "") -> FormulaError:
    """`detail` follows "is not allowed" as written: ": why" or " (note)"."""
    message = f"`{token.text}` at column {token.column} is not allowed{detail}"
    return error(
        ErrorCode.FORBIDDEN,
        message,
        token.column,
        token.text,
        reason=reason,
        column=str(token.column),
    )


def _number_meaning(text: str) -> str:
    lower = text.lower()
    if lower.startswith(("0x", "0b", "0o")):
        base = {"x": "hexadecimal", "b": "binary", "o": "octal"}[lower[1]]
        kind = f"a {base} number"
    elif "e" in lower:
        kind = "a number with an exponent"
    elif "." in lower:
        kind = "a decimal fraction"
    else:
        kind = "a number with `_` separators"
    return f"PHP reads {kind} here; write whole numbers with the digits 0-9 only"


def _opener_meaning(text: str) -> str:
    lower = text.lower()
    if lower.startswith(("'", '"', "b'", 'b"')):
        return "a PHP string starts here"
    meaning = next(m for prefix, m in _OPENERS if lower.startswith(prefix))
    return f"{meaning} starts here"


def _refusal(
    token: Token, following: Token | None, functions: frozenset[str]
) -> FormulaError | None:
    """Why `token` may not reach PHP, or None when it may."""
    kind = token.kind
    if kind in (Kind.NUMBER, Kind.OP, Kind.LPAREN, Kind.RPAREN, Kind.COMMA):
        return None
    if kind is Kind.NAME:
        if not token.text[0].isascii():  # PHP reads `😀3489` as one name: show the character
            return forbidden(token._replace(text=token.text[0]), "char")
        if token.text.lower() not in functions:
            allowed = ", ".join(sorted(functions)) or "none"
            return forbidden(token, "name", f" (functions here: {allowed})")
        if following is None or following.kind is not Kind.LPAREN:
            return forbidden(token, "uncalled", f": only calls are allowed, as in {token.text}(…)")
        return None
    if kind is Kind.PHP_NUMBER:
        return forbidden(token, "number", f": {_number_meaning(token.text)}")
    if kind is Kind.OPENER:
        return forbidden(token, "token", f": {_opener_meaning(token.text)}")
    if token.text == "**":
        return forbidden(token, "operator", f": PHP reads it as {_MEANINGS['**']}")
    if token.text in _MEANINGS:
        return forbidden(token, "token", f": PHP reads it as {_MEANINGS[token.text]}")
    if token.text.startswith("("):
        return forbidden(token, "token", ": PHP reads it as a cast")
    return forbidden(token, "char")


def tokenize(text: str, functions: frozenset[str]) -> list[Token]:
    """PHP's tokens of a normalized formula, without spaces, or FormulaError at the
    first one that may not reach PHP. `functions` are lower-case."""
    every = plain_tokens(text)
    read = [t for t in (tokens(text) if every is None else every) if t.kind is not Kind.SPACE]
    for index, token in enumerate(read):
        following = read[index + 1] if index + 1 < len(read) else None
        problem = _refusal(token, following, functions)
        if problem is not None:
            raise problem
    return read


def _check_nesting(read: list[Token]) -> None:
    depth = 0
    for token in read:
        if token.kind is Kind.LPAREN:
            depth += 1
            if depth > MAX_NESTING:
                raise error(
                    ErrorCode.TOO_LONG,
                    f"parentheses nest deeper than {MAX_NESTING} at column {token.column}",
                    token.column,
                    "(",
                    limit=str(MAX_NESTING),
                )
        elif token.kind is Kind.RPAREN:
            depth -= 1
            if depth < 0:
                raise error(
                    ErrorCode.SYNTAX,
                    f"`)` at column {token.column} closes nothing",
                    token.column,
                    ")",
                    reason="unmatched_close",
                    column=str(token.column),
                )
    if depth > 0:
        raise error(
            ErrorCode.SYNTAX,
            f"{depth} `(` not closed",
            None,
            "(",
            reason="unclosed",
            count=str(depth),
        )


def _check_digits(tokens_read: list[Token], digits: str) -> None:
    if "".join([t.text for t in tokens_read if t.kind is Kind.NUMBER]) == digits:
        return
    read: list[tuple[str, int]] = [
        (ch, token.column + k)
        for token in tokens_read
        if token.kind is Kind.NUMBER
        for k, ch in enumerate(token.text)
    ]
    if "".join(ch for ch, _ in read) == digits:
        return
    mismatch = next(
        (col for k, (ch, col) in enumerate(read) if k >= len(digits) or ch != digits[k]), None
    )
    shown = ",".join(ch for ch, _ in read) or "none"
    raise error(
        ErrorCode.DIGITS,
        f"digits read {shown} but the round's number is {digits}",
        mismatch,
        None,
        read=shown,
        digits=digits,
    )


_NUMBER = re.compile(r"(?<![A-Za-z0-9_])[0-9]+")
"""In a plain formula: a number. A digit right after a letter, `_` or digit is a name's
(`log10`) or the same number's; no digit is right before a letter or `_` there."""
_IDENTIFIER = re.compile(r"[a-z_][a-z0-9_]*", re.ASCII)
_DIGITS_ONLY = bytes(b if 0x30 <= b <= 0x39 else 0x20 for b in range(256))
_PARENS_ONLY = bytes(b if b in b"()" else 0x20 for b in range(256))
"""Tables for `bytes.translate`: every other byte becomes a space, removed after (a table
with `delete` is built again on every call, ten times slower)."""


class _Plain(NamedTuple):
    """What the shortcut knows of a Set's names, made once per Set (`_for_set`)."""

    functions: frozenset[str]  # lower-case
    shape: re.Pattern[str]
    digits_in_names: bool


@functools.lru_cache(maxsize=64)
def _for_set(functions: tuple[str, ...]) -> _Plain:
    """The Set's names lowered, and the pattern a plain formula of the Set matches whole:
    runs of the characters of numbers, spaces, `( ) ,` and the operators, and between
    them a Set function called at once (a name ends only where `(` follows, so none is
    cut short; none follows a digit, where PHP reads `3pow` as a number and a name).
    ASCII only (`re.ASCII`: under Unicode case folding `ſ` would match `s`)."""
    lowered = frozenset(f.lower() for f in functions)
    names = sorted(f for f in lowered if _IDENTIFIER.fullmatch(f))
    calls = f"|(?<![0-9])(?:{'|'.join(map(re.escape, names))}) *\\(" if names else ""
    shape = re.compile(rf"(?:[0-9 (),%^+*/&|<>-]++{calls})*+", re.ASCII | re.IGNORECASE)
    return _Plain(lowered, shape, any(ch.isdigit() for name in names for ch in name))


def _passes_plainly(text: str, digits: str, functions: frozenset[str]) -> bool:
    """`_plainly` for a Set given by its lower-case names (tests hold it to the full way)."""
    return _plainly(text, digits, _for_set(tuple(sorted(functions))))


def _plainly(text: str, digits: str, plain: _Plain) -> bool:
    """True if `text` is plain and passes every check: the common case, decided by one
    regex match, a few substring tests and a byte translation, without making tokens.
    False decides nothing: the full way then finds the problem, or finds none (this
    is a shortcut, never a second set of rules; tests/evaluator/test_check_plain.py
    holds it to the full way).

    Plain (`lexer.is_plain`): the Set's shape, and no two characters PHP reads as one
    longer token (`--`, `->`, `**`, `//`, `/*`, `&&`, `||`; `<` and `>` only as `<<`
    and `>>`, never three in a row). Then PHP's tokens are the obvious ones: the
    numbers are the digits' runs, names' digits apart (`log10`), and the parentheses
    balance and nest at most MAX_NESTING deep when there are no more `(` than that
    and cutting `()` pairs leaves none."""
    if plain.shape.fullmatch(text) is None:
        return False
    if "--" in text or "++" in text or "**" in text or "//" in text or "/*" in text:
        return False
    if "&&" in text or "||" in text or "->" in text:
        return False
    if ("<" in text or ">" in text) and not _shifts_only(text):
        return False
    raw = text.encode()  # ASCII: the shape matches nothing else
    if plain.digits_in_names:
        if "".join(_NUMBER.findall(text)) != digits:
            return False
    elif raw.translate(_DIGITS_ONLY).replace(b" ", b"") != digits.encode():
        return False
    opened = raw.count(b"(")
    if opened == 0:
        return b")" not in raw
    if opened == 1:  # one call, or one pair: the common case
        return raw.count(b")") == 1 and raw.index(b"(") < raw.index(b")")
    if opened > MAX_NESTING or opened != raw.count(b")"):
        return False
    parens = raw.translate(_PARENS_ONLY).replace(b" ", b"")
    while b"()" in parens:
        parens = parens.replace(b"()", b"")
    return not parens


def _shifts_only(text: str) -> bool:
    """Whether every `<` and `>` is in a `<<` or `>>` PHP reads as a shift."""
    if "<<<" in text or ">>>" in text:
        return False
    rest = text.replace("<<", "").replace(">>", "")
    return "<" not in rest and ">" not in rest


def _lowered(functions: tuple[str, ...]) -> frozenset[str]:
    return _for_set(functions).functions


def prepare(formula: str) -> str:
    """The normalized formula, or FormulaError if it is too long or empty (every language)."""
    if len(formula) > _RAW_LIMIT:
        raise error(
            ErrorCode.TOO_LONG,
            f"a formula has at most {MAX_LENGTH} characters",
            limit=str(MAX_LENGTH),
        )
    text = normalize(formula)
    if len(text) > MAX_LENGTH:
        raise error(
            ErrorCode.TOO_LONG,
            f"a formula has at most {MAX_LENGTH} characters",
            limit=str(MAX_LENGTH),
        )
    if not text:
        raise error(ErrorCode.SYNTAX, "the formula is empty", reason="empty")
    return text


def check_shape(read: list[Token], digits: str) -> None:
    """Parentheses balanced and not too deep, the digits in order (every language)."""
    _check_nesting(read)
    _check_digits(read, digits)


def check(formula: str, digits: str, functions: Iterable[str]) -> str:
    """Return the normalized formula if it may run, else raise FormulaError.

    `functions` are the Set's allowed PHP functions (case-insensitive, as in PHP).
    """
    text = prepare(formula)
    plain = _for_set(functions if isinstance(functions, tuple) else tuple(functions))
    if _plainly(text, digits, plain):
        return text
    read = tokenize(text, plain.functions)
    _check_nesting(read)
    _check_digits(read, digits)
    return text
