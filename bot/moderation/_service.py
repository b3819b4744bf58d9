"""Voiding games and barring players, without Discord; every action logged by the store."""

from __future__ import annotations

import logging
from typing import Protocol

from bot.common import UserError
from bot.moderation._fairplay import FinishedGames
from bot.play import GameError, GameService, Refusal
from bot.storage import GameRecord, GameStore, ModerationEntry, ModerationStore
from rules import Termination

log = logging.getLogger(__name__)

REASON_MAX = 500


class AlreadyVoid(UserError):
    """Voiding a game that is void already: refused, like barring a barred player."""

    prefix = "moderation_extra."

    def __init__(self, game_id: str) -> None:
        super().__init__("already_void", id=game_id)


def _voided(record: GameRecord) -> bool:
    """Void already: ended without a result, or voided by an admin after it ended."""
    outcome = record.state.outcome
    return record.meta.void_reason is not None or (
        outcome is not None and outcome.termination is Termination.VOID
    )


class VoidListener(Protocol):
    """Told when an admin voids or unvoids a game (its achievements go and come back)."""

    async def game_voided(self, game_id: str) -> object: ...

    async def game_unvoided(self, game_id: str) -> object: ...


class Moderation:
    """What an admin does, on the repositories it needs: the stored games (to find and
    reread one), the moderation log (void, bar) and the fair-play reads; `games` is the
    running engine, which ends a running game voided."""

    def __init__(
        self,
        stored: GameStore,
        actions: ModerationStore,
        fairplay: FinishedGames,
        games: GameService,
        listener: VoidListener | None = None,
    ) -> None:
        self.stored = stored
        self.actions = actions
        self.fairplay = fairplay
        self.games = games
        self.listener = listener

    async def void(self, guild_id: int, game_key: str, actor_id: int, reason: str) -> GameRecord:
        """Void a game of this server by id or id prefix: a running one ends without a
        result, a finished one leaves the boards, stats and Elo."""
        record = await self.stored.find_game(guild_id, game_key)
        if record is None:
            raise GameError(Refusal.NO_SUCH_GAME, id=game_key)
        reason = reason.strip()[:REASON_MAX]
        ended = record.active
        if ended:
            record = await self.games.void_game(record.state.id, f"admin: {reason}")
        elif _voided(record):
            await self._tell(record.state.id, void=True)  # a hook that failed before: again
            raise AlreadyVoid(record.state.id[:8])
        if not await self.actions.void_game(
            guild_id, record.state.id, actor_id, reason, self.games.clock(), ended=ended
        ):
            stored = await self.stored.load_game(record.state.id)
            if stored is not None and _voided(stored):  # another admin was first
                raise AlreadyVoid(record.state.id[:8])
            raise GameError(Refusal.CANNOT_VOID, id=record.state.id[:8])
        stored = await self.stored.load_game(record.state.id)
        await self._tell(record.state.id, void=True)
        return stored or record

    async def unvoid(self, guild_id: int, game_key: str, actor_id: int, reason: str) -> GameRecord:
        record = await self.stored.find_game(guild_id, game_key)
        if record is None:
            raise GameError(Refusal.NO_SUCH_GAME, id=game_key)
        if not await self.actions.unvoid_game(
            guild_id, record.state.id, actor_id, reason.strip()[:REASON_MAX], self.games.clock()
        ):
            raise GameError(Refusal.CANNOT_UNVOID, id=record.state.id[:8])
        await self._tell(record.state.id, void=False)
        return record

    async def _tell(self, game_id: str, *, void: bool) -> None:
        """The listener, after the store: the void stands whatever it does (a failure is
        logged; voiding again, refused as already void, tells it again)."""
        if self.listener is None:
            return
        try:
            if void:
                await self.listener.game_voided(game_id)
            else:
                await self.listener.game_unvoided(game_id)
        except Exception:
            log.exception("game %s: telling of its %s failed", game_id,
                          "void" if void else "unvoid")  # fmt: skip

    async def bar(self, guild_id: int, user_id: int, actor_id: int, reason: str) -> None:
        if not await self.actions.bar_player(
            guild_id, user_id, actor_id, reason.strip()[:REASON_MAX], self.games.clock()
        ):
            raise GameError(Refusal.ALREADY_BARRED, user=user_id)

    async def unbar(self, guild_id: int, user_id: int, actor_id: int, reason: str) -> None:
        if not await self.actions.unbar_player(
            guild_id, user_id, actor_id, reason.strip()[:REASON_MAX], self.games.clock()
        ):
            raise GameError(Refusal.NOT_BARRED, user=user_id)

    async def log(self, guild_id: int) -> list[ModerationEntry]:
        return await self.actions.log(guild_id)
