"""Candidates: every Result of the whole Digits scoring at most a bound, and that bound.

The sublevel set of the objective, mapped through each wrap form around the
whole formula, is a set of intervals of top-level values; `search.x_hits`
reads them, each form scores the hits inside its own intervals.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from solver import values as V
from solver.hits import Hits
from solver.objective import Intervals, Objective
from solver.prepared import Prepared
from solver.search import (
    ROUNDING,
    Form,
    apply_form,
    form_context,
    form_length,
    form_preimage,
    x_hits,
)
from solver.semantics import Semantics, semantics
from solver.tables import Index, literal_value


@dataclass
class Found:
    """Candidate Results: value, score, shortest length, and the form and x behind each."""

    r: V.Values
    score: V.Floats
    length: Index
    form: list[Form]
    x: V.Values

    @staticmethod
    def concat(parts: list[Found]) -> Found:
        return Found(
            V.concat([p.r for p in parts]),
            np.concatenate([p.score for p in parts]) if parts else np.zeros(0),
            np.concatenate([p.length for p in parts]) if parts else np.zeros(0, np.int64),
            [f for p in parts for f in p.form],
            V.concat([p.x for p in parts]),
        )


def union(lo: V.Floats, hi: V.Floats) -> Intervals:
    """The same set as sorted, disjoint intervals (so no pair is found twice)."""
    if len(lo) == 0:
        return lo, hi
    order = np.argsort(lo, kind="stable")
    lo, hi = lo[order], hi[order]
    reach = np.maximum.accumulate(hi)
    starts = np.ones(len(lo), np.bool_)
    starts[1:] = lo[1:] > reach[:-1]
    first = np.flatnonzero(starts)
    last = np.append(first[1:], len(lo)) - 1
    return lo[first], reach[last]


def inside(x: V.Floats, intervals: Intervals) -> V.Bools:
    lo, hi = intervals
    if len(lo) == 0:
        return np.zeros(len(x), np.bool_)
    k = np.searchsorted(lo, x, "right") - 1
    ok: V.Bools = (k >= 0) & (x <= hi[np.maximum(k, 0)])
    return ok


def _preimages(
    prep: Prepared,
    forms: list[Form],
    lo: V.Floats,
    hi: V.Floats,
    scoring: tuple[Objective, float, frozenset[Form]] | None = None,
) -> list[Intervals]:
    """Each form's intervals of x; with `scoring` (objective, bound, forms that can only
    beat it), a rounding form's only where a whole Result scores at most the bound
    (below it for those forms: `_whole_results`)."""
    lit = literal_value(prep.digits, prep.grammar)
    literal = float(lit.f[0]) if lit is not None else math.nan
    out = []
    for form in forms:
        rlo, rhi = lo, hi
        if scoring is not None and form is not None and form.func in ROUNDING:
            objective, bound, beat_only = scoring
            strict = form in beat_only
            rlo, rhi = _whole_results(lo, hi, objective, bound, strict)
        out.append(union(*form_preimage(form, rlo, rhi, literal)))
    return out


_WHOLE_LISTED = 256
"""Up to this many whole Results in the intervals are scored one by one."""


def _whole_results(
    lo: V.Floats, hi: V.Floats, objective: Objective, bound: float, strict: bool
) -> Intervals:
    """The whole numbers of the intervals that score at most `bound` (`strict`: below it),
    as [n, n] (the
    intervals as they are when there are too many to list). The intervals are a little
    wide for rounding: near a Score of 1e-14 they hold 0, which scores the Score itself,
    and every x of [0, 1) around it (Math.floor) was read for nothing."""
    n_lo, n_hi = np.ceil(lo), np.floor(hi)
    with np.errstate(invalid="ignore", over="ignore"):
        count = np.where(n_lo <= n_hi, n_hi - n_lo + 1, 0)
    if not np.all(np.isfinite(count)) or count.sum() > _WHOLE_LISTED:
        return lo, hi
    whole = np.unique(
        np.concatenate([np.arange(a, b + 1) for a, b in zip(n_lo, n_hi, strict=True) if a <= b])
        if count.sum()
        else np.zeros(0)
    )
    score = objective.score(V.of_floats(whole.astype(np.float64)))
    keep = whole[score < bound if strict else score <= bound]
    return keep, keep.copy()


def _all(parts: list[Intervals]) -> Intervals:
    return union(np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]))


def _apply_forms(
    sem: Semantics,
    forms: list[Form],
    own: list[Intervals] | None,
    hits: Hits,
    objective: Objective,
    bound: float,
) -> Found:
    """Each form on the hits inside its own preimage (all hits when `own` is None)."""
    parts = []
    for n, form in enumerate(forms):
        if own is not None:
            mine = np.flatnonzero(inside(hits.x.f, own[n]))
            hits_form = Hits(hits.x.take(mine), hits.length_any[mine], hits.length_atom[mine])
        else:
            hits_form = hits
        parts.append(_form_found(sem, form, hits_form, objective, bound))
    return Found.concat(parts)


def _form_found(
    sem: Semantics, form: Form, hits: Hits, objective: Objective, bound: float
) -> Found:
    r = apply_form(form, hits.x, sem)
    score = objective.score(r)
    keep = np.flatnonzero(score <= bound)
    length = hits.length(form_context(form))[keep] + form_length(form)
    if len(keep) > _MANY:
        shortest = _shortest_of_each(sem, r.take(keep), length)
        keep, length = keep[shortest], length[shortest]
    return Found(r.take(keep), score[keep], length, [form] * len(keep), hits.x.take(keep))


_MANY = 50_000
"""More candidates than this from one form are cut to the shortest of each Result."""


def _shortest_of_each(sem: Semantics, r: V.Values, length: Index) -> Index:
    """Where each entry is as short as the shortest of its Result: only those can be
    ranked or written (solve._rank). Near 0 a rounding form gives one Result for every x
    of [0, 1) (a million entries, each form, kept until the ranking)."""
    codes = sem.result_codes(r)
    shortest = np.full(int(codes.max(initial=0)) + 1, np.iinfo(np.int64).max)
    np.minimum.at(shortest, codes, length)
    return np.flatnonzero(length == shortest[codes])


def collect(
    prep: Prepared,
    objective: Objective,
    bound: float,
    forms: list[Form],
    *,
    listed: bool = True,
    inverted: bool = True,
    max_length: int | None = None,
    beat_only: frozenset[Form] = frozenset(),
) -> Found:
    """Every candidate of the given forms scoring at most `bound` (nothing missed; of the
    listed blocks, the inverted operations or both, as `search.x_hits`), but of the forms
    in `beat_only` (too long to tie) what scores below it is enough."""
    lo, hi = objective.sublevel(bound)
    own = _preimages(prep, forms, lo, hi, (objective, bound, beat_only))
    sem = semantics(prep.grammar)
    hits = x_hits(prep, *_all(own), listed=listed, inverted=inverted, max_length=max_length)
    return _apply_forms(sem, forms, own, hits, objective, bound)


def kth_best(sem: Semantics, found: Found, top: int) -> tuple[float, int] | None:
    """(score, shortest length) of the top-th best distinct Result found (None: fewer)."""
    ok = np.flatnonzero(np.isfinite(found.score))
    if len(ok) < top:
        return None
    codes = sem.result_codes(found.r.take(ok))
    count = int(codes.max()) + 1
    if count < top:
        return None
    score = np.full(count, np.inf)
    np.minimum.at(score, codes, found.score[ok])
    length = np.full(count, np.iinfo(np.int64).max)
    np.minimum.at(length, codes, found.length[ok])
    order = np.lexsort((length, score))
    kth = order[top - 1]
    return float(score[kth]), int(length[kth])


def collect_pruned(
    prep: Prepared, objective: Objective, bound: float, forms: list[Form], top: int
) -> Found:
    """What `collect` finds that can still be among the `top` best: the bare and negated
    formula first (of the listed blocks, then of the inverted operations: when the listed
    ones already hold `top` Results scoring 0, an inverted pair written longer than the
    top-th of them can neither beat nor tie it, and is not evaluated), then the forms with
    a function around the whole formula, scoring at most the top-th best found so far (a
    Result scoring worse ranks after `top` others).

    A function form is at least its own length plus one character per digit (every formula
    uses all the Digits). Scores are never below `objective.least()` (0; a Score below the
    spacing of points leaves itself at best): when the top-th best scores that and is
    shorter than that, the form can give nothing better (nor as good and as short) and is
    not searched. Near a tiny Score the bare formula almost always checks out in a few
    characters, while `Math.floor(x)` reads every x of [1, 2) (a million pairs)."""
    plain = [f for f in forms if form_length(f) <= 1]
    wrapped = [f for f in forms if form_length(f) > 1]
    sem = semantics(prep.grammar)
    least = objective.least()
    found = collect(prep, objective, bound, plain, inverted=False)
    kth = kth_best(sem, found, top)
    cap = kth[1] if kth is not None and kth[0] <= least else None
    found = Found.concat(
        [found, collect(prep, objective, bound, plain, listed=False, max_length=cap)]
    )
    kth = kth_best(sem, found, top)
    beat_only: frozenset[Form] = frozenset()
    if kth is not None:
        score, length = kth
        bound = min(bound, score)
        shortest = len(prep.digits)
        wrapped = [f for f in wrapped if score > least or form_length(f) + shortest <= length]
        beat_only = frozenset(f for f in wrapped if form_length(f) + shortest > length)
    if not wrapped:
        return found
    return Found.concat([found, collect(prep, objective, bound, wrapped, beat_only=beat_only)])


def distinct_count(prep: Prepared, found: Found) -> int:
    """How many distinct Results (JavaScript's -0 and 0 are one)."""
    return len(np.unique(semantics(prep.grammar).result_codes(found.r)))


def seed_bound(prep: Prepared, objective: Objective, forms: list[Form], top: int) -> float:
    """An upper bound on the top-th best score, from the values next to the exact hits: of
    the bare and negated formula when they give `top` Results (any Results bound it), else
    of every form. Every form read the neighbours of every form's preimage: near 0 that
    is every x of [-1, 1] (floor, round, trunc), 23 forms each, 20 million values."""
    plain = [f for f in forms if form_length(f) <= 1]
    bound = _seed_bound(prep, objective, plain, top)
    return bound if math.isfinite(bound) else _seed_bound(prep, objective, forms, top)


def _seed_bound(prep: Prepared, objective: Objective, forms: list[Form], top: int) -> float:
    lo, hi = objective.sublevel(0.0)
    sem = semantics(prep.grammar)
    near = _apply_forms(
        sem,
        forms,
        None,
        x_hits(prep, *_all(_preimages(prep, forms, lo, hi)), pad=1),
        objective,
        math.inf,
    )
    ok = np.isfinite(near.score)
    if not ok.any():
        return math.inf
    score = near.score[ok]
    key = sem.result_codes(near.r)[ok]
    order = np.argsort(score, kind="stable")
    _, first = np.unique(key[order], return_index=True)
    distinct = np.sort(score[order][first])
    return float(distinct[top - 1]) if len(distinct) >= top else math.inf
