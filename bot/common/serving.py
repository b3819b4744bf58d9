"""How every HTTP port of the bot (the pages, `/metrics`) holds under hostile clients.

A client that connects and never finishes its request's headers is closed after the
runner's `keepalive_timeout`: aiohttp arms that timer at connect and again after each
answer, and closes a connection still waiting for headers when it fires, however slowly
bytes trickle in. What aiohttp does not offer is a cap, so `CappedSite` puts a `Gate` in
front of the runner's protocol factory: a connection past `cap`, or one that would leave
the process fewer than `reserve` free file descriptors, is answered 503 and closed before
it is read. The reserve is for the games: a PHP or node worker replaced after a timeout
needs descriptors (its pipes), and a flood of connections must never take them (one did:
"Too many open files", and the pool shrank from 2 workers to 1).
"""

from __future__ import annotations

import asyncio
import os
import resource
from collections.abc import Callable

from aiohttp import web

HEADER_TIMEOUT_S = 5.0
"""Seconds a connection has to send a request's headers (after connecting or answering)."""
FD_RESERVE = 128
"""File descriptors a port leaves free for the rest of the process (workers' pipes, the
database, Discord). asyncio accepts up to `ACCEPT_BURST` connections before the gate is
asked about any of them, so a flood may dip into the reserve by a burst or two: the half
left is still several workers replaced at once."""
ACCEPT_BURST = 32
"""The listening socket's backlog, which is also how many connections asyncio accepts at
a time (its default, 100, would be most of the reserve)."""
_OVER_CAP = b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
_FDS = "/proc/self/fd"


def free_descriptors() -> int | None:
    """How many more files this process may open (its soft RLIMIT_NOFILE less those open),
    or None where the platform does not tell (no /proc)."""
    try:
        in_use = len(os.listdir(_FDS))
    except OSError:
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else soft - in_use


class Gate:
    """The protocol factory of a listening socket: counts open connections from accept to
    close and turns away the ones past the cap or into the descriptors' reserve."""

    def __init__(
        self, factory: Callable[[], asyncio.Protocol], cap: int, reserve: int = FD_RESERVE
    ) -> None:
        self.factory = factory
        self.cap = cap
        self.reserve = reserve
        self.open = 0
        self.refused = 0

    def __call__(self) -> asyncio.Protocol:
        if self.open >= self.cap or self._short_of_descriptors():
            self.refused += 1
            return _Refused()
        self.open += 1
        return _Counted(self, self.factory())

    def _short_of_descriptors(self) -> bool:
        free = free_descriptors()
        return free is not None and free < self.reserve


class _Refused(asyncio.Protocol):
    """One connection too many: a 503 and closed, nothing read."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        transport.write(_OVER_CAP)
        transport.close()


class _Counted(asyncio.Protocol):
    """aiohttp's handler of one connection, with its close counted by the gate."""

    def __init__(self, gate: Gate, inner: asyncio.Protocol) -> None:
        self._gate = gate
        self._inner = inner

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._inner.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        self._inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self._inner.eof_received()

    def pause_writing(self) -> None:
        self._inner.pause_writing()

    def resume_writing(self) -> None:
        self._inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self._gate.open -= 1
        self._inner.connection_lost(exc)


class CappedSite(web.BaseSite):
    """aiohttp's TCP site with the gate in front of the runner's protocol factory (give the
    runner `keepalive_timeout=HEADER_TIMEOUT_S`: aiohttp's default keeps an idle
    connection an hour)."""

    def __init__(
        self, runner: web.AppRunner, host: str, port: int, cap: int, reserve: int = FD_RESERVE
    ) -> None:
        super().__init__(runner)
        self._host = host
        self._port = port
        self._cap = cap
        self._reserve = reserve
        self.gate: Gate | None = None

    @property
    def name(self) -> str:
        return f"http://{self._host}:{self._port}"

    def handlers(self, server: web.Server) -> Callable[[], asyncio.Protocol]:
        """What makes each connection's handler: aiohttp's own, unless a site says else."""
        return server

    async def start(self) -> None:
        await super().start()
        server = self._runner.server
        assert server is not None
        self.gate = Gate(self.handlers(server), self._cap, self._reserve)
        self._server = await asyncio.get_running_loop().create_server(
            self.gate, self._host, self._port, backlog=ACCEPT_BURST
        )
