"""The chaos run's faults from outside the bot (tests/support/chaos.py walks them): failing
database statements, and processes killed as the kernel's OOM killer or an operator would."""

from __future__ import annotations

import contextlib
import os
import random
import signal
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy import event

from bot.storage import Store

REST_FAULTS = (
    ("POST", "/channels/*/messages"),
    ("PATCH", "/channels/*/messages/*"),
    ("POST", "/channels/*/messages/*/threads"),
    ("POST", "/channels/*/threads"),
    ("POST", "/interactions/*/callback"),
    ("PATCH", "/webhooks/*/messages/@original"),
    ("POST", "/webhooks/*"),
    ("PATCH", "/channels/*"),
)


class DatabaseFaults:
    """The next `pending` statements of the store's engine fail, as a dropped connection or a
    lock timeout would (an OperationalError from the driver's side of SQLAlchemy)."""

    def __init__(self, store: Store) -> None:
        self.pending = 0
        self.raised = 0
        self._engine = store.engine.sync_engine
        event.listen(self._engine, "before_cursor_execute", self._before)

    def _before(self, *args: Any) -> None:
        del args
        if self.pending > 0:
            self.pending -= 1
            self.raised += 1
            raise sa.exc.OperationalError(
                "statement", {}, Exception("database is locked (injected by the chaos run)")
            )

    def close(self) -> None:
        self.pending = 0
        event.remove(self._engine, "before_cursor_execute", self._before)


def children(parent: int) -> Iterator[tuple[int, str]]:
    """This machine's processes whose parent is `parent`, with their command lines."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            stat = (entry / "stat").read_text()
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            if ppid == parent:
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
                yield int(entry.name), cmdline


def kill_child(rng: random.Random, matches: Callable[[str], bool]) -> bool:
    """SIGKILL one child process of this test whose command line `matches` (from outside,
    as the kernel's OOM killer or an operator would)."""
    found = sorted(pid for pid, cmdline in children(os.getpid()) if matches(cmdline))
    if not found:
        return False
    with contextlib.suppress(ProcessLookupError):
        os.kill(rng.choice(found), signal.SIGKILL)
    return True


def kill_solver_worker(rng: random.Random) -> None:
    """The solver's worker: a child of the forkserver its pool starts processes from."""
    mine = list(children(os.getpid()))
    servers = [pid for pid, cmdline in mine if "forkserver" in cmdline]
    workers = sorted(pid for server in servers for pid, _ in children(server))
    workers += [pid for pid, cmdline in mine if "solver" in cmdline]
    if workers:
        with contextlib.suppress(ProcessLookupError):
            os.kill(rng.choice(workers), signal.SIGKILL)
