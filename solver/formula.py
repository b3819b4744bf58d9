"""The text of a found value: the cheapest formula (grammar.formula_cost: fewest calls,
then unary minuses, then characters), then the first in plain string order.

Tables keep only costs ("lengths" in their names); the text is rebuilt on demand,
top-down, for the few values a search returns. A cost is composed exactly (children at
their cheapest in the context the parent needs), and with the costs fixed the string
order of a composite is the order of its children from left to right, so the smallest
text of every child gives the smallest composite.
"""

from __future__ import annotations

import numpy as np

from solver import values as V
from solver.grammar import Level, Operation, formula_cost
from solver.lazy_block import LazyBlock
from solver.prepared import Inverted, Listed, Prepared
from solver.search import (
    Form,
    block_derivations,
    form_context,
    form_length,
    inverted_pairs,
    pair_values,
)
from solver.tables import Span, literal_value


def canonical(text: str) -> str:
    """What lengths and the string order compare: the formula without its spaces."""
    return text.replace(" ", "")


def smallest(texts: list[str]) -> str:
    if not texts:
        raise LookupError("no formula has this value: the tables disagree with the search")
    return min(texts, key=lambda t: (formula_cost(t), canonical(t)))


def _key(v: V.Values) -> tuple[bool, int]:
    return bool(v.isint[0]), int(v.keys()[0])


class _Index:
    """Where each value occurs among several arrays of values: found by a scan for the
    first `_SCANS` values, then by binary search in an index sorted once. A cold solve
    writes a handful of texts: sorting a three-digit span's 400,000 JavaScript wrap
    values for them cost more than its whole search (a prepared Digits's writer, asked
    every reveal, sorts after its first few)."""

    def __init__(self, parts: list[V.Values]) -> None:
        values = V.concat(parts)
        self.source = np.repeat(np.arange(len(parts)), [len(p) for p in parts])
        self.position = np.concatenate(
            [np.arange(len(p)) for p in parts] or [np.zeros(0, np.int64)]
        )
        self._values: V.Values | None = values  # until sorted: a prepared Digits keeps it
        self._doubles = values.doubles_only
        self._scans = 0
        self._sorted: tuple[V.Ints, V.Bools, V.Ints] | None = None
        if not self._doubles:  # PHP's: sorted at once, as before (nothing to scan)
            self._sort()

    def _sort(self) -> tuple[V.Ints, V.Bools, V.Ints]:
        """The index sorted once; the concatenation is let go then (memory per Digits)."""
        values = self._values
        assert values is not None
        keys = values.keys()
        if self._doubles:  # one key: no int part to set apart
            order = np.argsort(keys, kind="stable")
        else:
            order = np.lexsort((keys, values.isint))
        self._sorted = order, values.isint[order], keys[order]
        self._values = None
        return self._sorted

    def _hits(self, is_int: bool, key: int) -> V.Ints:
        """Positions in the concatenation holding the value, in order."""
        values = self._values
        if values is not None and self._scans < _SCANS and self._doubles and not is_int:
            self._scans += 1  # a double's candidates by ==, then its key (-0 is not 0)
            x = float(V.floats_of_keys(np.array([key]))[0])
            near = np.flatnonzero(np.isnan(values.f) if np.isnan(x) else values.f == x)
            same: V.Ints = near[V.float_keys(values.f[near]) == key]
            return same
        order, isint, keys = self._sorted if self._sorted is not None else self._sort()
        lo = int(np.searchsorted(isint, is_int, "left"))
        hi = int(np.searchsorted(isint, is_int, "right"))
        start = lo + int(np.searchsorted(keys[lo:hi], key, "left"))
        stop = lo + int(np.searchsorted(keys[lo:hi], key, "right"))
        return order[start:stop]

    def find(self, value: V.Values) -> list[tuple[int, V.Ints]]:
        """Per array holding the single value: its number and the value's positions there
        (arrays, not pairs: `Math.sign(x)` is 1 for some 40,000 x of a table)."""
        hits = self._hits(bool(value.isint[0]), int(value.keys()[0]))
        source, position = self.source[hits], self.position[hits]
        return [(int(s), position[source == s]) for s in np.unique(source)]


_SCANS = 48


class Writer:
    def __init__(self, prep: Prepared) -> None:
        self.prep = prep
        self._w: dict[tuple[Span, int, int], str] = {}
        self._b: dict[tuple[Span, int, int], str] = {}
        self._pairs: dict[Span, _Index] = {}
        self._wraps: dict[Span, _Index] = {}

    def _pair_index(self, span: Span) -> _Index:
        if span not in self._pairs:
            self._pairs[span] = _Index([p.values for p in self.prep.tables[span].pairs])
        return self._pairs[span]

    def _wrap_index(self, span: Span) -> _Index:
        if span not in self._wraps:
            self._wraps[span] = _Index([f.values for f in self.prep.tables[span].wraps])
        return self._wraps[span]

    def w_text(self, span: Span, index: int, ctx: int) -> str:
        memo = (span, index, ctx)
        if memo not in self._w:
            self._w[memo] = self._w_text(span, index, ctx)
        return self._w[memo]

    def _w_text(self, span: Span, index: int, ctx: int) -> str:
        rng = self.prep.tables[span]
        w, b = rng.w, rng.b
        v = w.values.take(np.array([index]))
        need = int(w.lens[index, ctx])
        options = []
        bi = int(b.index_of(v)[0])
        if bi >= 0 and int(b.lens[bi, ctx]) == need:
            options.append(self.b_text(span, bi, ctx))
        for number, ks in self._wrap_index(span).find(v):
            form = rng.wraps[number]
            # a unary minus where an atom is needed (JavaScript's `(-2)**2`) is parenthesized
            bare = self.prep.grammar.wrap_level(form.wrap) >= ctx
            fits = ks[form.length[ks] + (0 if bare else 2) == need]
            for k in fits.tolist():
                inner = self.b_text(span, int(form.source[k]), form.wrap.inner_context)
                text = form.wrap.render(inner)
                options.append(text if bare else f"({text})")
        return smallest(options)

    def b_text(self, span: Span, index: int, ctx: int) -> str:
        memo = (span, index, ctx)
        if memo not in self._b:
            self._b[memo] = self._b_text(span, index, ctx)
        return self._b[memo]

    def _b_text(self, span: Span, index: int, ctx: int) -> str:
        rng = self.prep.tables[span]
        b = rng.b
        v = b.values.take(np.array([index]))
        need = int(b.lens[index, ctx])
        options = []
        text = self.prep.digits[span[0] : span[1]]
        lit = literal_value(text, self.prep.grammar)
        if lit is not None and V.identical(lit, v)[0] and len(text) == need:
            options.append(text)
        i, j = span
        for number, ks in self._pair_index(span).find(v):
            p = rng.pairs[number]
            fits = p.op.level >= ctx
            cl, cr = p.op.contexts()
            for k in ks[p.length[ks] + (0 if fits else 2) == need].tolist():
                natural = p.op.render(
                    self.w_text((i, p.split), int(p.left[k]), cl),
                    self.w_text((p.split, j), int(p.right[k]), cr),
                )
                options.append(natural if fits else f"({natural})")
        return smallest(options)

    # --- the whole Digits ---

    def pair_text(self, op: Operation, split: int, pair: int) -> str:
        n = len(self.prep.digits)
        right_count = len(self.prep.right(split))
        left, right = divmod(pair, right_count)
        cl, cr = op.contexts()
        return op.render(self.w_text((0, split), left, cl), self.w_text((split, n), right, cr))

    def _wrap_level(self, op: Operation | None, text: str, ctx: int) -> str:
        level = Level.ATOM if op is None else op.level
        return f"({text})" if level < ctx else text

    def _block_texts(self, listed: Listed, x: V.Values, ctx: int, need: int) -> list[str]:
        block = listed.entry(x) if isinstance(listed, LazyBlock) else listed
        entry = int(block.table.index_of(x)[0])
        if entry < 0 or int(block.table.lens[entry, ctx]) != need:
            return []
        if block.op is None:
            return [self.prep.digits]
        if not block.tied[entry]:
            pairs = [int(block.witness[entry])]
        else:
            vals, length, pair = block_derivations(self.prep, block)
            same = V.identical(vals, _repeat(x, len(vals))) & (
                length == int(block.table.lens[entry, 0])
            )
            pairs = [int(p) for p in pair[same]]
        return [
            self._wrap_level(block.op, self.pair_text(block.op, block.split, p), ctx) for p in pairs
        ]

    def _inverted_texts(
        self, inv: Inverted, xs: V.Values, needs: list[tuple[int, int]]
    ) -> list[list[str]]:
        """For each x (one query for all of them): texts of its derivations by `inv`."""
        longest = max(need for _, need in needs)  # a longer pair's text is never needed
        pair = inverted_pairs(self.prep, inv, xs.f, xs.f, max_length=longest)
        vals, length, kept = pair_values(self.prep, inv.op, inv.split, pair)
        out: list[list[str]] = []
        for k, (ctx, need) in enumerate(needs):
            total = length + 2 * (inv.op.level < ctx)
            same = V.identical(vals, _repeat(xs.take(np.array([k])), len(vals))) & (total == need)
            out.append(
                [
                    self._wrap_level(inv.op, self.pair_text(inv.op, inv.split, int(p)), ctx)
                    for p in pair[kept[same]]
                ]
            )
        return out

    def result_text(self, forms: list[Form], xs: V.Values, lengths: list[int]) -> str:
        """The smallest text over the given (form, x, total length) derivations of one Result."""
        return self.result_choice(forms, xs, lengths)[0]

    def result_choice(self, forms: list[Form], xs: V.Values, lengths: list[int]) -> tuple[str, int]:
        """The smallest text, and which of the derivations it writes (its value is the
        Result's: JavaScript's -0 and 0 are one Result, written differently)."""
        unique: dict[tuple[Form, bool, int, int], int] = {}
        keys = xs.keys()
        for k, form in enumerate(forms):
            unique.setdefault((form, bool(xs.isint[k]), int(keys[k]), lengths[k]), k)
        picked = list(unique.values())
        forms = [forms[k] for k in picked]
        xs = xs.take(np.array(picked, np.int64))
        needs = [
            (form_context(form), lengths[k] - form_length(form))
            for form, k in zip(forms, picked, strict=True)
        ]
        found: list[list[str]] = [[] for _ in picked]
        for k, (ctx, need) in enumerate(needs):
            x = xs.take(np.array([k]))
            for block in self.prep.blocks:
                found[k] += self._block_texts(block, x, ctx, need)
        for inv in self.prep.inverted:
            for k, texts in enumerate(self._inverted_texts(inv, xs, needs)):
                found[k] += texts
        options = [
            (text if form is None else form.render(text), member)
            for form, texts, member in zip(forms, found, picked, strict=True)
            for text in texts
        ]
        text = smallest([t for t, _ in options])
        return text, next(member for t, member in options if t == text)


def _repeat(v: V.Values, n: int) -> V.Values:
    return v.take(np.zeros(n, np.int64))
