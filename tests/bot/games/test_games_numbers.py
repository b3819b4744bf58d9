"""Numbers are shown exactly as real PHP prints them: `echo` with precision=-1, which
is var_export's exact digits (1.0E+25, 0.38202247191011907) without `.0` on whole floats."""

from __future__ import annotations

import random
import struct
import subprocess

from bot.games._render import fmt  # type: ignore[attr-defined]
from rules import FormulaLanguage

CASES = [
    1e25,
    8.197210849721839e67,
    3.5,
    0.38202247191011907,
    3.0,
    -0.0,
    0.0,
    1e14,
    1e15,
    1e16,
    1e17,
    12345678901234567.0,
    123456789012345678.0,
    0.0001,
    0.00001,
    1.5e-7,
    0.1 + 0.2,
    2.0**63,
    -1e25,
    -2.5,
    1e100,
    5e-324,
    1.7976931348623157e308,
    2**0.5,
    1 / 3,
    150,
    -3,
    2**63 - 1,
]


def php_echo(values: list[float | int]) -> list[str]:
    """One php process: each value goes in as its exact bits and is echoed."""
    encoded = [
        f"unpack('E', hex2bin('{struct.pack('>d', v).hex()}'))[1]"
        if isinstance(v, float)
        else str(v)
        for v in values
    ]
    script = "".join(f'echo {e}, "\\n";' for e in encoded)
    out = subprocess.run(
        ["php", "-d", "precision=-1", "-r", script],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return out.splitlines()


def test_fmt_matches_php_echo_on_edge_cases() -> None:
    assert [fmt(v, FormulaLanguage.PHP) for v in CASES] == php_echo(CASES)
    assert fmt(1e25, FormulaLanguage.PHP) == "1.0E+25"
    assert fmt(8.197210849721839e67, FormulaLanguage.PHP) == "8.197210849721839E+67"
    assert fmt(0.38202247191011907, FormulaLanguage.PHP) == "0.38202247191011907"
    assert (
        fmt(3.0, FormulaLanguage.PHP),
        fmt(3.5, FormulaLanguage.PHP),
        fmt(-0.0, FormulaLanguage.PHP),
    ) == ("3", "3.5", "-0")


def test_fmt_matches_php_echo_on_random_floats() -> None:
    rng = random.Random(20261129)
    values: list[float | int] = []
    for _ in range(400):
        bits = rng.getrandbits(64)
        value = struct.unpack(">d", bits.to_bytes(8, "big"))[0]
        if value == value and abs(value) != float("inf"):
            values.append(value)
    values += [rng.uniform(-1e6, 1e6) for _ in range(200)]
    values += [float(rng.randint(-(10**18), 10**18)) for _ in range(100)]
    assert [fmt(v, FormulaLanguage.PHP) for v in values] == php_echo(values)
