"""The suite's known-long modules run first, so a parallel run does not end waiting on one.

pytest-xdist's `--dist worksteal` hands each worker a contiguous share of the collection
and lets an idle worker steal the tail of a busy one's queue. A long test collected late
starts late: the other worker runs out of work and waits for it (the end of a run is its
longest test's). Collected first, the long modules start at once on the first worker while
the other one takes the rest, and what is left at the end is short tests to steal.

Whole modules move, each in its own order: a module-scoped fixture (the JavaScript
pruning tables, a node pool) is still built once. Every worker sorts the same collection
the same way, as xdist requires. The list is ranked by a full run's `--durations`
(docs/BENCHMARKS.md, suite4); a module missing from it only runs later, never not at all.
"""

from __future__ import annotations

import pytest

LONG_FIRST: tuple[str, ...] = (
    "tests/bot/test_chaos.py",
    "tests/solver/test_solver_js_pruning.py",
    "tests/solver/test_solver_js_small_scores.py",
    "tests/solver/test_solver_optimality.py",
    "tests/evaluator/js/test_js_containment.py",
    "tests/evaluator/test_differential.py",
    "tests/evaluator/js/test_js_differential.py",
)
"""Module paths, longest first (the chaos run, the solver's exhaustive checks, the
sandboxes' Docker and differential runs)."""


def long_first(items: list[pytest.Item]) -> None:
    """Reorder `items` in place: the LONG_FIRST modules first, by rank; the rest as
    collected. A stable sort, so each module keeps its own order."""
    rank = {path: index for index, path in enumerate(LONG_FIRST)}
    last = len(LONG_FIRST)

    def key(item: pytest.Item) -> int:
        return rank.get(item.nodeid.split("::", 1)[0], last)

    items.sort(key=key)
