"""The checker of a JavaScript Set's formula: read as node reads it, whitelist, digits in order.

What may reach node (RULES.md, "The formula in a JavaScript Set"): plain digit
literals, `+ - * / % ** & | ^ << >> >>>`, unary minus, parentheses and calls
of the Set's functions written `Math.sqrt(…)`. Tokens are cut by JavaScript's
own rules (`evaluator.js_lexer`), so `3--4` is refused for its `--`, `.5` and
`1e3` for being numbers written otherwise, `1+/2/` for opening a regular
expression. A `Math.name` counts only written in one piece, and it is a
name, never digits (`Math.log2` is not a 2).

Two rules go past single tokens, because the token alone cannot say what it
does: a `(` right after a number or a `)` would call a value, and a `,`
outside a call's parentheses is the comma operator (which would drop the
Digits before it); both are refused. Like the PHP checker it is lax about
whether the formula parses: `3 4` or `-2**2` is left to node, whose
SyntaxError is the verdict (RULES.md). tests/evaluator/test_js_checker_oracle.py
holds it to node's own tokenizer and parser.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from evaluator.check import MAX_NESTING, check_shape, forbidden, prepare
from evaluator.js_lexer import tokens
from evaluator.lexer import Kind, Token
from evaluator.result import FormulaError

_COMPARISON = "a comparison"
_ASSIGNMENT = "an assignment"
_LOGICAL = "a logical operator"
_MEANINGS = {
    "++": "the increment operator",
    "--": "the decrement operator (for minus a negative number, write `- -`)",
    "=>": "an arrow function",
    "?.": "optional chaining",
    "??": "the nullish coalescing operator",
    "...": "the spread operator",
    ".": "a property access (only the Set's Math functions may be named)",
    "=": _ASSIGNMENT,
    "?": "the conditional operator",
    ":": "the conditional operator",
    "!": "the logical not",
    "~": "the bitwise not",
    ";": "the end of a statement",
    **dict.fromkeys(("&&", "||"), _LOGICAL),
    **dict.fromkeys(("<", ">", "<=", ">=", "==", "!=", "===", "!=="), _COMPARISON),
    **dict.fromkeys(
        (
            *("+=", "-=", "*=", "**=", "/=", "%=", "<<=", ">>=", ">>>=", "&=", "|=", "^="),
            *("&&=", "||=", "??="),
        ),
        _ASSIGNMENT,
    ),
}
_OPENERS = {
    "//": "a comment",
    "/*": "a comment",
    "<!--": "an HTML-like comment",
    "'": "a string",
    '"': "a string",
    "`": "a template literal",
    "/": "a regular expression",
}
_OPERAND_END = frozenset((Kind.NUMBER, Kind.JS_NUMBER, Kind.RPAREN))


def _number_meaning(text: str) -> str:
    lower = text.lower()
    if lower.startswith(("0x", "0b", "0o")):
        base = {"x": "hexadecimal", "b": "binary", "o": "octal"}.get(lower[1:2], "")
        kind = f"a {base} number"
    elif lower.endswith("n"):
        kind = "a BigInt"
    elif "_" in lower:
        kind = "a number with `_` separators"
    elif "e" in lower:
        kind = "a number with an exponent"
    else:
        kind = "a decimal fraction"
    return f"JavaScript reads {kind} here; write whole numbers with the digits 0-9 only"


def _touches(first: Token, second: Token) -> bool:
    return first.column + len(first.text) == second.column


def _joined(read: list[Token]) -> list[Token]:
    """`Math` `.` `name` written in one piece become one NAME token `Math.name`."""
    out: list[Token] = []
    k = 0
    while k < len(read):
        token = read[k]
        if (
            token.kind is Kind.NAME
            and token.text == "Math"
            and k + 2 < len(read)
            and read[k + 1].text == "."
            and read[k + 2].kind is Kind.NAME
            and read[k + 1].column == token.column + 4
            and read[k + 2].column == token.column + 5
        ):
            out.append(Token(Kind.NAME, f"Math.{read[k + 2].text}", token.column))
            k += 3
            continue
        out.append(token)
        k += 1
    return out


def _refusal(
    token: Token, previous: Token | None, following: Token | None, functions: frozenset[str]
) -> FormulaError | None:
    kind = token.kind
    if kind in (Kind.NUMBER, Kind.OP, Kind.RPAREN, Kind.COMMA):
        return None
    if kind is Kind.LPAREN:
        if previous is not None and previous.kind in _OPERAND_END:
            return forbidden(token, "token", ": it would call a value; only functions are called")
        return None
    if kind is Kind.NAME:
        if previous is not None and previous.kind is Kind.NUMBER and _touches(previous, token):
            return forbidden(token, "token", ": a name may not follow a number directly")
        if token.text not in functions:
            allowed = ", ".join(sorted(functions)) or "none"
            return forbidden(token, "name", f" (functions here: {allowed})")
        if following is None or following.kind is not Kind.LPAREN:
            return forbidden(token, "uncalled", f": only calls are allowed, as in {token.text}(…)")
        return None
    if kind is Kind.JS_NUMBER:
        return forbidden(token, "number", f": {_number_meaning(token.text)}")
    if kind is Kind.OPENER:
        return forbidden(token, "token", f": {_OPENERS[token.text]} starts here")
    if token.text in _MEANINGS:
        return forbidden(token, "token", f": JavaScript reads it as {_MEANINGS[token.text]}")
    return forbidden(token, "char")


def tokenize(text: str, functions: frozenset[str]) -> list[Token]:
    """node's tokens of a normalized formula, spaces dropped and `Math.name` joined,
    or FormulaError at the first one that may not reach node."""
    read = _joined([t for t in tokens(text) if t.kind is not Kind.SPACE])
    calls: list[bool] = []  # for each open `(`: is it a call's?
    for index, token in enumerate(read):
        previous = read[index - 1] if index else None
        following = read[index + 1] if index + 1 < len(read) else None
        problem = _refusal(token, previous, following, functions)
        if problem is None and token.kind is Kind.COMMA and not (calls and calls[-1]):
            problem = forbidden(
                token, "token", ": outside a call's parentheses it is the comma operator"
            )
        if problem is not None:
            raise problem
        if token.kind is Kind.LPAREN:
            calls.append(previous is not None and previous.kind is Kind.NAME)
        elif token.kind is Kind.RPAREN and calls:
            calls.pop()
    return read


_NAMED = re.compile(r"Math\.([A-Za-z]+)")
_NOT_PLAIN = re.compile(
    r"[^0-9 ()+\-*/%&|^<>,@]|--|\+\+|&&|\|\||//|/\*|(?:^|[^0-9) ]) */|[0-9)] *\(|[0-9)@]@|@(?!\()"
)
"""After each vetted `Math.name` became `@`: a character outside the plain ones, a pair
node reads as a longer token, a `/` that would open a comment or a regular expression
(no number or `)` before it), a `(` that would call a value, a name touching what ends
an operand, or a name not called at once."""
_SHIFTS = re.compile(r"[<>]+")
_GROUP = re.compile(r"@?\([^()]*\)")
_COMMA_GROUP = re.compile(r"(?<!@)\([^()]*,[^()]*\)")
_NUMBERS = re.compile(r"[0-9]+")


def _passes_plainly(text: str, digits: str, functions: frozenset[str]) -> bool:
    """True if `text` passes every check, decided with a few regular expressions: the
    common case. False decides nothing: the full way (`tokenize`, `check_shape`) then
    finds the problem, or finds none (a shortcut, never a second set of rules;
    tests/evaluator/js/test_js_check_plain.py holds it to the full way).

    Plain: digits, spaces, `( ) ,`, the allowed operators and vetted `Math.name(`,
    with nothing node would cut otherwise (`--`, `&&`, `<`, `>>>>`, a regex's `/`)."""
    if "@" in text:
        return False
    for name in _NAMED.findall(text):
        if "Math." + name not in functions:
            return False
    work = _NAMED.sub("@", text)
    if _NOT_PLAIN.search(work) is not None:
        return False
    for run in _SHIFTS.findall(work):
        if run not in ("<<", ">>", ">>>"):
            return False
    if "".join(_NUMBERS.findall(work)) != digits or work.count("(") > MAX_NESTING:
        return False
    while "(" in work:  # innermost groups first: a comma only in a call's parentheses
        if _COMMA_GROUP.search(work) is not None:
            return False
        work, cut = _GROUP.subn("0", work)
        if not cut:
            return False
    return ")" not in work and "," not in work


def check(formula: str, digits: str, functions: Iterable[str]) -> str:
    """Return the normalized formula if it may run in node, else raise FormulaError.

    `functions` are the Set's allowed functions as JavaScript writes them
    (`Math.sqrt`; case-sensitive, as in JavaScript).
    """
    text = prepare(formula)
    allowed = frozenset(functions)
    if _passes_plainly(text, digits, allowed):
        return text
    check_shape(tokenize(text, allowed), digits)
    return text
