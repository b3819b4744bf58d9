"""Who may start a game: nobody twice at once, nobody already playing on the server."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

from bot.games._types import GameError
from bot.storage import Store


class Seats:
    """Players held while their game opens, and the store's word on who is playing."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._starting: set[tuple[int, int]] = set()

    @contextlib.asynccontextmanager
    async def reserve(self, guild_id: int, user_ids: list[int]) -> AsyncIterator[None]:
        """Hold the players while their game opens, so two commands can't both start one."""
        keys = [(guild_id, uid) for uid in user_ids]
        if any(key in self._starting for key in keys):
            raise GameError("busy")
        self._starting.update(keys)
        try:
            yield
        finally:
            self._starting.difference_update(keys)

    async def ensure_free(self, guild_id: int, user_id: int, code: str) -> None:
        """Refuse with `code` (busy / opponent_busy) if the player has an active game here."""
        if await self.store.active_game_of(guild_id, user_id) is not None:
            raise GameError(code, user=user_id)
