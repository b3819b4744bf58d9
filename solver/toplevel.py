"""Every distinct top-level value of one Digits, materialised once by `Solver.prepare`.

A cold solve never lists the top level: it inverts `+ - * /` row by row and
reads only the pairs that can land near the objective (search.py). That costs
dozens of small array passes per query. A Digits that many Scores will be asked
about (a duel's, a Qualification's) is worth listing once: up to two million
derivations reduced to some 600,000 distinct values, kept as sorted keys and two
lengths (~12 bytes a value), so a query's top-level hits are two binary searches
per interval. The text forms (textforms.py) read the same list.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import numpy as np

from solver import values as V
from solver.grammar import Level
from solver.hits import AnyInts, Lengths, TopLevel
from solver.prepared import Prepared
from solver.search import derive
from solver.semantics import semantics

__all__ = [
    "TopLevel",
    "build_top_level",
    "derivations",
    "list_blocks",
    "top_level",
    "worth_listing",
]


LIST_BUDGET = 4_000_000
"""The most top-level derivations `Solver.prepare` lists (PHP's Sets: up to ~2 million,
some 600,000 distinct values kept; JavaScript's 4-19 million would pass the solver
process's 256 MiB)."""


def derivations(prep: Prepared) -> int:
    """How many top-level derivations listing the top level would evaluate."""
    count = sum(len(block.table) for block in prep.blocks)
    for inv in prep.inverted:
        other = prep.right(inv.split) if inv.rows_left else prep.left(inv.split)
        count += len(inv.rows) * len(other)
    return count


def worth_listing(prep: Prepared) -> bool:
    """Whether to list the top level: always when text forms read it (they need it whole),
    else when it fits the budget."""
    if any(f.reads_text for f in prep.grammar.funcs):
        return True
    return derivations(prep) <= LIST_BUDGET


def top_level(prep: Prepared) -> TopLevel:
    """The Digits' top level (listed once, then kept with the prepared Digits)."""
    if prep.top_level is None:
        prep.top_level = build_top_level(prep)
    return prep.top_level


def build_top_level(prep: Prepared) -> TopLevel:
    """Each part is reduced to keys and lengths as it is derived: the two million rows never
    exist as values at once (whole-array passes peaked 300 MiB above the tables)."""
    return _reduced(_parts(prep))


def _reduced(parts: Iterable[tuple[V.Values, AnyInts, AnyInts]]) -> TopLevel:
    keys: dict[bool, list[V.Ints]] = {True: [], False: []}
    lengths: dict[bool, list[Lengths]] = {True: [], False: []}
    for values, length_any, length_atom in parts:
        for isint in (True, False):
            rows = values.isint if isint else ~values.isint
            key, length = _distinct(
                [values.i[rows] if isint else V.float_keys(values.f[rows])],
                [np.stack([length_any[rows], length_atom[rows]], axis=1).astype(np.int16)],
            )  # each part at once: half the rows are repeats within their part
            keys[isint].append(key)
            lengths[isint].append(length)
    int_keys, int_lengths = _distinct(keys[True], lengths[True])
    float_keys, float_lengths = _distinct(keys[False], lengths[False])
    both = np.concatenate([int_lengths, float_lengths])
    return TopLevel(
        np.concatenate([int_keys, float_keys]),
        len(int_keys),
        np.ascontiguousarray(both[:, 0]),
        np.ascontiguousarray(both[:, 1]),
    )


def list_blocks(prep: Prepared) -> None:
    """The blocks' values as one sorted list (`Prepared.listed`): a query on a prepared
    Digits whose top level is not listed reads one list, not some fifty blocks."""
    atom = int(Level.ATOM)
    prep.listed = _reduced(
        (block.table.values, block.table.lens[:, 0], block.table.lens[:, atom])
        for block in prep.blocks
    )


def _parts(prep: Prepared) -> Iterator[tuple[V.Values, AnyInts, AnyInts]]:
    """Every top-level derivation, a part at a time: value, length anywhere, as an atom."""
    atom = int(Level.ATOM)
    for block in prep.blocks:
        yield block.table.values, block.table.lens[:, 0], block.table.lens[:, atom]
    for inv in prep.inverted:
        vals, length, _ = derive(
            prep.left(inv.split),
            prep.right(inv.split),
            inv.op,
            inv.rows,
            inv.rows_left,
            sem=semantics(prep.grammar),
        )
        yield vals, length, length + 2 * (int(inv.op.level) < atom)


def _distinct(keys: list[V.Ints], lengths: list[Lengths]) -> tuple[V.Ints, Lengths]:
    """Each distinct key once, sorted, with its shortest lengths."""
    key, length = np.concatenate(keys), np.concatenate(lengths)
    if len(key) == 0:
        return key, length
    order = np.argsort(key)
    key = key[order]
    starts = np.flatnonzero(np.append(True, key[1:] != key[:-1]))
    return key[starts], np.minimum.reduceat(length[order], starts, axis=0)
