"""The headless service benchmark on tiny numbers, so the script cannot rot between runs."""

from __future__ import annotations

import argparse
import sys

from tests.support.paths import ROOT

if str(ROOT) not in sys.path:  # `bench` is a top-level folder, not an installed package
    sys.path.insert(0, str(ROOT))

from bench.bench_service import report, run_worker


def test_bench_service_measures_and_reports() -> None:
    tiny = ["--games", "3", "--answers", "6", "--warmup", "2", "--pool", "1"]
    run = run_worker(ROOT, [*tiny, "--rates", "20", "--seconds", "0.3"])
    assert len(run["own"]) == len(run["php"]) == len(run["db"]) == 6
    assert all(own > db > 0 for own, db in zip(run["own"], run["db"], strict=True))
    assert 1 <= run["saves"] <= 3 and run["kib_per_game"] > 0
    assert run["offered"] and run["offered"][0]["lat"]
    args = argparse.Namespace(
        base=ROOT, base_label="itself", pool=1, games=3, answers=6, warmup=2, pairs=1,
        seconds=0.3, limit_ms=50.0,
    )  # fmt: skip
    runs = {"this tree": [run], "baseline": [run]}
    text = report(args, runs, None, {"this tree": run})
    assert "| SQLite | **baseline / this** | **1.00x** |" in text
    assert "| this tree | 20 |" in text and "KiB of Python memory" in text
