"""Entry points: the best formulas for a Score, weaker ones for an aim, the closest to the Goal."""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass
from enum import Enum

import numpy as np

from rules.digits import valid_digits
from rules.scoring import apply_points
from rules.sets import GameSet
from solver import values as V
from solver.candidates import Found, collect_pruned, distinct_count, seed_bound
from solver.formula import Writer, canonical
from solver.grammar import MINUS_COST, Grammar
from solver.objective import Distance, NewScore, Objective
from solver.php import Number
from solver.prepared import Prepared
from solver.result import Candidate, Solution
from solver.search import invertible_forms, list_wide, prepare
from solver.semantics import Semantics, semantics
from solver.textforms import (
    min_text_form_length,
    short_text_found,
    text_form_cost,
    text_found,
    text_reaches,
    text_table,
    top_level_costs,
)
from solver.toplevel import list_blocks, worth_listing

_MAX_INTS_CHECKED = 200_000


class _Entry:
    """A prepared Digits for one grammar, with the text writer its queries share."""

    def __init__(self, prep: Prepared) -> None:
        self.prep = prep
        self.writer = Writer(prep)
        self.prepared = False  # `Solver.prepare` ran (not only a cold solve)


def _grammar(game_set: GameSet) -> Grammar:
    return Grammar.for_functions(game_set.functions, game_set.language)


@dataclass(frozen=True, slots=True)
class _Ranked:
    r: V.Values
    score: float
    length: int
    members: np.ndarray  # indices into the Found


def _rank(sem: Semantics, found: Found, top: int) -> list[_Ranked]:
    """The best distinct Results by (score, shortest length): the first `top` and every
    Result tied with the last of them (the text decides among those)."""
    ok = np.flatnonzero(np.isfinite(found.score))
    if len(ok) == 0:
        return []
    codes = sem.result_codes(found.r.take(ok))
    count = int(codes.max()) + 1
    length = np.full(count, np.iinfo(np.int64).max)
    np.minimum.at(length, codes, found.length[ok])
    first = np.zeros(count, np.int64)
    first[codes[::-1]] = ok[::-1]  # any member: a Result has one score
    score = found.score[first]
    order = np.lexsort((length, score))
    cut = order[min(top, count) - 1]
    chosen = order[
        (score[order] < score[cut])
        | ((score[order] == score[cut]) & (length[order] <= length[cut]))
    ]
    return [
        _Ranked(
            found.r.take(np.array([first[g]])),
            float(score[g]),
            int(length[g]),
            ok[codes == g],
        )
        for g in chosen
    ]


class Solver:
    """Solves in the calling thread; keeps the last `cache_size` prepared Digits."""

    def __init__(self, cache_size: int = 8) -> None:
        if cache_size < 1:
            raise ValueError("the cache holds at least one Digits")
        self.cache_size = cache_size
        self._cache: OrderedDict[tuple[str, Grammar], _Entry] = OrderedDict()

    def prepare(self, digits: str, game_set: GameSet) -> None:
        """Everything a query on these Digits reads, so each Score after costs a query only.

        The whole top level listed (it serves every query) when it is small enough to
        keep (`toplevel.worth_listing`: every PHP Set's is; JavaScript's twelve functions
        make some 10^7 derivations, past the process's memory), and what
        hexdec/octdec/bindec read in it (a Set that has them): it costs a few cold solves.
        A cold solve lists both only when its answer needs the text forms; unlisted,
        queries invert `+ - * /` as a cold solve does and read the rest from one list
        (the Digits stay cached, prepared first)."""
        entry = self._prepared(digits, _grammar(game_set))
        if entry.prepared:
            return
        if worth_listing(entry.prep):
            text_table(entry.prep)  # reads the top level, which it lists first
        else:  # `**` and Math.hypot listed, every block in one list (search.list_wide)
            list_wide(entry.prep)
            list_blocks(entry.prep)
        entry.prepared = True

    def is_prepared(self, digits: str, game_set: GameSet) -> bool:
        """Whether `prepare` ran for these Digits and they are still cached."""
        entry = self._cache.get((digits, _grammar(game_set)))
        return entry is not None and entry.prepared

    def _prepared(self, digits: str, grammar: Grammar) -> _Entry:
        if not valid_digits(digits):
            raise ValueError(f"Digits are four digits from 1000 to 9999, got {digits!r}")
        key = (digits, grammar)
        entry = self._cache.get(key)
        if entry is None:
            entry = _Entry(prepare(digits, grammar))
            self._cache[key] = entry
            while len(self._cache) > self.cache_size and self._evict(key):
                pass
        else:
            self._cache.move_to_end(key)
        return entry

    def evict(self, keep: tuple[str, GameSet] | None = None) -> bool:
        """Drop one cached Digits other than `keep`; False when there is none.

        The least recently used of those only a cold solve built goes first, then of the
        prepared ones: a day's Digits prepared for its reveals outlast the cold solves
        asked in between (with plain LRU a replay round by round evicted the next round)."""
        return self._evict(None if keep is None else (keep[0], _grammar(keep[1])))

    def _evict(self, keep: tuple[str, Grammar] | None) -> bool:
        others = [(entry.prepared, key) for key, entry in self._cache.items() if key != keep]
        if not others:
            return False
        victim = next((key for prepared, key in others if not prepared), others[0][1])
        del self._cache[victim]
        return True

    def clear(self) -> None:
        self._cache.clear()

    def solve(
        self, digits: str, score: Number, game_set: GameSet, *, top: int = 1, aim: int = 0
    ) -> Solution:
        """The `top` best distinct Results for a Score (or for new Scores near `aim`)."""
        if top < 1:
            raise ValueError("top is at least 1")
        if (
            isinstance(score, bool)
            or not isinstance(score, int | float)
            or not math.isfinite(score)
            or score < 0
        ):
            raise ValueError(f"a Score is a finite number, 0 or more, got {score!r}")
        if aim < 0:
            raise ValueError("the aim is a new Score, 0 or more")
        entry = self._prepared(digits, _grammar(game_set))
        objective = NewScore(score, game_set.goal, game_set.bonus, aim)
        ranked = _search(entry, objective, top)
        candidates = tuple(self._candidate(entry, r, score, game_set) for r in ranked)
        return Solution(digits, score, game_set.name, aim, candidates)

    def closest(self, digits: str, game_set: GameSet) -> Candidate:
        """The formula whose Result is nearest the Goal (the daily post's)."""
        entry = self._prepared(digits, _grammar(game_set))
        (r,) = _search(entry, Distance(game_set.goal), 1)
        return self._candidate(entry, r, game_set.start_score, game_set)

    def _candidate(self, entry: _Entry, r: _Texted, score: Number, game_set: GameSet) -> Candidate:
        value = r.value
        points, new_score = apply_points(
            score, value, game_set.goal, game_set.bonus, numbers=game_set.language_rules
        )
        return Candidate(r.text, value, points, new_score, len(canonical(r.text)))


@dataclass(frozen=True, slots=True)
class _Texted:
    ranked: _Ranked
    text: str
    value: Number  # the text's own (the Result's; of -0 and 0, the one written)


def _search(entry: _Entry, objective: Objective, top: int) -> list[_Texted]:
    prep = entry.prep
    forms = invertible_forms(prep.grammar)
    bound = objective.least()  # 0, or the Score itself below the spacing of points
    found = collect_pruned(prep, objective, bound, forms, top)
    if distinct_count(prep, found) < top:  # not enough exact hits: bound by their neighbours
        bound = seed_bound(prep, objective, forms, top)
        found = collect_pruned(prep, objective, bound, forms, top)
    sem = semantics(prep.grammar)
    need = _text_forms_needed(prep, objective, found, top)
    if need is _Need.ALL or (need is _Need.SHORT and prep.text_table is not None):
        found = Found.concat([found, text_found(prep, objective, bound)])
    elif need is _Need.SHORT:
        found = _add_short_text_forms(prep, objective, found, top, bound)
    texted = []
    for g in _rank(sem, found, top):
        members = g.members[found.length[g.members] == g.length].tolist()
        text, chosen = entry.writer.result_choice(
            [found.form[m] for m in members],
            found.x.take(np.array(members)),
            [g.length] * len(members),
        )
        texted.append(_Texted(g, text, found.r.scalar(members[chosen])))
    texted.sort(key=lambda t: (t.ranked.score, t.ranked.length, canonical(t.text)))
    return texted[:top]


class _Need(Enum):
    NONE = "none"
    SHORT = "short"
    ALL = "all"


def _cap(prep: Prepared, found: Found, top: int, score_before: Number) -> int:
    """The longest text form that could still change the answer: as long as its longest
    int entry (a text form gives ints), or as its last entry if an int can tie it."""
    head = _rank(semantics(prep.grammar), found, top)[:top]
    cap = max((g.length for g in head if g.r.isint[0]), default=0)
    last = head[-1]
    if not (float(score_before).is_integer() and not float(last.score).is_integer()):
        cap = max(cap, last.length)
    return cap


def _add_short_text_forms(
    prep: Prepared, objective: Objective, found: Found, top: int, bound: float
) -> Found:
    """Text forms can only make answers cheaper here: look at ever costlier x while they
    can, from one cost an x can have to the next (`top_level_costs`): in bands of 3
    characters among x without calls or minuses, then the rest of each tier of x with the
    same calls and minuses at once (a band's reading has a fixed cost of some 20 ms: bands
    of 3 over every tier took 15 of them a query)."""
    form = text_form_cost(prep)
    costs = top_level_costs(prep)
    done = 0  # x costs up to `done` are in; bands are fixed so their reads are cached
    upto = len(prep.digits) + 2
    before = objective.score_before if isinstance(objective, NewScore) else 0
    while done + 1 + form <= _cap(prep, found, top, before):
        found = Found.concat([found, short_text_found(prep, objective, bound, done + 1, upto)])
        after = int(np.searchsorted(costs, upto, "right"))
        if after == len(costs):
            break
        cost = int(costs[after])
        done = max(upto, cost - 1)
        tier_end = (cost // MINUS_COST + 1) * MINUS_COST - 1
        upto = max(upto + 3, cost + 2) if cost < MINUS_COST else tier_end
    return found


def _text_forms_needed(prep: Prepared, objective: Objective, found: Found, top: int) -> _Need:
    """Whether hexdec/octdec/bindec around the whole formula could change the answer.

    They give ints only (in any range that matters) and are at least
    `min_text_form_length` long. So they matter if some entry of the answer is
    at least that long, or if an int scoring better than the answer's last
    entry was not found (it could come from them).
    """
    shortest = min_text_form_length(prep)
    if shortest >= 1 << 30:
        return _Need.NONE
    ranked = _rank(semantics(prep.grammar), found, top)
    if len(ranked) < top:
        return _Need.ALL
    head = ranked[:top]
    last = head[-1].score
    if not text_reaches(objective, last):  # a huge Score: no text form comes near it
        return _Need.NONE
    if not _int_reaches(objective, last):  # near a tiny Score no whole number scores as well
        return _Need.NONE
    if _better_int_missing(objective, found, last):
        return _Need.ALL
    return _Need.SHORT if max(g.length for g in head) >= shortest else _Need.NONE


def _int_reaches(objective: Objective, bound: float) -> bool:
    """Whether some whole number could score at most `bound` (a text form gives only
    those): some interval of the objective's sublevel holds one. At Score 0.001 the best
    answer leaves ~1e-15 and no whole number comes within it, while the text forms' bands
    would read every x as readable as the answer (every x with one call fewer)."""
    lo, hi = objective.sublevel(bound)
    return bool(np.any(np.ceil(lo) <= np.floor(hi)))


def _better_int_missing(objective: Objective, found: Found, last: float) -> bool:
    """Whether some int scoring below `last` is not among the found Results."""
    lo, hi = objective.sublevel(last)
    lo, hi = np.ceil(lo), np.floor(hi)
    span = np.maximum(hi - lo + 1, 0)
    if not np.all(np.isfinite(span)) or span.sum() > _MAX_INTS_CHECKED:
        return True
    ints = np.unique(
        np.concatenate(
            [np.arange(a, b + 1) for a, b in zip(lo, hi, strict=True) if a <= b] or [np.zeros(0)]
        )
    )
    if len(ints) == 0:
        return False
    if np.abs(ints).max() >= 2**62:
        return True
    candidates = V.of_ints(ints.astype(np.int64))
    better = ints[objective.score(candidates) < last].astype(np.int64)
    if len(better) == 0:
        return False
    found_ints = np.unique(found.r.i[found.r.isint & np.isfinite(found.score)])
    return not np.all(np.isin(better, found_ints))
