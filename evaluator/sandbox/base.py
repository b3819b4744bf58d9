"""The seam between the generic warm pool and where a PHP worker lives.

A backend (local bubblewrap processes, Docker containers) only has to start a
worker and move one request line in and one response line out; the pool does
queueing, timeouts, replacement and the protocol. No backend keeps a task
waiting on I/O while idle: reads happen inside the caller's await, so an event
loop that inspects pending tasks (simcord) sees nothing stuck.
"""

from __future__ import annotations

from typing import Protocol


class WorkerDied(Exception):
    """The worker is gone (crashed, killed, closed its pipe)."""


class Worker(Protocol):
    @property
    def alive(self) -> bool: ...

    async def request(self, line: bytes, timeout: float) -> bytes:
        """Send one request line (ending in \\n), return one response line.

        Raises TimeoutError after `timeout` seconds and WorkerDied when the
        worker is gone; after either the pool discards the worker.
        """
        ...

    async def kill(self) -> None:
        """Stop the worker at once and release everything it held."""
        ...


class WorkerFactory(Protocol):
    name: str

    async def spawn(self) -> Worker: ...

    async def cleanup(self) -> None:
        """Release backend-wide resources (e.g. remove leftover containers)."""
        ...
