"""Shared by the benchmark scripts: the machine, percentiles and latency cells, and the
sections of docs/BENCHMARKS.md.

Each script owns one section between markers, so benches can run separately
without overwriting each other's numbers.
"""

from __future__ import annotations

import os
import platform
import re
import subprocess
from datetime import UTC, datetime
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "BENCHMARKS.md"
HEADER = "# Benchmarks\n\nEach section is written by the script it names; rerun it to refresh.\n"


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        kb = int(Path("/proc/meminfo").read_text().split()[1])
        mem = f", {kb / 1024 / 1024:.0f} GiB RAM"
    except (OSError, ValueError, IndexError):
        pass
    php = subprocess.run(["php", "-v"], capture_output=True, text=True, check=False).stdout
    php_version = php.split("\n", 1)[0] if php else "php not found"
    load = f", load average {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else ""
    return (
        f"{os.cpu_count()} cores ({cpu}){mem}, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}, {php_version}{load} (the machine is shared)"
    )


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def ms(seconds: float) -> str:
    """Seconds as whole milliseconds, as the latency tables print them."""
    return f"{seconds * 1000:.0f}"


def latency_cells(samples: list[float]) -> str:
    """A latency table's cells of `samples` (seconds): "p50 | p90 | p99 | max" in ms."""
    cells = [percentile(samples, q) for q in (50, 90, 99)] + [max(samples)]
    return " | ".join(ms(c) for c in cells)


def write_section(name: str, body: str) -> None:
    """Replace (or append) the section `name` in docs/BENCHMARKS.md."""
    text = DOC.read_text() if DOC.exists() else HEADER
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    block = (
        f"<!-- bench:{name}:start -->\n{body.rstrip()}\n\n"
        f"_Measured {stamp} on: {machine()}._\n<!-- bench:{name}:end -->"
    )
    pattern = re.compile(
        rf"<!-- bench:{re.escape(name)}:start -->.*?<!-- bench:{re.escape(name)}:end -->", re.S
    )
    text = (
        pattern.sub(lambda _: block, text)
        if pattern.search(text)
        else f"{text.rstrip()}\n\n{block}\n"
    )
    DOC.parent.mkdir(parents=True, exist_ok=True)
    DOC.write_text(text)
