"""A bench's driver run on one tree's code: a process of its own, one JSON object back.

The driver (`_pool_one.py`, `_pool_python.py`, `_pool_load.py`) puts the tree first on its
path and checks the evaluator it measured was that tree's; it runs in a baseline's tree
too, which has no helper of this one's, so that check stays in each driver.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any


def run_driver(driver: Path, code: Path, *args: str) -> dict[str, Any]:
    """`driver --code code args…` in a process of its own; the JSON object it printed."""
    out = subprocess.run(
        [sys.executable, str(driver), "--code", str(code), *args],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    if out.returncode != 0:
        raise SystemExit(f"measuring {code} failed:\n{out.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(out.stdout)
    return result
