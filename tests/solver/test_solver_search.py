"""The top-level search structures find every value: against listing every pair.

For each Digits, every (split, operation) is listed in full (no inversion, no
buckets); for random intervals of Results, `x_hits` must return every listed
value inside, each with its true shortest length. A bound in inverse.py that
is a hair too narrow, a wrong bucket key or a lost row shows up here.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from rules.sets import ALLOWED_FUNCTIONS, DEFAULT_FUNCTIONS
from solver import values as V
from solver.grammar import Grammar, Level
from solver.search import Prepared, derive, prepare, x_hits
from solver.tables import group, literal_value
from solver.toplevel import top_level


def everything(prep: Prepared) -> tuple[V.Values, np.ndarray, np.ndarray]:
    """Every top-level value, with its shortest length anywhere and as an atom."""
    parts, anywhere, atom = [], [], []
    lit = literal_value(prep.digits)
    if lit is not None:
        parts.append(lit)
        anywhere.append(np.array([4]))
        atom.append(np.array([4]))
    for split in range(1, 4):
        a, c = prep.left(split), prep.right(split)
        for op in prep.grammar.ops:
            vals, length, _ = derive(a, c, op, None, True)
            parts.append(vals)
            anywhere.append(length)
            atom.append(length + 2 * (op.level < Level.ATOM))
    vals = V.concat(parts)
    order, starts, _, _ = group(vals)
    return (
        vals.take(order[starts]),
        np.minimum.reduceat(np.concatenate(anywhere)[order], starts),
        np.minimum.reduceat(np.concatenate(atom)[order], starts),
    )


def _intervals(rng: random.Random) -> tuple[np.ndarray, np.ndarray]:
    centers = [
        rng.choice([0, 1, -1, 100, 501, -501, 701, 2, 64, 4096, 1e6, -3.5]) for _ in range(6)
    ]
    centers += [rng.uniform(-2000, 2000) for _ in range(6)]
    centers += [rng.choice([-1, 1]) * 10 ** rng.uniform(-3, 19) for _ in range(6)]
    widths = [rng.choice([0, 0.5, 3, 40, abs(c) * 0.01]) for c in centers]
    lo = np.array([c - w for c, w in zip(centers, widths, strict=True)])
    hi = np.array([c + w for c, w in zip(centers, widths, strict=True)])
    return lo, hi


@pytest.mark.parametrize(
    ("digits", "functions"),
    [("3489", DEFAULT_FUNCTIONS), ("1008", DEFAULT_FUNCTIONS), ("9090", DEFAULT_FUNCTIONS),
     ("2957", tuple(sorted(ALLOWED_FUNCTIONS))), ("7103", tuple(sorted(ALLOWED_FUNCTIONS)))],
)  # fmt: skip
def test_the_search_finds_every_value_with_its_shortest_length(
    digits: str, functions: tuple[str, ...]
) -> None:
    prep = prepare(digits, Grammar.for_functions(functions))
    truth, anywhere, atom = everything(prep)
    rng = random.Random(digits)
    for round_ in range(8):
        if round_ == 4:  # the same again through the listed top level of a prepared Digits
            top_level(prep)
        lo, hi = _intervals(rng)
        hits = x_hits(prep, lo, hi)
        inside = np.zeros(len(truth), np.bool_)
        for a, b in zip(lo, hi, strict=True):
            inside |= V.is_finite(truth) & (truth.f >= a) & (truth.f <= b)
        wanted = np.flatnonzero(inside)
        codes = V.identity_codes(V.concat([truth.take(wanted), hits.x]))
        truth_codes, hit_codes = codes[: len(wanted)], codes[len(wanted) :]
        size = int(codes.max(initial=0)) + 1
        best_any = np.full(size, 1 << 30)
        best_atom = np.full(size, 1 << 30)
        np.minimum.at(best_any, hit_codes, hits.length_any)
        np.minimum.at(best_atom, hit_codes, hits.length_atom)
        missing = wanted[best_any[truth_codes] != anywhere[wanted]]
        assert not len(missing), (digits, truth.take(missing[:5]).scalars(), anywhere[missing[:5]])
        assert np.array_equal(best_atom[truth_codes], atom[wanted])
        assert len(wanted) > 0
