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
_ALLOWED_OPS = frozenset(("+", "-", "*", "/", "%", "**", "&", "|", "^", "<<", ">>", ">>>"))
_CHARS = {"(": Kind.LPAREN, ")": Kind.RPAREN, ",": Kind.COMMA}
_DIVISION_AFTER = frozenset((Kind.NUMBER, Kind.JS_NUMBER, Kind.NAME, Kind.RPAREN))
"""After these a `/` divides; after anything else (or at the start) it opens a regex."""


_TOKEN = re.compile(
    r"(?P<space> +)"
    rf"|(?P<number>(?=[0-9]|\.[0-9])(?:{_NUMBER.pattern}))"
    r"|(?P<name>[A-Za-z_$][A-Za-z0-9_$]*)"
    r"|(?P<opener>//|/\*|<!--|['\"`])"
    r"|(?P<punct>"
    + "|".join(re.escape(op) + (r"(?![0-9])" if op == "?." else "") for op in _PUNCTUATORS)
    + r"|.)",
    re.S,
)
"""One token at a position, its kind the group that matched: the alternatives are tried in
the order the scanner tries them (spaces, a number, a name, an opener, the longest
punctuator, one character), so one C-level match replaces a Python loop over them."""


def tokens(text: str) -> list[Token]:
    """node's tokens of a normalized formula (spaces are ' '), up to the first OPENER."""
    out: list[Token] = []
    i, n = 0, len(text)
    previous: Kind | None = None
    match_at = _TOKEN.match
    while i < n:
        match = match_at(text, i)
        assert match is not None  # the last alternative takes any one character
        word, group = match[0], match.lastgroup
        if group == "space":
            out.append(Token(Kind.SPACE, word, i + 1))
            i = match.end()
            continue
        if group == "number":
            kind = Kind.NUMBER if word.isdigit() else Kind.JS_NUMBER
        elif group == "name":
            kind = Kind.NAME
        elif group == "opener" or (word[0] == "/" and previous not in _DIVISION_AFTER):
            # a comment, string or template; or a `/` where no operand ended: a regex
            out.append(Token(Kind.OPENER, word if group == "opener" else "/", i + 1))
            return out
        else:
            kind = Kind.OP if word in _ALLOWED_OPS else _CHARS.get(word, Kind.TOKEN)
        out.append(Token(kind, word, i + 1))
        previous = kind
        i += len(word)
    return out
