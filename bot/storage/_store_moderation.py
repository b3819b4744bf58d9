"""`Store.moderation`: voiding games and barring players.

What an admin does is `_moderation`'s (logged, reversible); here each action is one
transaction on the Store's connections.
"""

from __future__ import annotations

from bot.storage import _moderation
from bot.storage._connect import Connect
from bot.storage._records import ModerationEntry


class ModerationStore:
    """Void and unvoid a game, bar and unbar a player, and the log of it all."""

    def __init__(self, write: Connect, read: Connect) -> None:
        self._write = write
        self._read = read

    async def void_game(
        self, guild_id: int, game_id: str, actor_id: int, reason: str, now: float,
        *, ended: bool = False,
    ) -> bool:  # fmt: skip
        """An admin voids a finished game of the server: off boards, stats and Elo; logged.
        False if it is not one, or is void already; `ended`: the admin's call has just
        ended it as void while it ran (then it is only logged)."""
        async with self._write() as conn:
            return await _moderation.void(conn, guild_id, game_id, actor_id, reason, now, ended)

    async def unvoid_game(
        self, guild_id: int, game_id: str, actor_id: int, reason: str, now: float
    ) -> bool:
        async with self._write() as conn:
            return await _moderation.unvoid(conn, guild_id, game_id, actor_id, reason, now)

    async def bar_player(
        self, guild_id: int, user_id: int, actor_id: int, reason: str, now: float
    ) -> bool:
        async with self._write() as conn:
            return await _moderation.bar(conn, guild_id, user_id, actor_id, reason, now)

    async def unbar_player(
        self, guild_id: int, user_id: int, actor_id: int, reason: str, now: float
    ) -> bool:
        async with self._write() as conn:
            return await _moderation.unbar(conn, guild_id, user_id, actor_id, reason, now)

    async def barred_reason(self, guild_id: int, user_id: int) -> str | None:
        async with self._read() as conn:
            return await _moderation.barred(conn, guild_id, user_id)

    async def log(self, guild_id: int, *, limit: int = 20) -> list[ModerationEntry]:
        async with self._read() as conn:
            return await _moderation.entries(conn, guild_id, limit)
