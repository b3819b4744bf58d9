"""What the pages call players: the display name the bot last saw, kept in the store.

The bot has no members intent (its member cache knows almost nobody) and `formula-darts
web` runs without Discord, so names come from the players' own interactions: the bot
tells `NameBook.saw` each one, and a name that changed is written off the interaction's
path: at once when no write is in flight, else with every name seen meanwhile in the next
one (a burst of answers costs one write per write time, with no timer of its own: a
sleeping flush kept a store write pending at a moment nothing else ran, which moved the
games' virtual clocks in the simulator, and delays nothing useful in production). The
pages ask `NameBook.names` for a page's players at once: this process's fresh names
first, then the store's.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Collection, Mapping
from contextlib import suppress

from bot.storage import Store

log = logging.getLogger(__name__)


class NameBook:
    """`saw` (the bot) and `names` (the pages); `formula-darts web` only reads."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock
        self._known: dict[tuple[int, int], str] = {}
        self._pending: dict[int, dict[int, str]] = {}
        self._flushing: asyncio.Task[None] | None = None
        self._servers: dict[int, str] = {}

    def saw(self, guild_id: int, user_id: int, name: str) -> None:
        """A player's interaction on a server: keep the name if it is new or changed."""
        if not name or self._known.get((guild_id, user_id)) == name:
            return
        self._known[(guild_id, user_id)] = name
        self._pending.setdefault(guild_id, {})[user_id] = name
        if self._flushing is None or self._flushing.done():
            self._flushing = asyncio.get_running_loop().create_task(
                self._flush_all(), name="player-names"
            )

    async def _flush_all(self) -> None:
        while self._pending:
            await self.flush()

    async def flush(self) -> None:
        """Write what was seen since the last write; a failure forgets those names here,
        so the players' next interactions try again."""
        pending, self._pending = self._pending, {}
        for guild_id, names in pending.items():
            try:
                await self.store.names.remember(guild_id, names, self.clock())
            except BaseException as error:  # cancelled too: those names are not kept
                for user_id in names:
                    self._known.pop((guild_id, user_id), None)
                if not isinstance(error, Exception):
                    raise
                log.warning("keeping %d player name(s) of %s failed", len(names), guild_id)

    async def names(self, guild_id: int, user_ids: Collection[int]) -> Mapping[int, str]:
        found = {u: n for u in user_ids if (n := self._known.get((guild_id, u))) is not None}
        missing = [u for u in user_ids if u not in found]
        if missing:
            found.update(await self.store.names.of(guild_id, missing))
        return found

    async def server_named(self, guild_id: int, name: str) -> None:
        """Discord gave the server's name (the bot joined, it became available, or it was
        renamed): kept for its pages; a failed write is tried again at the next sight."""
        if not name or self._servers.get(guild_id) == name:
            return
        try:
            await self.store.servers.name_server(guild_id, name, self.clock())
        except Exception:
            log.warning("keeping the name of server %s failed", guild_id)
            return
        self._servers[guild_id] = name

    async def server_left(self, guild_id: int) -> None:
        """The bot left a server: its players' names go, here and in the store."""
        self._pending.pop(guild_id, None)
        self._servers.pop(guild_id, None)
        for key in [k for k in self._known if k[0] == guild_id]:
            del self._known[key]
        await self.store.names.forget_server(guild_id)

    async def close(self) -> None:
        """Write what is pending (the bot is stopping)."""
        task, self._flushing = self._flushing, None
        if task is not None and not task.done():
            task.cancel()
            with suppress(asyncio.CancelledError):
                await task
        await self.flush()
