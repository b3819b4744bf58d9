"""The seam between the generic warm pool and where a PHP worker lives.

A backend (local bubblewrap processes, Docker containers) only has to start a
worker, write a batch of request lines and hand back response lines one by
one; the pool does queueing, batching, timeouts, replacement and the protocol.
A worker watches its pipes only while it has work (from `receive` until
`settle`, which the pool calls when the worker goes idle), so an idle pool
leaves nothing waiting on I/O.
"""

from __future__ import annotations

from typing import Protocol


class WorkerDied(Exception):
    """The worker is gone (crashed, killed, closed its pipe).

    `last_words` is the tail of what PHP printed by itself (its stdout), where
    a fatal error such as memory_limit says why it died.
    """

    def __init__(self, message: str, last_words: str = "") -> None:
        super().__init__(message)
        self.last_words = last_words


class Worker(Protocol):
    @property
    def alive(self) -> bool: ...

    async def send(self, data: bytes) -> None:
        """Write request lines (a whole batch, each ending in \\n); WorkerDied if gone."""
        ...

    async def receive(self, deadline: float) -> bytes:
        """The next response line, without its \\n.

        Raises TimeoutError when the event loop's clock reaches `deadline` and
        WorkerDied when the worker is gone; after either the pool discards it.
        """
        ...

    def ready_line(self) -> bytes | None:
        """A response line already read and waiting (as `receive` would return it), or
        None: then `receive` waits for one. Saves a coroutine when answers come in bursts."""
        ...

    def settle(self) -> None:
        """Every batch is answered: stop watching the worker until it has work again."""
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
