"""The health/metrics port under half-open connections (issue 21): a client that never
finishes its headers is closed, and connections past the cap get a 503 and are closed,
so 2,000 of them leave the port answering. Real sockets on loopback; every wait is
bounded and nothing asserts how long anything took."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable

import aiohttp

from bot.observability import HealthServer, Metrics
from bot.observability._server import MAX_CONNECTIONS
from tests.support.observability import healthz

BOUND = 30.0
"""Seconds any wait here may take before the test fails instead of hanging."""
SHORT = 0.3
"""A header timeout short enough for tests (the default is HEADER_TIMEOUT_S)."""
REQUEST = b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n"

Connection = tuple[asyncio.StreamReader, asyncio.StreamWriter]


def passing() -> bool:
    return True


async def until(condition: Callable[[], bool]) -> None:
    """Wait (at most BOUND) for what the server's loop does in its own time."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + BOUND
    while not condition():
        assert loop.time() < deadline, "the condition never held"
        await asyncio.sleep(0.02)


async def connect(server: HealthServer, count: int) -> list[Connection]:
    return [await asyncio.open_connection("127.0.0.1", server.port) for _ in range(count)]


async def everything_until_closed(reader: asyncio.StreamReader) -> bytes:
    """What the server sent before it closed the connection (b"" if nothing)."""
    return await asyncio.wait_for(reader.read(), BOUND)


async def status_of(server: HealthServer) -> int:
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{server.port}/healthz") as response,
    ):
        return response.status


async def close_all(connections: list[Connection]) -> None:
    for _, writer in connections:
        writer.close()
        with contextlib.suppress(OSError):
            await writer.wait_closed()


async def test_past_the_cap_a_connection_gets_503_and_the_rest_are_closed_in_time() -> None:
    """The defaults: MAX_CONNECTIONS held, the others turned away, then the held ones
    closed by the header timeout, and the port answers again."""
    extra = 20
    async with HealthServer(Metrics(), {"x": passing}) as server:
        connections = await connect(server, MAX_CONNECTIONS + extra)
        gate = server._site.gate if server._site is not None else None
        assert gate is not None
        await until(lambda: gate.open + gate.refused == MAX_CONNECTIONS + extra)
        assert (gate.open, gate.refused) == (MAX_CONNECTIONS, extra)
        said = await asyncio.gather(*(everything_until_closed(r) for r, _ in connections))
        refused = [s for s in said if s.startswith(b"HTTP/1.1 503")]
        assert len(refused) == extra
        assert said.count(b"") == MAX_CONNECTIONS  # closed without a word: never asked
        await until(lambda: server.open_connections == 0)
        status, _ = await healthz(server)
        assert status == 200
        await close_all(connections)


async def test_a_request_whose_headers_never_end_is_closed() -> None:
    async with HealthServer(Metrics(), {"x": passing}, header_timeout_s=SHORT) as server:
        (silent, partial) = await connect(server, 2)
        partial[1].write(REQUEST[:-2])  # everything but the blank line that ends them
        assert await everything_until_closed(silent[0]) == b""
        assert await everything_until_closed(partial[0]) == b""
        await until(lambda: server.open_connections == 0)
        await close_all([silent, partial])


async def test_headers_sent_a_byte_at_a_time_are_cut_off() -> None:
    """Slowloris: bytes keep coming, but the headers are never done in time."""
    headers = b"GET /healthz HTTP/1.1\r\n" + b"X-Slow: " + b"a" * 400 + b"\r\n\r\n"
    async with HealthServer(Metrics(), {"x": passing}, header_timeout_s=SHORT) as server:
        ((reader, writer),) = await connect(server, 1)
        sent = 0

        async def trickle() -> None:
            nonlocal sent
            with contextlib.suppress(OSError):
                for byte in headers:
                    writer.write(bytes([byte]))
                    await writer.drain()
                    sent += 1
                    await asyncio.sleep(0.05)

        sending = asyncio.create_task(trickle())
        assert await everything_until_closed(reader) == b""
        assert sent < len(headers)  # 400 × 50 ms is 20 s; the timeout is SHORT
        sending.cancel()
        await close_all([(reader, writer)])


async def test_an_idle_kept_alive_connection_is_closed_after_its_answer() -> None:
    async with HealthServer(Metrics(), {"x": passing}, header_timeout_s=SHORT) as server:
        ((reader, writer),) = await connect(server, 1)
        writer.write(REQUEST)
        answer = await everything_until_closed(reader)
        assert answer.startswith(b"HTTP/1.1 200")
        await until(lambda: server.open_connections == 0)
        await close_all([(reader, writer)])


async def test_two_thousand_half_open_connections_leave_the_port_answering() -> None:
    """The kernel queues what the loop has not accepted yet; of what it accepts, never more
    than the cap is open, and while all 2,000 client sockets stay open the port answers."""
    count = 2000
    async with HealthServer(Metrics(), {"x": passing}, header_timeout_s=SHORT) as server:
        connections = await connect(server, count)
        gate = server._site.gate if server._site is not None else None
        assert gate is not None
        most = 0

        def drained() -> bool:
            nonlocal most
            most = max(most, gate.open)
            return gate.refused > 0 and gate.open == 0

        await until(drained)
        assert most <= MAX_CONNECTIONS
        answered: list[int] = []

        def ready() -> bool:
            return bool(answered) and answered[-1] == 200

        loop = asyncio.get_running_loop()
        deadline = loop.time() + BOUND
        while not ready():
            assert loop.time() < deadline
            answered.append(await status_of(server))  # 503 while still at the cap
        await close_all(connections)
