"""PHP's lexer, as far as a formula needs it: where each token starts and ends.

The checker must see a formula exactly as PHP will read it, or a whitelist of
tokens means nothing: `3--4` is `3` `--` `4` to PHP (a decrement), `->>` is
`->` `>`, `0x1A` is one number and `(int)` one cast. So tokens are cut here by
PHP's own rules (`Zend/zend_language_scanner.l`, PHP 8.2, scripting state):
the longest match wins, the first rule on a tie.

Lexing stops at the first token that opens something PHP reads on its own
terms (a string, a comment, a variable, a heredoc, the closing tag) and after
`->` or `?->` (PHP then reads a property name by other rules): none of those
may reach PHP, so the checker needs where they start, not what follows.
"""

from __future__ import annotations

import functools
import re
from enum import StrEnum
from typing import NamedTuple


class Kind(StrEnum):
    SPACE = "space"
    NUMBER = "number"  # an integer literal written in decimal digits only
    PHP_NUMBER = "php_number"  # any other number PHP reads: 0x1A, 0b11, 0o7, 1e3, 1.5, 1_000
    JS_NUMBER = "js_number"  # any other number node reads: 0x1A, 1e3, .5, 1_000, 5n
    NAME = "name"  # a label (pow, x9) or a qualified name (a\b, \pow)
    OP = "op"  # + - * / % & | ^ << >>
    LPAREN = "lparen"
    RPAREN = "rparen"
    COMMA = "comma"
    TOKEN = "token"  # noqa: S105 - any other operator or character PHP has a token for
    OPENER = "opener"  # a string, comment, variable, heredoc or closing tag starts here


class Token(NamedTuple):
    kind: Kind
    text: str  # for an OPENER, only what opens it (`'`, `//`, `$a`, `?>`)
    column: int  # 1-based, in the lexed text


_LNUM = r"[0-9]+(?:_[0-9]+)*"
_DNUM = rf"(?:(?:{_LNUM})?\.{_LNUM}|{_LNUM}\.(?:{_LNUM})?)"
# PHP's label: ASCII letters, digits, '_' and every byte >= 0x80, i.e. any non-ASCII
# character; written as what it is not (a negated class compiles in microseconds).
_LABEL = r"[^\x00-\x40\x5b-\x5e\x60\x7b-\x7f][^\x00-\x2f\x3a-\x40\x5b-\x5e\x60\x7b-\x7f]*"
_CASTS = "int|integer|bool|boolean|float|double|real|string|binary|array|object|unset"
_MULTI = (
    *("**=", "...", "<<=", "<=>", "===", "!==", ">>=", "?->", "??="),
    *("::", "->", "=>", "++", "--", "==", "!=", "<>", "<=", ">=", "+=", "-=", "*=", "**"),
    *("/=", ".=", "%=", "&=", "|=", "^=", "??", "||", "&&", "<<", ">>", "#["),
)
"""PHP's operators of more than one character, longest first."""

# The scanner's rules as groups of one alternation each, in an order where the
# first alternative that matches is the longest match PHP's scanner takes: each
# group's patterns come longest first, and a group that can match a longer text
# at the same place comes earlier (numbers before names' digits, openers before
# `b` as a name, casts before `(`). tests/evaluator/test_lexer.py holds this to
# real PHP. Only the groups a character can start are tried at it (speed).
_GROUPS = (
    ("space", r"[ \t\n\r]+"),
    (
        "php_number",
        r"0[xX][0-9a-fA-F]+(?:_[0-9a-fA-F]+)*|0[bB][01]+(?:_[01]+)*|0[oO][0-7]+(?:_[0-7]+)*"
        rf"|(?:{_LNUM}|{_DNUM})[eE][+-]?{_LNUM}|{_DNUM}",
    ),
    ("number", _LNUM),
    ("cast", rf"\([ \t]*(?i:{_CASTS})[ \t]*\)"),
    (
        "opener",
        rf"[bB]?<<<[ \t]*(?:{_LABEL}|'{_LABEL}'|\"{_LABEL}\")(?:\r\n|\n|\r)"
        rf"|[bB]?['\"]|\?>(?:\r\n|\n|\r)?|#(?!\[)|//|/\*|\${_LABEL}|`",
    ),
    ("name", rf"\\?{_LABEL}(?:\\{_LABEL})*"),
    ("operator", "|".join(re.escape(op) for op in _MULTI)),
    ("char", r"[\s\S]"),
)
_STARTS = {
    "space": " \t\n\r",
    "php_number": "0123456789.",
    "number": "0123456789",
    "cast": "(",
    "opener": "bB<'\"?#/$`",
    "name": "\\_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "operator": "".join({op[0] for op in _MULTI}),
}
"""The ASCII characters each group's matches can start with (any non-ASCII starts a name)."""


@functools.cache
def _scanner(groups: tuple[str, ...]) -> re.Pattern[str]:
    """One pattern per distinct set of groups (a dozen), compiled once."""
    wanted = {*groups, "char"}
    return re.compile("|".join(f"(?P<{g}>{p})" for g, p in _GROUPS if g in wanted))


@functools.cache
def _scanner_at(ch: str) -> re.Pattern[str]:
    """The scanner for a token starting with `ch`, compiled on first use."""
    if not ch.isascii():
        return _scanner(("name",))
    return _scanner(tuple(g for g, starts in _STARTS.items() if ch in starts))


STOPS = frozenset(("->", "?->"))
"""Tokens after which PHP's scanner changes state, so lexing ends there."""
_ALLOWED_OPS = frozenset(("+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>"))
_CHARS = {"(": Kind.LPAREN, ")": Kind.RPAREN, ",": Kind.COMMA}


def _kind(group: str | None, text: str) -> Kind:
    if group == "space":
        return Kind.SPACE
    if group == "number":
        return Kind.PHP_NUMBER if "_" in text else Kind.NUMBER
    if group == "php_number":
        return Kind.PHP_NUMBER
    if group == "name":
        return Kind.NAME
    if group == "opener":
        return Kind.OPENER
    if text in _ALLOWED_OPS:
        return Kind.OP
    return _CHARS.get(text, Kind.TOKEN)


def tokens(text: str) -> list[Token]:
    """PHP's tokens of `text`, up to and including the first OPENER or STOPS token."""
    out: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        match = _scanner_at(text[i]).match(text, i)
        assert match is not None  # "char" matches any character
        token = Token(_kind(match.lastgroup, match.group()), match.group(), i + 1)
        out.append(token)
        if token.kind is Kind.OPENER or token.text in STOPS:
            break
        i = match.end()
    return out


_NOT_PLAIN = re.compile(
    r"[^0-9A-Za-z_ (),+\-*/%&|^<>]"
    r"|--|\+\+|\*\*|//|/\*|&&|\|\||->|<<<|>>>|<(?<!<<)(?!<)|>(?<!>>)(?!>)|[0-9][A-Za-z_]"
    rf"|\([ ]*(?i:{_CASTS})[ ]*\)"
)
"""What makes a text not plain: a character outside the plain ones, or a sequence of
them PHP reads as a longer token. One search (each alternative starts with what it
matches, so the scan is quick); a lone `<` is one without a `<` on either side."""
_PLAIN_TOKEN = re.compile(
    r"(?P<space> +)|(?P<number>[0-9]+)|(?P<name>[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<op><<|>>|[-+*/%&|^])|(?P<lparen>\()|(?P<rparen>\))|(?P<comma>,)"
)


_KINDS: dict[str | None, Kind] = {kind.value: kind for kind in Kind}  # a group is named as its kind


def is_plain(text: str) -> bool:
    """Whether `plain_tokens` can cut `text` (see there)."""
    return _NOT_PLAIN.search(text) is None


def plain_tokens(text: str) -> list[Token] | None:
    """`tokens(text)` the fast way, or None when `text` is not plain.

    Plain: digits, ASCII names, spaces, `( ) ,` and the allowed operators, with
    nothing PHP would read as a longer token (`--`, `->`, `<=`, `1e3`, `(int)`,
    ...). Most formulas are plain, and for those PHP's cut is the obvious one.
    """
    if not is_plain(text):
        return None
    return [Token(_KINDS[m.lastgroup], m[0], m.start() + 1) for m in _PLAIN_TOKEN.finditer(text)]
