"""node's own error messages in a JavaScript Set's formula, read into a catalog key.

As `_php` does for PHP: node (V8) speaks English, and each English catalog text
rebuilds V8's message from what is read here, after the error's class, as node
prints it (`SyntaxError: Unexpected number`); other readers get the same facts in
their words, framed as what JavaScript reports. A message not listed is quoted.
Most of what V8 could say never reaches it: the checker refuses it first.
"""

from __future__ import annotations

import re

PREFIX = "eval.js.error."
"""Catalog keys of the messages read here: `eval.js.error.<kind>`."""

READINGS = {
    "unexpected_number": "Unexpected number",
    "unexpected_end": "Unexpected end of input",
    "unexpected_token": r"Unexpected token '(?P<token>[^'`]*)'",
    "invalid_token": "Invalid or unexpected token",
    "missing_paren": r"missing \) after argument list",
    "unary_power": (
        r"Unary operator used immediately before exponentiation expression\. "
        r"Parenthesis must be used to disambiguate operator precedence"
    ),
    "stack": "Maximum call stack size exceeded",
}
"""V8's messages (node 20) a formula the checker passed can still meet."""

_PATTERNS = {kind: re.compile(pattern) for kind, pattern in READINGS.items()}


def read_node_message(message: str) -> tuple[str, dict[str, str]] | None:
    """The catalog key for node's `message` and its parameters, or None when unknown."""
    for kind, pattern in _PATTERNS.items():
        match = pattern.fullmatch(message.strip())
        if match is not None:
            return PREFIX + kind, match.groupdict()
    return None
