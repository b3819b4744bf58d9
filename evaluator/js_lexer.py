"""JavaScript's lexer, as far as a formula needs it: where each token starts and ends.

The same reason as `evaluator.lexer` for PHP: a whitelist of tokens means
nothing unless the tokens are cut as node cuts them (ECMA-262 §12, with
Annex B's sloppy-mode additions node applies to a classic script). The
longest match wins: `3--4` is `3` `--` `4` (a decrement), `>>>=` one
assignment, `1_000`, `1e3`, `.5`, `0x1A` and `5n` one number each, `?.`
optional chaining. A `/` is division only after something that ends an
operand (a number, a name, `)`); anywhere else it opens a regular
expression, as the JavaScript grammar's goal symbols say.

Lexing stops at the first token that opens something JavaScript reads on
its own terms (a string, a template, a comment, a regular expression): none
may reach node, so the checker needs where it starts, not what follows.
"""

from __future__ import annotations

import re

from evaluator.lexer import Kind, Token

_PUNCTUATORS = (
    *(">>>=",),
    *("...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??="),
    *("=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*="),
    *("%=", "&=", "|=", "^=", "/=", "<<", ">>", "**"),
)
"""JavaScript's punctuators of more than one character, longest first."""

# A number as the scanner reads it, greedily: every form (legacy octal, separators,
# fractions, exponents, BigInt) in one alternation; only plain digit runs pass the
# checker. `?.` is optional chaining only when no digit follows (`a?.5:1` is `?` `.5`).
_NUMBER = re.compile(
    r"0[xXoObB][0-9a-zA-Z_]*"
    r"|(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9][0-9_]*)(?:[eE][+-]?[0-9_]*)?n?"
)
_NUMBER_START = re.compile(r"[0-9]|\.[0-9]")
_NAME = re.compile(r"[A-Za-z_$][A-Za-z0-9_$]*")
_SPACE = re.compile(r" +")
_OPENERS = ("//", "/*", "<!--", "'", '"', "`")
_ALLOWED_OPS = frozenset(("+", "-", "*", "/", "%", "**", "&", "|", "^", "<<", ">>", ">>>"))
_CHARS = {"(": Kind.LPAREN, ")": Kind.RPAREN, ",": Kind.COMMA}
_DIVISION_AFTER = frozenset((Kind.NUMBER, Kind.JS_NUMBER, Kind.NAME, Kind.RPAREN))
"""After these a `/` divides; after anything else (or at the start) it opens a regex."""


def _punctuator(text: str, i: int) -> str:
    for op in _PUNCTUATORS:
        if text.startswith(op, i):
            if op == "?." and text[i + 2 : i + 3].isdigit():
                continue
            return op
    return text[i]


def tokens(text: str) -> list[Token]:
    """node's tokens of a normalized formula (spaces are ' '), up to the first OPENER."""
    out: list[Token] = []
    i, n = 0, len(text)
    previous: Kind | None = None
    while i < n:
        ch = text[i]
        match = _SPACE.match(text, i)
        if match:
            out.append(Token(Kind.SPACE, match[0], i + 1))
            i = match.end()
            continue
        if _NUMBER_START.match(text, i):
            match = _NUMBER.match(text, i)
            assert match is not None
            word = match[0]
            kind = Kind.NUMBER if word.isdigit() else Kind.JS_NUMBER
            token = Token(kind, word, i + 1)
        elif _NAME.match(text, i):
            match = _NAME.match(text, i)
            assert match is not None
            token = Token(Kind.NAME, match[0], i + 1)
        else:
            opener = next((o for o in _OPENERS if text.startswith(o, i)), None)
            if opener is None and ch == "/" and previous not in _DIVISION_AFTER:
                opener = "/"  # a regular expression literal
            if opener is not None:
                out.append(Token(Kind.OPENER, opener, i + 1))
                return out
            word = _punctuator(text, i)
            kind = Kind.OP if word in _ALLOWED_OPS else _CHARS.get(word, Kind.TOKEN)
            token = Token(kind, word, i + 1)
        out.append(token)
        previous = token.kind
        i += len(token.text)
    return out
