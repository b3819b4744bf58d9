"""The headless service benchmark on tiny numbers, so the script cannot rot between runs."""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

import pytest

from tests.support.paths import ROOT

if str(ROOT) not in sys.path:  # `bench` is a top-level folder, not an installed package
    sys.path.insert(0, str(ROOT))

from bench.bench_service import report, run_worker


def test_bench_service_measures_and_reports() -> None:
    tiny = ["--games", "3", "--answers", "6", "--warmup", "2", "--pool", "1"]
    run = run_worker(ROOT, [*tiny, "--rates", "20", "--seconds", "0.3"])
    assert len(run["own"]) == len(run["php"]) == len(run["db"]) == len(run["cpu"]) == 6
    assert all(own > 0 and db > 0 for own, db in zip(run["own"], run["db"], strict=True))
    # (how they compare is the benchmark's to report: a loaded CI run once measured a
    # database share above the whole, the two timed a moment apart)
    assert all(cpu > 0 for cpu in run["cpu"])
    assert 1 <= run["saves"] <= 3 and run["kib_per_game"] > 0
    assert run["offered"] and run["offered"][0]["lat"]
    args = argparse.Namespace(
        base=ROOT, base_label="itself", pool=1, games=3, answers=6, warmup=2, pairs=1,
        seconds=0.3, limit_ms=50.0, together=False,
    )  # fmt: skip
    runs = {"this tree": [run], "baseline": [run]}
    text = report(args, runs, None, {"this tree": run})
    assert "| SQLite | **baseline / this** | **1.00x** |" in text
    assert "| this tree | 20 |" in text and "KiB of Python memory" in text


def test_bench_service_runs_only_the_given_trees_code(tmp_path: Path) -> None:
    """A tree that lacks a package this tree has cannot be measured: the run fails, rather
    than the editable install quietly filling the gap with this tree's code."""
    tree = tmp_path / "tree"
    for name in ("bot", "rules", "evaluator", "solver"):
        shutil.copytree(ROOT / name, tree / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "sets.yaml", tree / "sets.yaml")
    shutil.rmtree(tree / "bot" / "play")
    tiny = ["--games", "1", "--answers", "1", "--warmup", "0", "--pool", "1"]
    with pytest.raises(RuntimeError, match=r"No module named 'bot\.play'"):
        run_worker(tree, tiny)
