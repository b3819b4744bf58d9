"""The checker reads a formula exactly as PHP does: held to PHP's own `token_get_all`.

One real php process (with the tokenizer extension) answers every example of
the properties in turn, so thousands of random strings over the formula
alphabet, and over the characters that make PHP's longer tokens, are cut by
our lexer and by PHP's, and must agree token by token up to where our lexer
stops (the first string, comment, variable or other opener, where nothing
reaches PHP anyway).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evaluator.check import normalize, tokenize
from evaluator.lexer import STOPS, Kind, plain_tokens, tokens
from evaluator.result import FormulaError
from rules.sets import ALLOWED_FUNCTIONS

_TOKENIZE = r"""
while (($line = fgets(STDIN)) !== false) {
    $out = [];
    foreach (array_slice(token_get_all('<?php ' . json_decode($line)), 1) as $t) {
        $out[] = is_array($t) ? [token_name($t[0]), $t[1]] : ['', $t];
    }
    echo json_encode($out, JSON_INVALID_UTF8_SUBSTITUTE), "\n";
}
"""


class PhpLexer:
    """`token_get_all` in one long-lived php process, one string per line."""

    def __init__(self) -> None:
        php = shutil.which("php")
        assert php is not None, "php is needed: apt-get install php-cli"
        args = [php, "-n", "-d", "display_errors=0"]
        probe = subprocess.run(
            [*args, "-r", "exit(function_exists('token_get_all') ? 0 : 1);"], check=False
        )
        if probe.returncode != 0:
            args += ["-d", "extension=tokenizer"]
        self.proc = subprocess.Popen(
            [*args, "-r", _TOKENIZE],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )

    def tokens(self, text: str) -> list[tuple[str, str, int]]:
        """(PHP token name or '' for a character, text, 0-based column)."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(text) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        assert line, "the php tokenizer process died"
        out, column = [], 0
        for name, token in json.loads(line):
            out.append((name, token, column))
            column += len(token)
        return out

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()


@pytest.fixture(scope="module")
def php() -> Iterator[PhpLexer]:
    lexer = PhpLexer()
    yield lexer
    lexer.close()


_ONE_LABEL = r"[a-zA-Z_\x80-\U0010ffff][\w\x80-\U0010ffff]*"
_LABEL = re.compile(rf"\\?{_ONE_LABEL}(?:\\{_ONE_LABEL})*")
_OPENERS = {
    "T_CONSTANT_ENCAPSED_STRING",
    "T_ENCAPSED_AND_WHITESPACE",
    "T_COMMENT",
    "T_DOC_COMMENT",
    "T_VARIABLE",
    "T_START_HEREDOC",
    "T_CLOSE_TAG",
    "T_INLINE_HTML",
}
_OPS = {"+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>"}


def php_kind(name: str, text: str) -> Kind:
    """What our lexer calls the token PHP named `name`."""
    if name == "T_WHITESPACE":
        return Kind.SPACE
    if name in ("T_LNUMBER", "T_DNUMBER"):
        return Kind.NUMBER if text.isascii() and text.isdigit() else Kind.PHP_NUMBER
    if name in _OPENERS or text in ('"', "`", "b'", 'b"', "B'", 'B"'):
        return Kind.OPENER
    if _LABEL.fullmatch(text):
        return Kind.NAME
    if text in _OPS:
        return Kind.OP
    return {"(": Kind.LPAREN, ")": Kind.RPAREN, ",": Kind.COMMA}.get(text, Kind.TOKEN)


def agree(php: PhpLexer, text: str) -> None:
    ours = tokens(text)
    plain = plain_tokens(text)
    assert plain is None or plain == ours, (text, plain, ours)
    theirs = php.tokens(text)
    for token, (name, php_text, column) in zip(ours, theirs, strict=False):
        expected = php_kind(name, php_text)
        assert (token.column - 1, token.kind) == (column, expected), (text, token, name, php_text)
        if token.kind is Kind.OPENER:
            assert php_text.startswith(token.text) or token.text.startswith(php_text), text
        else:
            assert token.text == php_text, (text, token, php_text)
    if not ours or (ours[-1].kind is not Kind.OPENER and ours[-1].text not in STOPS):
        assert len(ours) == len(theirs), (text, ours, theirs)


_FRAGMENTS = st.sampled_from(
    [
        *"0123456789+-*/%&|^<>()., =!?:;#[]{}$'\"`\\@~_",
        *("pow", "sqrt", "hexdec", "octdec", "bindec", "abs", "intdiv", "min", "max", "fmod"),
        *("int", "float", "real", "unset", "binary", "x", "e", "E", "b", "B", "o", "X"),
        *("0x", "0b", "0o", "1e", "1_0", "<<<", "<<<a", "?>", "->", "::", "**", "namespace\\"),
        *("(int)", "( float )", "fn", "and", "é", "€", "\x01", "\x7f", " ", " "),
    ]
)
_STRINGS = st.lists(_FRAGMENTS, max_size=24).map("".join).map(normalize)
_FORMULA_ALPHABET = st.text(alphabet="0123456789+-*/%&|^<>(), pow", max_size=30).map(normalize)


@settings(max_examples=4000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_STRINGS)
def test_tokens_agree_with_php(php: PhpLexer, text: str) -> None:
    agree(php, text)


@settings(max_examples=2000, deadline=None)
@given(_FORMULA_ALPHABET)
def test_tokens_of_the_formula_alphabet_agree_with_php(php: PhpLexer, text: str) -> None:
    agree(php, text)


@pytest.mark.parametrize(
    "text",
    [
        "3--4", "->>", "0x1A", "0X1a", "0b11", "0o17", "1e3", "1E+3", "1_000", "1.5", ".5",
        "1.", "1..2", "1...", "34.=89", "5.e3", "08.5", "0x1.5", "1e3.5", "1_e3", "0x_1",
        "(int)", "( integer )", "(real)", "(int", "#[x", "#x", "a\\b", "\\a", "a\\\\b",
        "namespace\\a", "B'x'", "b'x", "B<<<", "<<<a", "?>x", "$a", "$$a", "$", "&$a",
        "?->x", "? ->", "1<=>2", "**=", "??=", "99999999999999999999", "powé", "€3",
    ],
)  # fmt: skip
def test_known_cuts_agree_with_php(php: PhpLexer, text: str) -> None:
    agree(php, text)


FUNCTIONS = frozenset(ALLOWED_FUNCTIONS)
_ALLOWED_KINDS = {Kind.SPACE, Kind.NUMBER, Kind.OP, Kind.LPAREN, Kind.RPAREN, Kind.COMMA}


@settings(max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_STRINGS)
def test_the_checker_refuses_exactly_at_the_first_token_php_would_read_unlisted(
    php: PhpLexer, text: str
) -> None:
    """Refused where PHP's first unlisted token starts; accepted only if there is none."""
    theirs = [
        (name, token, column)
        for name, token, column in php.tokens(text)
        if php_kind(name, token) is not Kind.SPACE
    ]
    first_bad = None
    for index, (name, token, column) in enumerate(theirs):
        kind = php_kind(name, token)
        called = index + 1 < len(theirs) and theirs[index + 1][1] == "("
        if kind is Kind.NAME and token.isascii() and token.lower() in FUNCTIONS and called:
            continue
        if kind not in _ALLOWED_KINDS:
            first_bad = column + 1
            break
    try:
        tokenize(text, FUNCTIONS)
    except FormulaError as exc:
        assert exc.error.position == first_bad, (text, exc.error.message, theirs)
    else:
        assert first_bad is None, (text, theirs)
