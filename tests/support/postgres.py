"""A real, throwaway PostgreSQL for the suites that need one (storage, games, shards).

The cluster is started once per session from Debian's binaries (initdb + pg_ctl in a
temp dir, on a free loopback port, as the `postgres` user when the tests run as root);
`fresh_database` gives each test its own empty database on it. Without the binaries a
test is skipped, unless REQUIRE_POSTGRES=1 (CI). FD_TEST_POSTGRES_URL points the tests
at an existing server instead. The session fixture lives in tests/conftest.py's
namespace, so every suite shares one cluster.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import asyncpg  # type: ignore[import-untyped]
import pytest
from sqlalchemy.engine import make_url


def _pg_bin() -> Path | None:
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(candidates[-1]).parent if candidates else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _unavailable(reason: str) -> None:
    if os.environ.get("REQUIRE_POSTGRES") == "1":
        pytest.fail(f"PostgreSQL is required (REQUIRE_POSTGRES=1): {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """A server URL (no database) for a cluster that lives as long as the session."""
    external = os.environ.get("FD_TEST_POSTGRES_URL")
    if external:
        yield external
        return
    bindir = _pg_bin()
    if bindir is None:
        _unavailable("PostgreSQL binaries (initdb, pg_ctl) not found")
    assert bindir is not None
    as_user: list[str] = []
    root = Path(tempfile.mkdtemp(prefix="fd-pg-"))
    if os.geteuid() == 0:
        as_user = ["runuser", "-u", "postgres", "--"]
        shutil.chown(root, "postgres")
    data, log, port = root / "data", root / "server.log", _free_port()
    try:
        subprocess.run(
            [
                *as_user,
                *(str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres"),
                *("-E", "UTF8", "--locale=C", "--no-sync"),
            ],
            check=True,
            capture_output=True,
        )
        options = (
            f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off"
            " -c synchronous_commit=off -c full_page_writes=off"
        )
        subprocess.run(
            [
                *as_user,
                *(str(bindir / "pg_ctl"), "-D", str(data), "-l", str(log), "-o", options),
                *("-w", "-t", "60", "start"),
            ],
            check=True,
            capture_output=True,
        )
    except subprocess.CalledProcessError as exc:
        detail = (exc.stderr or b"").decode(errors="replace")
        if log.exists():
            detail += log.read_text(errors="replace")
        shutil.rmtree(root, ignore_errors=True)
        _unavailable(f"could not start PostgreSQL: {detail.strip()[-2000:]}")
    try:
        yield f"postgresql+asyncpg://postgres@127.0.0.1:{port}"
    finally:
        subprocess.run(
            [*as_user, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "stop"],
            check=False,
            capture_output=True,
        )
        shutil.rmtree(root, ignore_errors=True)


def _asyncpg_dsn(url: str, database: str) -> str:
    parsed = make_url(url).set(drivername="postgresql", database=database)
    return parsed.render_as_string(hide_password=False)


@contextlib.asynccontextmanager
async def fresh_database(server: str) -> AsyncIterator[str]:
    """The SQLAlchemy URL of a new, empty database on `server`, dropped afterwards."""
    name = f"fd_test_{uuid.uuid4().hex[:12]}"
    admin = await asyncpg.connect(_asyncpg_dsn(server, "postgres"))
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    try:
        yield make_url(server).set(database=name).render_as_string(hide_password=False)
    finally:
        admin = await asyncpg.connect(_asyncpg_dsn(server, "postgres"))
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()


@pytest.fixture
async def postgres_url(postgres_server: str) -> AsyncIterator[str]:
    """A fresh, empty PostgreSQL database for one test."""
    async with fresh_database(postgres_server) as url:
        yield url
