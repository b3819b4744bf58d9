"""A deploy is not a crash (issue 28): SIGTERM (what `docker stop` sends PID 1) and
SIGINT shut a real process run as `formula-darts run` runs the bot down cleanly, exit
0, and what a clean shutdown writes is written: the note that round 2 is up, which only
the next answer's save or the shutdown's carries (without it a restart posts the round
again, two live Answer buttons). Each signal goes to a real process
(tests/support/stopping_bot.py: the game service, the store, the PHP pool)."""

from __future__ import annotations

import asyncio
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from bot.storage import open_store
from tests.support.paths import ROOT

STOP_GRACE_S = 30.0
"""docker-compose.yml's stop_grace_period for the bots: the process must be gone by then
(here a bound on the wait, on a loaded machine, not a measure of speed)."""


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_shuts_the_bot_down_cleanly(tmp_path: Path, signum: signal.Signals) -> None:
    database = tmp_path / "stop.sqlite3"
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.support.stopping_bot", str(database)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        line = process.stdout.readline()  # the bot is up, round 2 posted as a followup
        assert line.strip() == "ready", process.stderr.read() if process.stderr else ""
        process.send_signal(signum)
        _, errors = process.communicate(timeout=STOP_GRACE_S * 4)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, errors[-3000:]
    assert "shutting down cleanly" in errors

    async def round_two_up() -> bool:
        async with await open_store(f"sqlite+aiosqlite:///{database}") as store:
            games = await store.games.active_games()
            assert len(games) == 1 and len(games[0].state.rounds) == 2
            return games[0].state.rounds[1].shown_at is not None

    assert asyncio.run(round_two_up())  # the note that round 2 is up was written


def test_sigterm_stops_the_bots_pages_child_too(tmp_path: Path) -> None:
    """With WEB_PORT the bot's pages are its child process: SIGTERM to the bot stops it
    (no orphan keeps the port), and the bot still exits 0."""
    database = tmp_path / "stop.sqlite3"
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = int(probe.getsockname()[1])
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.support.stopping_bot", str(database), str(port)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        lines = [process.stdout.readline().split(), process.stdout.readline().split()]
        assert [line[:1] for line in lines] == [["pages"], ["ready"]], lines
        child = int(lines[0][1])
        assert Path(f"/proc/{child}").exists()
        process.send_signal(signal.SIGTERM)
        _, errors = process.communicate(timeout=STOP_GRACE_S * 4)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 0, errors[-3000:]
    assert not Path(f"/proc/{child}").exists()  # reaped by the bot: gone, not a zombie
    with socket.socket() as again:
        again.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # past closed connections
        again.bind(("127.0.0.1", port))  # nobody listens on the port
