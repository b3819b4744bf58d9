"""The uncached board benchmark on a few hundred games, so the script cannot rot."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tests.support.paths import ROOT

if str(ROOT) not in sys.path:  # `bench` is a top-level folder, not an installed package
    sys.path.insert(0, str(ROOT))

from bench.bench_boards import copy_database, report, run


def test_bench_boards_loads_measures_and_reports(tmp_path: Path) -> None:
    data = tmp_path / "loaded.sqlite3"
    loaded = run(ROOT, ["--url", f"sqlite+aiosqlite:///{data}", "--load", "--games", "300",
                        "--players", "20"])  # fmt: skip
    assert loaded["load_s"] > 0
    url = copy_database(data, tmp_path / "run.sqlite3")
    measured = run(ROOT, ["--url", url, "--repeats", "2"])
    assert len(measured["all"]) == len(measured["week"]) == 2
    assert all(ms > 0 for ms in measured["all"])
    args = argparse.Namespace(
        games=300, players=20, repeats=2, pairs=1, base_label="itself", engine="SQLite"
    )
    text = report(args, {"this tree": [measured], "baseline": [measured]}, "")
    assert "| all | **baseline / this** | **1.00x** |" in text
