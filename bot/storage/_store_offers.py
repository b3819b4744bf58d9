"""`Store.challenges` and `Store.sets`: the offers a server keeps.

A challenge waits for its opponent, a server's own Set for its players (the SQL of
both is `_offers`'). Each method is one transaction on the Store's connections.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Sequence

from sqlalchemy.exc import IntegrityError

import rules
from bot.storage import _offers
from bot.storage._connect import Connect
from bot.storage._records import Challenge, ChallengeStatus, RematchTaken


class ChallengeStore:
    """Duel challenges and Rematches: saved, looked up, moved on once."""

    def __init__(self, write: Connect, read: Connect) -> None:
        self._write = write
        self._read = read

    async def save_challenge(self, challenge: Challenge) -> None:
        """Insert or update; RematchTaken if it is a second Rematch of the same duel."""
        try:
            async with self._write() as conn:
                await _offers.save_challenge(conn, challenge)
        except IntegrityError as exc:  # only the rematch key can clash: the id is upserted
            raise RematchTaken(f"duel {challenge.rematch_of} already has its rematch") from exc

    async def load_challenge(self, challenge_id: str) -> Challenge | None:
        async with self._read() as conn:
            return await _offers.challenge_where(conn, _offers.challenges_t.c.id == challenge_id)

    async def rematch_of(self, game_id: str) -> Challenge | None:
        """The Rematch challenge asked for after the duel `game_id`, if any."""
        async with self._read() as conn:
            return await _offers.challenge_where(conn, _offers.challenges_t.c.rematch_of == game_id)

    async def pending_challenges(self) -> list[Challenge]:
        async with self._read() as conn:
            return await _offers.pending(conn)

    async def set_challenge_status(self, challenge_id: str, status: ChallengeStatus) -> bool:
        """Move a pending challenge on; False if someone else moved it first."""
        if ChallengeStatus(status) is ChallengeStatus.PENDING:
            raise ValueError("a challenge cannot become pending again")
        async with self._write() as conn:
            return await _offers.move_on(conn, challenge_id, status)


class ServerSetStore:
    """The Sets a server made its own (`/sets`), beside the global ones."""

    def __init__(self, write: Connect, read: Connect) -> None:
        self._write = write
        self._read = read

    async def server_sets(self, guild_id: int) -> list[rules.GameSet]:
        async with self._read() as conn:
            return await _offers.server_sets(conn, guild_id)

    async def save_server_set(self, guild_id: int, game_set: rules.GameSet) -> None:
        await self.save_server_sets(guild_id, [game_set])

    async def save_server_sets(
        self,
        guild_id: int,
        sets: Sequence[rules.GameSet],
        *,
        cap: int | None = None,
        hidden: Collection[str] = (),
    ) -> list[str]:
        """Add or replace Sets of a server in one transaction; the names newly added.

        With `cap`, the server may hold at most that many Sets (names in `hidden`, which
        global Sets shadow, do not count), checked inside the transaction: two imports
        at once cannot both squeeze under it. TooManySets saves nothing.
        """
        async with self._write() as conn:
            return await _offers.save_server_sets(conn, guild_id, sets, cap, hidden, time.time())

    async def delete_server_set(self, guild_id: int, name: str) -> bool:
        async with self._write() as conn:
            return await _offers.delete_server_set(conn, guild_id, name)
