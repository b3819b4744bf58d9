"""How often the machine's cores went idle: a one-caller round trip's hidden cost.

On a quiet VM each one-caller round trip can put both vCPUs to sleep (the bot's while
node computes, node's while the bot reads the answer), and waking a halted vCPU goes
through the host. Linux counts each entry into an idle state other than polling in
`/sys/devices/system/cpu/cpuN/cpuidle/stateK/usage`; their sum before and after a run
says how many sleeps a formula cost. A loaded machine shows ~0 (no core is idle).
"""

from __future__ import annotations

from pathlib import Path

CPUS = Path("/sys/devices/system/cpu")


def idle_entries(root: Path = CPUS) -> int | None:
    """Entries into a sleeping idle state (not `POLL`) on every core so far; None where
    the kernel does not say (no cpuidle driver, not Linux). `root`: sysfs's cpu folder."""
    total, seen = 0, False
    for state in root.glob("cpu[0-9]*/cpuidle/state[0-9]*"):
        try:
            if (state / "name").read_text().strip() == "POLL":
                continue
            total += int((state / "usage").read_text())
        except (OSError, ValueError):
            continue
        seen = True
    return total if seen else None


def per_formula(before: int | None, after: int | None, formulas: int) -> str:
    """The idle entries a formula cost between two readings, or why that is unknown."""
    if before is None or after is None or formulas == 0:
        return "unknown (no cpuidle counts here)"
    return f"{(after - before) / formulas:.2f}"
