"""The cold-solve comparison runs a tree's own `SolverProcess`, checked, so it cannot rot."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.support.paths import ROOT

if str(ROOT) not in sys.path:  # `bench` is a top-level folder, not an installed package
    sys.path.insert(0, str(ROOT))

from bench.bench_solver_cold import cold


def test_a_cold_best_answer_is_timed_in_the_trees_own_process() -> None:
    (seconds,) = cold(ROOT, ["3489"])
    assert seconds > 0


def test_a_tree_without_the_project_fails_loudly(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError):
        cold(tmp_path, ["3489"])
