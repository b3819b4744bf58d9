"""Where the web flood bench's CPU goes (`bench/bench_web_flood.py --cpu`): each process
under the bench, by role, with the CPU it used in a phase and the time its threads waited
on a run queue for a core (`/proc/<pid>/task/<tid>/schedstat`), so a slower reveal can
be put on the process that took the cores rather than guessed at.

A role is read from the process's command line: the bench itself (the bot's loop, its
PHP lanes and its reveals' confirmation), the solver, the PHP workers (bubblewrap and
php), the pages' child and its chart worker, and the bench's clients (honest reader,
flood, slow-loris). Processes that start and end inside a phase (a replaced PHP worker)
count what they used while they were seen; the table says it is a sample.
"""

from __future__ import annotations

import os
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")
ROLES = (
    "bench (bot's loop)",
    "solver",
    "PHP workers",
    "pages child",
    "chart worker",
    "flood clients",
    "slow-loris",
    "honest reader",
    "other",
)


@dataclass(frozen=True)
class Use:
    """One process's CPU seconds so far and its threads' run-queue wait (seconds)."""

    cpu_s: float
    wait_s: float


def _role(pid: int, root: int) -> str:
    if pid == root:
        return ROLES[0]
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return "other"
    line = b" ".join(argv).decode(errors="replace")
    for needle, role in (
        ("--role flood", "flood clients"),
        ("--role loris", "slow-loris"),
        ("--role honest", "honest reader"),
        ("bot.cli web", "pages child"),
        ("formula-darts web", "pages child"),
        ("php", "PHP workers"),
        ("bwrap", "PHP workers"),
    ):
        if needle in line:
            return role
    return _by_parent(pid, root)


def _by_parent(pid: int, root: int) -> str:
    """A Python child with no telling command line: the solver (the bench's child) or the
    chart worker (the pages child's child)."""
    parent = _ppid(pid)
    if parent == root:
        return "solver"
    if parent is not None and _role(parent, root) == "pages child":
        return "chart worker"
    return "other"


def _ppid(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat.rsplit(")", 1)[1].split()[1])


def _use(pid: int) -> Use | None:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        wait_ns = 0
        for task in Path(f"/proc/{pid}/task").iterdir():
            wait_ns += int((task / "schedstat").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return None
    return Use((int(fields[11]) + int(fields[12])) / TICK, wait_ns / 1e9)


def _descendants(root: int) -> list[int]:
    children: dict[int, list[int]] = defaultdict(list)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            parent = _ppid(int(entry.name))
            if parent is not None:
                children[parent].append(int(entry.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, ()))
    return found


Snapshot = dict[int, tuple[str, Use]]


def snapshot(root: int | None = None) -> Snapshot:
    """Every process under `root` (this one): its role and its use so far."""
    root = os.getpid() if root is None else root
    out: Snapshot = {}
    for pid in _descendants(root):
        use = _use(pid)
        if use is not None:
            out[pid] = (_role(pid, root), use)
    return out


def by_role(before: Snapshot, after: Snapshot) -> dict[str, Use]:
    """Per role, the CPU and the run-queue wait between two snapshots (a process first
    seen in `after` counts from its start)."""
    total: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for pid, (role, use) in after.items():
        then = before.get(pid, (role, Use(0.0, 0.0)))[1]
        total[role][0] += use.cpu_s - then.cpu_s
        total[role][1] += use.wait_s - then.wait_s
    return {role: Use(*total[role]) for role in ROLES if role in total}


class Meter:
    """A phase's use by role: a snapshot at its start, then every `sample` keeps each
    process's latest use, so a client that ends before the phase does still counts."""

    def __init__(self) -> None:
        self.before = snapshot()
        self.last: Snapshot = dict(self.before)

    def sample(self) -> None:
        """Each process's latest use under the role it was first seen with: a client
        that has exited but is not yet reaped has no command line any more (it would
        read as the solver)."""
        for pid, (role, use) in snapshot().items():
            self.last[pid] = (self.last.get(pid, (role, use))[0], use)

    def result(self) -> dict[str, Use]:
        self.sample()
        return by_role(self.before, self.last)


def cells(uses: dict[str, Use]) -> str:
    """`role cpu/wait` cells for the report, in seconds."""
    return "; ".join(f"{role} {u.cpu_s:.1f}/{u.wait_s:.1f}" for role, u in uses.items())
