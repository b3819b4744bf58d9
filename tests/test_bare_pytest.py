"""`pytest` runs bare from the project root: the venv's console script puts its own
directory first on `sys.path`, not the project root (`python -m pytest` puts the root),
so `tests.support` must be importable through pytest's configuration, not by luck."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.support.paths import ROOT


def test_the_console_script_collects_from_the_project_root() -> None:
    script = Path(sys.executable).parent / "pytest"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}  # nothing borrowed
    this = f"tests/{Path(__file__).name}"
    out = subprocess.run(
        [str(script), "--collect-only", "-q", "-p", "no:cacheprovider", this],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        check=False,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "1 test collected" in out.stdout
