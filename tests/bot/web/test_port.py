"""The pages' port under hostile clients (issue 29): idle and half-sent connections are
closed, connections past the cap are turned away, and however many a client holds, the
file descriptors a PHP worker's replacement needs are left free. Real sockets on
loopback, a real bubblewrap pool; every wait is bounded, nothing asserts a duration."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest
from aiohttp import web

from bot.common.serving import Gate
from bot.storage import Store, open_store
from bot.web import NoNames, create_app, serve
from tests.support.paths import ROOT

BOUND = 30.0
"""Seconds any wait here may take before the test fails instead of hanging."""
Connection = tuple[asyncio.StreamReader, asyncio.StreamWriter]


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    store = await open_store(f"sqlite+aiosqlite:///{tmp_path}/web.sqlite3")
    try:
        yield store
    finally:
        await store.close()


async def until(condition: Callable[[], bool]) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + BOUND
    while not condition():
        assert loop.time() < deadline, "the condition never held"
        await asyncio.sleep(0.02)


def gate_of(runner: web.AppRunner) -> Gate:
    gate = getattr(next(iter(runner.sites)), "gate", None)
    assert isinstance(gate, Gate)
    return gate


async def said_before_closing(connection: Connection) -> bytes:
    return await asyncio.wait_for(connection[0].read(), BOUND)


async def close_all(connections: list[Connection]) -> None:
    for _, writer in connections:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()


async def test_idle_and_half_sent_connections_are_closed(store: Store) -> None:
    """With the defaults: aiohttp's own keeps an idle connection an hour."""
    async with serve(create_app(store, NoNames()), "127.0.0.1", 0) as runner:
        port = runner.addresses[0][1]
        idle = await asyncio.open_connection("127.0.0.1", port)
        half = await asyncio.open_connection("127.0.0.1", port)
        half[1].write(b"GET /rules HTTP/1.1\r\nHost: x\r\n")  # the blank line never comes
        assert await said_before_closing(idle) == b""
        assert await said_before_closing(half) == b""
        await close_all([idle, half])


async def test_past_the_cap_a_connection_gets_503_and_the_port_answers_after(
    store: Store,
) -> None:
    cap, extra = 8, 5
    app = create_app(store, NoNames())
    async with serve(app, "127.0.0.1", 0, max_connections=cap, header_timeout_s=0.5) as runner:
        port = runner.addresses[0][1]
        gate = gate_of(runner)
        held = [await asyncio.open_connection("127.0.0.1", port) for _ in range(cap + extra)]
        await until(lambda: gate.open + gate.refused == cap + extra)
        said = await asyncio.gather(*(said_before_closing(c) for c in held))
        assert sum(s.startswith(b"HTTP/1.1 503") for s in said) == extra
        await until(lambda: gate.open == 0)
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(b"GET /rules HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert (await said_before_closing((reader, writer))).startswith(b"HTTP/1.1 200")
        await close_all([*held, (reader, writer)])


HOLDER = """
import resource, socket, sys
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
port, count = int(sys.argv[1]), int(sys.argv[2])
held = []
for _ in range(count):  # all it can: a port that stops accepting fills the kernel's queue
    try:
        held.append(socket.create_connection(("127.0.0.1", port), timeout=5))
        held[-1].sendall(b"GET /rules HTTP/1.1\\r\\n")
    except OSError:
        break
print("held", flush=True)
sys.stdin.read()
"""

SERVER = """
import asyncio, resource, sys, tempfile
from bot.storage import open_store
from bot.web import NoNames, create_app, serve
from evaluator.sandbox.local import LocalWorkerFactory
from evaluator.service import make_pool
from evaluator.settings import EvaluatorSettings

LIMIT, HOLD = int(sys.argv[1]), int(sys.argv[2])
_, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (LIMIT, hard))

async def main():
    settings = EvaluatorSettings(evaluator="local", pool_size=2, timeout_s=1.0, queue_limit=8)
    pool = make_pool(LocalWorkerFactory(settings), settings)
    await pool.start()
    with tempfile.TemporaryDirectory() as tmp:
        store = await open_store(f"sqlite+aiosqlite:///{tmp}/web.sqlite3")
        app = create_app(store, NoNames())
        async with serve(app, "127.0.0.1", 0, header_timeout_s=600) as runner:
            port = runner.addresses[0][1]
            holder = await asyncio.create_subprocess_exec(
                sys.executable, "-c", sys.argv[3], str(port), str(HOLD),
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
            assert (await holder.stdout.readline()).strip() == b"held"
            gate = next(iter(runner.sites)).gate
            while gate.open + gate.refused < HOLD:
                await asyncio.sleep(0.02)
            print("open", gate.open, "refused", gate.refused, flush=True)
            print("timeout", (await pool.run_raw("while (true) {}")).code.value, flush=True)
            await pool.settled()
            print("workers", pool.live_workers, "failed", pool.stats().spawn_failures, flush=True)
            print("answer", await pool.run("34+89"), flush=True)
            holder.stdin.close()
            await holder.wait()
        await store.close()
    await pool.close()

asyncio.run(main())
"""


def test_a_worker_is_replaced_while_a_client_holds_every_connection_it_can() -> None:
    """The pages and a PHP pool in one process under a low descriptor limit; a client in
    another process holds more connections than the limit allows. The port stops taking
    them short of the reserve, so the worker that timed out is replaced (once, the pool
    went from 2 workers to 1: "Too many open files")."""
    limit, hold = 256, 400
    done = subprocess.run(
        [sys.executable, "-c", SERVER, str(limit), str(hold), HOLDER],
        capture_output=True, text=True, cwd=ROOT, timeout=300, check=False,
    )  # fmt: skip
    lines = dict(line.split(" ", 1) for line in done.stdout.splitlines())
    assert done.returncode == 0, done.stderr[-3000:]
    opened, refused = (int(n) for n in lines["open"].split(" refused "))
    assert refused > 0 and opened + refused == hold
    assert lines["timeout"] == "timeout"
    assert lines["workers"] == "2 failed 0", done.stderr[-3000:]
    assert lines["answer"].startswith("Evaluation(")
