"""Differential: the JavaScript checker against node's own tokenizer and parser.

Thousands of generated inputs, many of them built from JavaScript's traps
(`--`, `/…/` where a regex may start, `.5`, `1.`, `1e3`, `1_0`, `5n`, `0x`,
`<!--`, `?.`, `Math .sqrt`, strings, templates, comments). For every input the
checker accepts, node must read exactly the checker's tokens:

- node's tokenizer (the acorn inside node) cuts the same tokens at the same
  columns (or finds no tokens at all where V8 finds a SyntaxError too);
- V8 judges the formula exactly as it judges the checker's tokens joined by
  spaces (a token the checker cut wrongly changes what V8 reads: `3--4` is a
  SyntaxError, `3 - - 4` is 7);
- what V8 makes of it is a number or an error (a SyntaxError being node's own
  verdict on a formula that does not parse, as `-2**2`), never a string, a
  regular expression, an object or a function.

Refusals are not held to node: refusing early is allowed (RULES.md), running
something outside the list is not. One long-lived node process answers every
input (tests/evaluator/js_oracle.js), fed in one stream.
"""

from __future__ import annotations

import json
import random
import subprocess
import threading
from functools import cache
from pathlib import Path

from evaluator.check import prepare
from evaluator.js_check import tokenize
from evaluator.js_lexer import tokens
from evaluator.lexer import Kind
from evaluator.result import FormulaError
from rules.game_set import JS_ALLOWED_FUNCTIONS

ORACLE = Path(__file__).with_name("js_oracle.js")
SEED = 20261201
COUNT = 4000
FUNCTIONS = frozenset(JS_ALLOWED_FUNCTIONS)

OPERATORS = ("+", "-", "*", "/", "%", "**", "&", "|", "^", "<<", ">>", ">>>")
CALLS = ("Math.sqrt", "Math.pow", "Math.max", "Math.abs", "Math.hypot", "Math.sign")
LITERALS = ("3", "4", "89", "0", "07", "08", "019", "1234", "023")
TRAPS = (
    *(".", "e", "E", "e+", "x", "X", "o", "b", "n", "_", "$", "\\", ",", "(", ")", " "),
    *("=", "==", "!", "~", "?", ":", ";", "<", ">", "<=", "=>", "?.", "??", "...", "#", "@"),
    *("'", '"', "`", "[", "]", "{", "}", "//", "/*", "*/", "<!--", "-->", "--", "++", "-", "/"),
    *("Math", "Math.", ".sqrt", "sqrt", "Math.log2(", "Math .sqrt(", "Math. sqrt(", "+"),
    *("in", "new", "this", "a", "\u00e9", "\ufeff", "1.", ".5", "1e3", "1_0", "5n", "0x1"),
    *("0b1", "0o7", "08.5", "07.5", "1..5", "/2/", "/=", "-0", "\u2212", "\u00d7", "*"),
)


def _expression(rng: random.Random, depth: int = 0) -> str:
    """A formula of the allowed grammar (it may still not parse: `-2**2`)."""
    roll = rng.random()
    if depth > 3 or roll < 0.3:
        literal = rng.choice(LITERALS)
        return f"-{literal}" if rng.random() < 0.15 else literal
    if roll < 0.45:
        args = [_expression(rng, depth + 1) for _ in range(rng.randint(1, 3))]
        return f"{rng.choice(CALLS)}({','.join(args)})"
    if roll < 0.55:
        return f"({_expression(rng, depth + 1)})"
    space = " " if rng.random() < 0.3 else ""
    op = rng.choice(OPERATORS)
    return f"{_expression(rng, depth + 1)}{space}{op}{space}{_expression(rng, depth + 1)}"


def _input(rng: random.Random) -> str:
    text = _expression(rng)
    for _ in range(rng.choice((0, 0, 1, 1, 2))):
        at = rng.randint(0, len(text))
        cut = rng.choice((0, 0, 1))
        text = text[:at] + rng.choice(TRAPS) + text[at + cut :]
    return text


def generate(count: int = COUNT, seed: int = SEED) -> list[str]:
    rng = random.Random(seed)
    return [_input(rng) for _ in range(count)]


def _checked(raw: str) -> tuple[str, str | None]:
    """The text node would get, and the checker's tokens joined by spaces (None: refused)."""
    try:
        text = prepare(raw)
        read = tokenize(text, FUNCTIONS)
    except FormulaError:
        return raw, None
    return text, " ".join(t.text for t in read)


def ask_node(items: list[tuple[str, str | None]]) -> list[dict[str, object]]:
    """One node process for every item: written by a thread while this one reads."""
    proc = subprocess.Popen(
        ["node", "--expose-internals", str(ORACLE)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    stdin = proc.stdin

    def feed() -> None:
        for source, spaced in items:
            stdin.write(json.dumps([source, spaced]) + "\n")
        stdin.close()

    writer = threading.Thread(target=feed)
    writer.start()
    answers = [json.loads(line) for line in proc.stdout]
    writer.join()
    proc.wait(timeout=30)
    assert len(answers) == len(items)
    return answers


@cache
def cases() -> tuple[tuple[str, str, str | None, dict[str, object]], ...]:
    raws = generate()
    checked = [_checked(raw) for raw in raws]
    answers = ask_node(checked)
    return tuple(
        (raw, text, spaced, answer)
        for raw, (text, spaced), answer in zip(raws, checked, answers, strict=True)
    )


def test_the_generator_reaches_both_sides_and_the_traps() -> None:
    accepted = [c for c in cases() if c[2] is not None]
    refused = [c for c in cases() if c[2] is None]
    assert len(accepted) > 1000
    assert len(refused) > 1000
    outcomes = {str(answer["outcome"]).split(":")[0] for *_, answer in accepted}
    assert outcomes >= {"number", "syntax"}
    # node runs many of the refused inputs: refusing them is what the checker is for
    ran = [c for c in refused if not str(c[3]["outcome"]).startswith("syntax")]
    assert len(ran) > 300
    assert any(str(c[3]["outcome"]).startswith("other:") for c in refused)


def test_node_reads_exactly_the_checkers_tokens() -> None:
    wrong = []
    for _, text, spaced, answer in cases():
        if spaced is None:
            continue
        ours = [[t.column - 1, t.text] for t in tokens(text) if t.kind is not Kind.SPACE]
        if answer["tokens"] is None and answer["outcome"] == "syntax":
            continue  # neither of node's readers makes tokens of it: nothing runs
        if answer["tokens"] != ours:
            wrong.append((text, ours, answer["tokens"]))
    assert not wrong[:10], f"{len(wrong)} accepted inputs are cut otherwise by node"


def test_v8_judges_the_formula_as_the_checkers_tokens() -> None:
    wrong = [
        (text, spaced, answer)
        for _, text, spaced, answer in cases()
        if spaced is not None and answer["outcome"] != answer["spaced"]
    ]
    assert not wrong[:10], f"{len(wrong)} accepted inputs mean something else to V8"


def test_an_accepted_formula_gives_a_number_or_an_error() -> None:
    wrong = [
        (text, answer["outcome"])
        for _, text, spaced, answer in cases()
        if spaced is not None and str(answer["outcome"]).startswith("other:")
    ]
    assert not wrong[:10], f"{len(wrong)} accepted inputs give node something not a number"
