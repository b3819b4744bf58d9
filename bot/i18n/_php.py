"""PHP's own error messages, read into a catalog key and its parameters.

PHP speaks English, and its words are part of the game: an English reader sees
them exactly, and each catalog text's English form rebuilds PHP's message from
the parameters read here (tested), so reading a message loses nothing. Other
readers get the same facts in their language, framed as what PHP reports. A
message not listed here is shown as PHP wrote it, quoted. A token PHP quotes
passed the checker, so it holds no backtick and can stand in inline code.
"""

from __future__ import annotations

import re

PREFIX = "eval.php."
"""Catalog keys of the messages read here: `eval.php.<kind>`."""


_QUOTED = r'"(?P<token>[^"`]*)"'
_ARGUMENTS = (
    r"(?P<function>\w+)\(\) expects {bound} (?P<expected>\d+) arguments?, (?P<given>\d+) given"
)

READINGS = {
    "division_by_zero": "Division by zero",
    "modulo_by_zero": "Modulo by zero",
    "numeric_literal": "Invalid numeric literal",
    "negative_shift": "Bit shift by negative number",
    "syntax_end": "syntax error, unexpected end of the formula",
    "syntax_integer": "syntax error, unexpected integer " + _QUOTED,
    "syntax_token": "syntax error, unexpected token " + _QUOTED,
    "syntax_identifier": "syntax error, unexpected identifier " + _QUOTED,
    "arguments_exactly": _ARGUMENTS.format(bound="exactly"),
    "arguments_at_least": _ARGUMENTS.format(bound="at least"),
    "arguments_at_most": _ARGUMENTS.format(bound="at most"),
    "not_callable": r"Value of type (?P<type>\w+) is not callable",
}
"""PHP's common messages in a formula (PHP 8's wording; `unexpected end of the formula`
is the worker's for PHP's `unexpected token ")"` past the player's text)."""

_PATTERNS = {kind: re.compile(pattern) for kind, pattern in READINGS.items()}


def read_php_message(message: str) -> tuple[str, dict[str, str]] | None:
    """The catalog key for PHP's `message` and its parameters, or None when unknown."""
    for kind, pattern in _PATTERNS.items():
        match = pattern.fullmatch(message.strip())
        if match is not None:
            return PREFIX + kind, match.groupdict()
    return None
