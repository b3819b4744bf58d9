"""The games this process is running: by id, by channel, each with its own lock."""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Iterator

from bot.storage import GameRecord

Locks = weakref.WeakValueDictionary[str, asyncio.Lock]
"""Locks by game, each gone once nobody holds or awaits it."""


class ActiveGames:
    """This process's copy of every active game it runs.

    The store holds the truth; this copy is what a modal may be opened from
    without a database read (a modal must be an interaction's first response),
    and the lock per game is what makes one game's steps happen one at a time.
    A game's announcements run outside that lock (they may wait out Discord's
    retries), one at a time in the order of the steps under its `voice` lock:
    asyncio's locks are first come, first served. Both locks live only while someone
    holds or awaits them (a weak table): a game between steps keeps none (issue 28,
    memory per running game).
    """

    def __init__(self) -> None:
        self._records: dict[str, GameRecord] = {}
        self._channels: dict[int, str] = {}
        self._locks: Locks = weakref.WeakValueDictionary()
        self._voices: Locks = weakref.WeakValueDictionary()

    def get(self, game_id: str) -> GameRecord | None:
        return self._records.get(game_id)

    def in_channel(self, channel_id: int) -> GameRecord | None:
        game_id = self._channels.get(channel_id)
        return self._records.get(game_id) if game_id else None

    def remember(self, record: GameRecord) -> None:
        self._records[record.state.id] = record
        if not record.meta.private:  # a private game's channel holds others' games too
            self._channels[record.channel_id] = record.state.id

    def forget(self, record: GameRecord) -> None:
        self._records.pop(record.state.id, None)
        if self._channels.get(record.channel_id) == record.state.id:
            del self._channels[record.channel_id]

    def lock(self, game_id: str) -> asyncio.Lock:
        """The lock a game's steps take, kept while anyone holds or awaits it."""
        return _kept_while_used(self._locks, game_id)

    def voice(self, game_id: str) -> asyncio.Lock:
        """The lock a game's announcements take, kept while anyone holds or awaits it."""
        return _kept_while_used(self._voices, game_id)

    def __contains__(self, game_id: str) -> bool:
        return game_id in self._records

    def __iter__(self) -> Iterator[GameRecord]:
        return iter(list(self._records.values()))

    def __len__(self) -> int:
        return len(self._records)


def _kept_while_used(
    table: weakref.WeakValueDictionary[str, asyncio.Lock], key: str
) -> asyncio.Lock:
    """`key`'s lock in `table`: the one a holder or a waiter still references, else new.
    Whoever holds or awaits a lock references it, so no two live locks share a key."""
    lock = table.get(key)
    if lock is None:
        lock = table[key] = asyncio.Lock()
    return lock
