"""`decode_response`'s fast path (slices, no regex) reads exactly what the pattern it
replaced read, and leaves everything else to the full JSON parse.

The oracle below is the fast path as it was (commit 090dae0): one `fullmatch` of the
worker's bytes for a plain number, its groups, then `int`/`float`. Same line, same
nonce: the same verdict, or the same ProtocolError.
"""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from evaluator.result import Evaluation, Verdict
from evaluator.sandbox.protocol import ProtocolError, decode_response, full_response

_OLD_PLAIN = re.compile(
    rb'\{"ok":true,"t":"(int|float)","v":(-?[0-9][0-9.eE+-]*),"i":"([0-9a-f]{16})"\}'
)
NONCE = "0123456789abcdef"


def old_decode(line: bytes, formula: str, nonce: str) -> tuple[Verdict, bool]:
    """The fast path before, then the full parse (unchanged, now a function of its own)."""
    fast = _OLD_PLAIN.fullmatch(line)
    if fast is not None:
        kind, number, echoed = fast.groups()
        if echoed == nonce.encode():
            try:
                value = int(number) if kind == b"int" else float(number)
                return Evaluation(formula, value), False
            except ValueError:
                pass
    return full_response(line, formula, nonce)


def outcome(decode: object, line: bytes) -> tuple[str, object]:
    try:
        verdict, bye = decode(line, "f", NONCE)  # type: ignore[operator]
    except ProtocolError as exc:
        return "ProtocolError", str(exc)
    if isinstance(verdict, Evaluation):
        value = verdict.value
        return "ok", (type(value).__name__, repr(value), bye)
    return "error", (verdict, bye)


_NUMBERS = st.one_of(
    st.integers(min_value=-(2**70), max_value=2**70).map(lambda n: str(n).encode()),
    st.floats(allow_nan=False, allow_infinity=False).map(lambda x: repr(x).encode()),
    st.text(alphabet="0123456789.eE+-_ xabn", min_size=0, max_size=8).map(str.encode),
    st.sampled_from([b"007", b"-0", b"0", b"1_0", b" 1", b"+1", b"1e5", b"1.0E+25", b"nan"]),
)
_HEADS = st.sampled_from(
    [b'{"ok":true,"t":"int","v":', b'{"ok":true,"t":"float","v":', b'{"ok":true,"t":"str","v":']
)
_ECHOES = st.sampled_from([NONCE, "0123456789abcdeF", "0123456789abcde", NONCE + "0"])
_ENDS = st.sampled_from([b'"}', b'"} ', b'"}\r', b'"', b'"}}'])


@settings(max_examples=4000, deadline=None)
@given(_HEADS, _NUMBERS, _ECHOES, _ENDS)
@example(b'{"ok":true,"t":"int","v":', b"12", NONCE, b'"}')
@example(b'{"ok":true,"t":"float","v":', b"1.0E+25", NONCE, b'"}')
@example(b'{"ok":true,"t":"int","v":', b"007", NONCE, b'"}')
@example(b'{"ok":true,"t":"int","v":', b"", NONCE, b'"}')
def test_the_fast_path_reads_what_the_pattern_read(
    head: bytes, number: bytes, echo: str, end: bytes
) -> None:
    line = head + number + b',"i":"' + echo.encode() + end
    assert outcome(decode_response, line) == outcome(old_decode, line)


@settings(max_examples=1500, deadline=None)
@given(st.binary(max_size=80))
def test_any_bytes_get_the_old_verdict(junk: bytes) -> None:
    line = b'{"ok":true,"t":"int","v":' + junk + b',"i":"' + NONCE.encode() + b'"}'
    assert outcome(decode_response, line) == outcome(old_decode, line)
    assert outcome(decode_response, junk) == outcome(old_decode, junk)
