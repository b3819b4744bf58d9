"""Who may start a game: nobody twice at once, nobody already playing on the server,
nobody past the day's Qualification attempts."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo

import rules
from bot.play._refusals import Refusal
from bot.play._types import Clock, GameError
from bot.storage import Store
from rules import GameSet

STARTS_PER_WINDOW = 5
START_WINDOW_S = 600.0
"""A player starts at most 5 games on a server in 10 minutes: starting and resigning in a
loop would otherwise open threads without end; nobody playing for real gets near it."""


def used_up(game_set: GameSet, period: str, zone: tzinfo) -> GameError:
    """The day's attempts are used: for which Set, and when the server's next day starts."""
    return GameError(
        Refusal.QUALIFICATION_USED,
        set=game_set.name,
        attempts=game_set.attempts,
        timezone=str(zone),
        next_day=int(rules.period_end(period, zone).timestamp()),
    )


@dataclass(frozen=True, slots=True)
class Attempt:
    """A Qualification a player may start: its period (the server's day) and seed."""

    period: str
    seed: str
    game_set: GameSet
    zone: tzinfo

    def used_up(self) -> GameError:
        """Another process took the day's last attempt first."""
        return used_up(self.game_set, self.period, self.zone)


class Seats:
    """Players held while their game opens, and the store's word on who is playing."""

    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.clock = clock
        self._starting: set[tuple[int, int]] = set()

    @contextlib.asynccontextmanager
    async def reserve(self, guild_id: int, user_ids: list[int]) -> AsyncIterator[None]:
        """Hold the players while their game opens, so two commands can't both start one."""
        keys = [(guild_id, uid) for uid in user_ids]
        if any(key in self._starting for key in keys):
            raise GameError(Refusal.BUSY)
        self._starting.update(keys)
        try:
            yield
        finally:
            self._starting.difference_update(keys)

    async def ensure_free(self, guild_id: int, user_id: int, code: Refusal) -> None:
        """Refuse with `code` (busy / opponent_busy) if the player has an active game here."""
        if await self.store.games.active_game_of(guild_id, user_id) is not None:
            raise GameError(code, user=user_id)

    async def ensure_can_start(self, guild_id: int, user_id: int) -> None:
        """Refuse a start beyond the window's allowance, saying when the next one is possible."""
        now = self.clock()
        starts = await self.store.games.recent_starts(guild_id, user_id, now - START_WINDOW_S)
        if len(starts) >= STARTS_PER_WINDOW:
            raise GameError(
                Refusal.COOLDOWN, expires=starts[STARTS_PER_WINDOW - 1] + START_WINDOW_S
            )

    async def starts_left(self, guild_id: int, user_id: int) -> tuple[int, float]:
        """How many more games the player may start in the window now, and when the
        oldest start in it leaves the window (another start is free again then)."""
        now = self.clock()
        starts = await self.store.games.recent_starts(guild_id, user_id, now - START_WINDOW_S)
        oldest = starts[min(len(starts), STARTS_PER_WINDOW) - 1] if starts else now
        return max(0, STARTS_PER_WINDOW - len(starts)), oldest + START_WINDOW_S

    async def ensure_may_rank(self, guild_id: int, user_id: int, *, other: bool = False) -> None:
        """Refuse ranked play (Qualification, a rated duel) to a player an admin barred.

        `other`: the barred player is someone else (the one challenged, or the challenger
        when the opponent accepts), named without the admin's reason, which is theirs."""
        reason = await self.store.moderation.barred_reason(guild_id, user_id)
        if reason is not None:
            raise (
                GameError(Refusal.OPPONENT_BARRED, user=user_id)
                if other
                else GameError(Refusal.BARRED, reason=reason)
            )

    async def qualification(
        self, guild_id: int, user_id: int, game_set: GameSet, zone: tzinfo
    ) -> Attempt:
        """The next attempt of the server's day, its seed from the install's secret; a
        barred player or one past the Set's attempts is refused."""
        await self.ensure_may_rank(guild_id, user_id)
        period = rules.period_of(datetime.fromtimestamp(self.clock(), UTC), zone)
        used, started = await self.store.games.attempt_counts(
            guild_id, user_id, game_set.name, period, version=game_set.version
        )
        if used >= game_set.attempts:
            raise used_up(game_set, period, zone)
        secret = await self.store.install.secret("qualification")
        seed = rules.qualification_seed(
            guild_id, game_set.name, period, secret=secret, version=game_set.version,
            started=started,
        )  # fmt: skip
        return Attempt(period, seed, game_set, zone)
