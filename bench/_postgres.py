"""A throwaway PostgreSQL for the benchmarks that measure on one.

A private cluster in a temporary directory, on a free loopback port, started from the
distribution's binaries (as `postgres` when root, which initdb requires) and removed
after: a run never touches a database of the machine's, and its numbers are not those
of a cluster that other work shares.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def throwaway_postgres() -> Iterator[str]:
    """Start a private PostgreSQL cluster (as `postgres` when root) and yield its URL."""
    bindir = next(iter(sorted(Path("/usr/lib/postgresql").glob("*/bin"))), None)
    if shutil.which("initdb"):
        bindir = Path(str(shutil.which("initdb"))).parent
    if bindir is None:
        raise RuntimeError("PostgreSQL binaries not found (apt-get install postgresql)")
    root = Path(tempfile.mkdtemp(prefix="fd-bench-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:
        as_user = ["runuser", "-u", "postgres", "--"]
        shutil.chown(root, "postgres")
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    data = root / "data"
    subprocess.run(
        [
            *as_user,
            str(bindir / "initdb"),
            "-D",
            str(data),
            "-A",
            "trust",
            "-U",
            "postgres",
            "--no-sync",
        ],
        check=True,
        capture_output=True,
    )
    options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c shared_buffers=512MB"
    subprocess.run(
        [
            *as_user,
            str(bindir / "pg_ctl"),
            "-D",
            str(data),
            "-l",
            str(root / "log"),
            "-o",
            options,
            "-w",
            "start",
        ],
        check=True,
        capture_output=True,
    )
    try:
        yield f"postgresql+asyncpg://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            [*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-m", "fast", "stop"],
            check=False,
            capture_output=True,
        )
        shutil.rmtree(root, ignore_errors=True)
