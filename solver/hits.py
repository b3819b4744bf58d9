"""Top-level values found by a search, and the listed top level a prepared Digits reads.

Data and lookups only (no Digits are prepared here): `prepared.Prepared` keeps a
`TopLevel`, and the search returns `Hits`, so both sit below every module that
builds or searches a `Prepared` (the solver has no import circle).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from solver import values as V
from solver.grammar import Level
from solver.tables import Index, distinct_indices, expand, key_spans

Lengths = NDArray[np.int16]
AnyInts = NDArray[np.integer[Any]]


@dataclass
class Hits:
    """Top-level x values found, with their shortest lengths anywhere and as an atom."""

    x: V.Values
    length_any: Index
    length_atom: Index

    @staticmethod
    def concat(parts: list[Hits]) -> Hits:
        if not parts:
            z = np.zeros(0, np.int64)
            return Hits(V.of_ints(z), z, z)
        return Hits(
            V.concat([p.x for p in parts]),
            np.concatenate([p.length_any for p in parts]),
            np.concatenate([p.length_atom for p in parts]),
        )

    def length(self, ctx: int) -> Index:
        return self.length_atom if ctx == int(Level.ATOM) else self.length_any


class Sorted(Protocol):
    """Values sorted ints first, then floats (a Table, the TopLevel)."""

    @property
    def n_int(self) -> int: ...

    def __len__(self) -> int: ...

    def spans(self, lo: V.Floats, hi: V.Floats) -> tuple[Index, Index]: ...


def padded_spans(table: Sorted, lo: V.Floats, hi: V.Floats, pad: int) -> tuple[Index, Index]:
    """Spans of the values in the intervals, with `pad` more on each side within each type."""
    starts, stops = table.spans(lo, hi)
    if pad:
        part_lo = np.tile(np.array([0, table.n_int], np.int64), len(starts) // 2)
        part_hi = np.tile(np.array([table.n_int, len(table)], np.int64), len(starts) // 2)
        starts = np.maximum(starts - pad, part_lo)
        stops = np.maximum(np.minimum(stops + pad, part_hi), starts)
    return starts, stops


@dataclass(frozen=True, slots=True)
class TopLevel:
    """Distinct top-level values as keys (ints sorted, then float keys sorted), each with
    its shortest length anywhere and as an atom (where a unary minus needs one)."""

    keys: V.Ints
    n_int: int
    length_any: Lengths
    length_atom: Lengths

    def __len__(self) -> int:
        return len(self.keys)

    def spans(self, lo: V.Floats, hi: V.Floats) -> tuple[Index, Index]:
        return key_spans(self.keys, self.n_int, lo, hi)

    def values(self, index: Index) -> V.Values:
        keys = self.keys[index]
        isint = index < self.n_int
        floats = V.floats_of_keys(np.where(isint, 0, keys))
        return V.Values(isint, np.where(isint, keys, 0), np.where(isint, keys, floats))

    def hits(self, lo: V.Floats, hi: V.Floats, pad: int = 0) -> Hits:
        """The values in the intervals (and `pad` neighbours on each side), as search.x_hits."""
        starts, stops = padded_spans(self, lo, hi, pad)
        index, _ = expand(starts, stops)
        index = distinct_indices(index, len(self.keys))
        return Hits(
            self.values(index),
            self.length_any[index].astype(np.int64),
            self.length_atom[index].astype(np.int64),
        )
