"""PHP numbers column-wise: the `Values` arrays every vectorised operation works on.

`isint`, the exact int `i` (0 for a float) and the numeric value `f` (float(i)
for an int). Identity is PHP's: an int and a float of the same number differ,
-0.0 is not 0.0, every NAN is one value.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
from numpy.typing import NDArray

from solver import php

Bools = NDArray[np.bool_]
_F = TypeVar("_F", bound=Callable[..., Any])


def quiet(fn: _F) -> _F:
    """PHP has no floating-point warnings: INF, NAN and overflow are ordinary values here."""

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> Any:
        with np.errstate(all="ignore"):
            return fn(*args, **kwargs)

    return run  # type: ignore[return-value]


Ints = NDArray[np.int64]
Floats = NDArray[np.float64]
Index = NDArray[np.int64]

_I64_MIN = np.int64(php.INT_MIN)
_CANON_NAN_BITS = np.int64(0x7FF8000000000000)


@dataclass(frozen=True, slots=True)
class Values:
    isint: Bools
    i: Ints
    f: Floats

    def __len__(self) -> int:
        return len(self.f)

    @property
    def doubles_only(self) -> bool:
        """Made by `doubles`: `isint` and `i` are one False and one 0 read at every row."""
        return self.isint.base is _FALSE

    def take(self, index: NDArray[Any]) -> Values:
        if self.doubles_only:
            return doubles(self.f[index])
        return Values(self.isint[index], self.i[index], self.f[index])

    def repeat_each(self, times: int) -> Values:
        """Each value `times` times in a row: the rows of a pair grid (a few values
        repeated is a fill, where a gather through `np.repeat(arange)` reads at random)."""
        if self.doubles_only:
            return doubles(np.repeat(self.f, times))
        return Values(
            np.repeat(self.isint, times), np.repeat(self.i, times), np.repeat(self.f, times)
        )

    def tile(self, times: int) -> Values:
        """The whole column `times` times over: the columns of a pair grid (copies)."""
        if self.doubles_only:
            return doubles(np.tile(self.f, times))
        return Values(np.tile(self.isint, times), np.tile(self.i, times), np.tile(self.f, times))

    def scalar(self, k: int) -> php.Number:
        return int(self.i[k]) if self.isint[k] else float(self.f[k])

    def scalars(self) -> list[php.Number]:
        ints, floats = self.i.tolist(), self.f.tolist()
        return [a if t else b for t, a, b in zip(self.isint.tolist(), ints, floats, strict=True)]

    def keys(self) -> Ints:
        """An exact identity key within each type: the int, or an ordered key of the float."""
        return np.where(self.isint, self.i, float_keys(self.f))


@quiet
def float_keys(f: Floats) -> Ints:
    """Order-preserving int64 keys of doubles: -0.0 sorts just below 0.0, every NAN is one key."""
    bits = np.where(np.isnan(f), _CANON_NAN_BITS, f.view(np.int64))
    return np.where(bits < 0, ~(bits & np.int64(php.INT_MAX)), bits)


def floats_of_keys(keys: Ints) -> Floats:
    bits = np.where(keys < 0, ~keys | _I64_MIN, keys)
    return bits.view(np.float64)


def of_ints(values: Ints) -> Values:
    values = values.astype(np.int64)
    return Values(np.ones(len(values), np.bool_), values, values.astype(np.float64))


def of_floats(values: Floats) -> Values:
    values = values.astype(np.float64)
    n = len(values)
    return Values(np.zeros(n, np.bool_), np.zeros(n, np.int64), values)


_FALSE, _ZERO = np.zeros(1, np.bool_), np.zeros(1, np.int64)


def doubles(values: Floats) -> Values:
    """Doubles only (JavaScript's numbers): `isint` and `i` are one shared False and 0 seen
    at every row (read-only, no memory), and stay so through take, repeat_each, tile and
    concat. As real columns they were 9 of every 17 bytes that a JavaScript table's pair
    grids and gathers copied, for nothing."""
    f = np.asarray(values, np.float64)
    isint, i = _shared(len(f))
    return Values(isint, i, f)


_SHARED: dict[int, tuple[Bools, Ints]] = {}
_SHARED_MOST = 4096


def _shared(n: int) -> tuple[Bools, Ints]:
    """The shared False and 0 seen n times, made once per length: a cold JavaScript solve
    makes ~1,350 `doubles` of ~100 lengths, and two `np.broadcast_to` each were ~7 us, some
    20 ms of its ~300. Cleared when it holds `_SHARED_MOST` lengths (a long-lived solver
    process meets new lengths with every Digits)."""
    got = _SHARED.get(n)
    if got is None:
        if len(_SHARED) >= _SHARED_MOST:
            _SHARED.clear()
        got = _SHARED[n] = np.broadcast_to(_FALSE, (n,)), np.broadcast_to(_ZERO, (n,))
    return got


def of_scalars(numbers: Sequence[php.Number]) -> Values:
    isint = np.array([isinstance(x, int) for x in numbers], np.bool_)
    ints = np.array([x if isinstance(x, int) else 0 for x in numbers], np.int64)
    floats = np.array([float(x) for x in numbers], np.float64)
    return Values(isint, ints, floats)


def concat(parts: Sequence[Values]) -> Values:
    if not parts:
        return of_ints(np.zeros(0, np.int64))
    if all(p.doubles_only for p in parts):
        return doubles(np.concatenate([p.f for p in parts]))
    return Values(
        np.concatenate([p.isint for p in parts]),
        np.concatenate([p.i for p in parts]),
        np.concatenate([p.f for p in parts]),
    )


def mixed(isint: Bools, ints: Ints, floats: Floats) -> Values:
    ints = np.where(isint, ints, 0)
    return Values(isint, ints, np.where(isint, ints.astype(np.float64), floats))


def patch(
    out: Values, ok: Bools, where: Bools, fn: Callable[..., php.Number], *args: Values
) -> None:
    """Recompute the masked elements with the scalar semantics, in place."""
    for k in np.flatnonzero(where).tolist():
        try:
            value = fn(*(a.scalar(k) for a in args))
        except php.PhpError:
            ok[k] = False
            continue
        ok[k] = True
        if isinstance(value, int):
            out.isint[k], out.i[k], out.f[k] = True, value, float(value)
        else:
            out.isint[k], out.i[k], out.f[k] = False, 0, value


def put(out: Values, rows: Index, part: Values) -> None:
    out.isint[rows], out.i[rows], out.f[rows] = part.isint, part.i, part.f


@quiet
def identical(a: Values, b: Values) -> Bools:
    """PHP identity elementwise (===, -0.0 told from 0.0, NAN equal to NAN)."""
    same: Bools = (a.isint == b.isint) & (a.keys() == b.keys())
    return same


def identity_codes(a: Values) -> Ints:
    """A small int per element, equal exactly for PHP-identical values (for counting and
    grouping; keys alone collide between an int and a float)."""
    keys = a.keys()
    order = np.lexsort((keys, a.isint))
    change = np.ones(len(order), np.bool_)
    change[1:] = (keys[order][1:] != keys[order][:-1]) | (a.isint[order][1:] != a.isint[order][:-1])
    codes = np.empty(len(order), np.int64)
    codes[order] = np.cumsum(change) - 1
    return codes


def is_finite(a: Values) -> Bools:
    return a.isint | np.isfinite(a.f)
