"""A Digits prepared for one grammar: its tables, its top-level blocks, and the caches
its queries fill (the listed top level, the text forms' readings).

Its own module, below search.py, toplevel.py and textforms.py that build and read it, so
that none of them imports its way back to another (tests/test_layering.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from solver import values as V
from solver.grammar import Func, Grammar, Operation
from solver.hits import TopLevel
from solver.tables import Index, RangeTables, Span, Table


@dataclass(frozen=True, slots=True)
class Block:
    """Distinct results of one operation over one split (or of the whole literal).

    `rows` restricts the left operands (None: all), `columns` the other side's; `witness`
    is a shortest pair (left * len(right) + right) per value and `tied` says another pair
    is as short (the text then re-derives rows by columns and picks among them)."""

    op: Operation | None
    split: int
    table: Table
    witness: Index
    tied: V.Bools
    rows: Index | None = None
    rows_left: bool = True
    columns: Index | None = None


class Listed(Protocol):
    """A `Block`, or one kept unreduced until read (lazy_block.LazyBlock)."""

    @property
    def op(self) -> Operation | None: ...
    @property
    def split(self) -> int: ...
    @property
    def table(self) -> Table: ...
    @property
    def witness(self) -> Index: ...
    @property
    def tied(self) -> V.Bools: ...
    @property
    def rows(self) -> Index | None: ...
    @property
    def rows_left(self) -> bool: ...
    @property
    def columns(self) -> Index | None: ...


@dataclass(frozen=True, slots=True)
class Inverted:
    """`+ - * /` over one split, searched by inverting along the smaller side."""

    op: Operation
    split: int
    rows_left: bool
    rows: Index  # rows of the smaller side that are finite and (for * and /) nonzero


@dataclass
class Prepared:
    digits: str
    grammar: Grammar
    tables: dict[Span, RangeTables]
    blocks: list[Listed]
    inverted: list[Inverted]
    # caches of the text forms (textforms.py), filled on demand
    top_level: TopLevel | None = None
    listed: TopLevel | None = None  # the blocks' values together (a prepared Digits's)
    text_table: TextTable | None = None
    by_length: dict[tuple[int, int], tuple[Index, V.Ints]] = field(default_factory=dict)
    text_bands: dict[tuple[int, int], TextBand] = field(default_factory=dict)
    x_costs: V.Ints | None = None  # textforms.top_level_costs

    def left(self, split: int) -> Table:
        return self.tables[(0, split)].w

    def right(self, split: int) -> Table:
        return self.tables[(split, len(self.digits))].w


@dataclass(frozen=True, slots=True)
class Readings:
    """One text function: for each reading (|f(x)| <= limit), every shortest x giving it."""

    read: V.Values
    x: V.Values
    length: Index  # of x as the function's argument


@dataclass(frozen=True, slots=True)
class TextTable:
    """What hexdec/octdec/bindec around the whole formula can give, from every top-level x.

    A few thousand rows instead of the million top-level values it is read from: only
    readings a query can want, and for each only its shortest x, since a longer x giving
    the same Result can never be the answer's text. `int_min` is PHP_INT_MIN (the one x
    whose negation reads differently) with its shortest length as an atom (the minus of
    `f(-x)` is in the form's length)."""

    limit: int | None
    readings: dict[Func, Readings]
    int_min: V.Values
    int_min_length: Index


@dataclass(frozen=True, slots=True)
class TextBand:
    """The distinct x of one band of lengths, with hexdec/octdec/bindec of each (cached)."""

    x: V.Values
    length: Index
    reads: dict[Func, V.Values]
