"""`Store.install`: what belongs to the installation rather than a game or a server.

Its secrets (the Qualification seeds' key, the web's) and small facts claimed once
(`bot_state`: the synced command hash, shares claimed, the shards' identify turns);
the SQL is `_install`'s, each method here one transaction on the Store's connections.
"""

from __future__ import annotations

from bot.storage import _install
from bot.storage._connect import Connect


class InstallStore:
    """The installation's secrets (kept once read: they never change) and state claims."""

    def __init__(self, write: Connect, read: Connect) -> None:
        self._write = write
        self._read = read
        self._secrets: dict[str, str] = {}

    async def secret(self, name: str) -> str:
        """The installation's secret `name`, made at random the first time it is asked for
        (the same value for every process: see `_install.secret`)."""
        if name not in self._secrets:
            async with self._write() as conn:
                self._secrets[name] = await _install.secret(conn, name)
        return self._secrets[name]

    async def get_state(self, name: str) -> str | None:
        async with self._read() as conn:
            return await _install.get_state(conn, name)

    async def claim_state(self, name: str, value: str) -> bool:
        """Set `name` only if it is unset: True for the one caller that set it."""
        async with self._write() as conn:
            return await _install.claim_state(conn, name, value)

    async def drop_state(self, name: str) -> None:
        async with self._write() as conn:
            await _install.drop_state(conn, name)

    async def set_state(self, name: str, value: str) -> None:
        async with self._write() as conn:
            await _install.set_state(conn, name, value)
