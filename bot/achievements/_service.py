"""What earns achievements and role rewards, and when they are taken back (no discord).

`Rewards` is told what finished: a game (by its summary), a closed Qualification day (by
the daily post), a Cup's final (`champion_crowned`, by the Cup), a puzzle run
(`run_finished`, by the puzzles), an admin's void and unvoid. It asks `rules.achievements`
what is new, stores it with what earned it (`Store.achievements`), and stores the role
intents it implies (`Store.roles`); `RoleWaker` (the Discord face's `RoleKeeper`) then
does them on Discord.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Collection, Iterable
from typing import Protocol

from bot.achievements._texts import summary_lines
from bot.storage import Earned, GameRecord, RoleReward, RoomRecord, Source, Store
from rules import Mode
from rules.achievements import (
    STREAK_ACHIEVEMENTS,
    Achievement,
    BestScore,
    RunKind,
    earned_by_cup,
    earned_by_day_won,
    earned_by_game,
    earned_by_room,
    earned_by_run,
    game_facts,
)

log = logging.getLogger(__name__)

STREAK_REWARDS: dict[Achievement, RoleReward] = {
    Achievement.STREAK_7: RoleReward.STREAK_7,
    Achievement.STREAK_30: RoleReward.STREAK_30,
    Achievement.STREAK_100: RoleReward.STREAK_100,
}
assert set(STREAK_REWARDS) == STREAK_ACHIEVEMENTS


class RoleWaker(Protocol):
    """Whoever does the stored role intents on Discord: woken when new ones are stored."""

    def wake(self) -> None: ...


def _user(player: str) -> int | None:
    """A seat's Discord user id; None for the bot's own seat (Practice) or a local name."""
    return int(player) if player.isdigit() else None


class Rewards:
    """Achievements and role rewards: the seams the games, the daily post, the Cup and the
    puzzles call (`champion_crowned`, `run_finished`)."""

    def __init__(
        self, store: Store, clock: Callable[[], float], roles: RoleWaker | None = None
    ) -> None:
        self.store = store
        self.clock = clock
        self.roles = roles

    async def _held(self, guild_id: int, user_id: int) -> set[Achievement]:
        return {e.achievement for e in await self.store.achievements.held(guild_id, user_id)}

    async def _grant(
        self, guild_id: int, user_id: int, new: Iterable[Achievement], source: Source,
        source_id: str,
    ) -> list[Achievement]:  # fmt: skip
        new = list(new)
        if not new:
            return []
        first = await self.store.achievements.grant(
            guild_id, user_id, new, source, source_id, self.clock()
        )
        await self._streak_roles(guild_id, user_id, first, source_id, want=True)
        return first

    async def _streak_roles(
        self, guild_id: int, user_id: int, kinds: Collection[Achievement], key: str, *, want: bool
    ) -> None:
        changed = False
        for kind in kinds:
            reward = STREAK_REWARDS.get(kind)
            if reward is not None:
                changed |= await self.store.roles.hold(
                    guild_id, reward, user_id, key, want, self.clock()
                )
        if changed:
            self._wake()

    def _wake(self) -> None:
        if self.roles is not None:
            self.roles.wake()

    async def game_finished(self, record: GameRecord) -> list[Earned]:
        """Store what a finished game earned its players (again: nothing new); what the
        game holds, for its summary (the same on every retry of the summary)."""
        state = record.state
        if state.outcome is None or record.meta.void_reason is not None:
            return []
        found = await self.store.best.with_found(record)
        best = [BestScore(b.round, b.seat, b.score) for b in found.meta.best]
        for seat, player in enumerate(state.players):
            user_id = _user(player)
            if user_id is None:
                continue
            days = 0
            if state.mode is Mode.QUALIFICATION and record.period is not None:
                streaks = await self.store.boards.player_streaks(
                    record.guild_id, user_id, record.period
                )
                found_streak = streaks.get(state.game_set.name)
                days = found_streak.current if found_streak is not None else 0
            facts = game_facts(state, seat, best, days)
            if facts is None:
                continue
            new = earned_by_game(facts, await self._held(record.guild_id, user_id))
            await self._grant(record.guild_id, user_id, new, Source.GAME, state.id)
        return await self.store.achievements.of_source(Source.GAME, state.id)

    async def summary_lines(self, record: GameRecord, locale: str) -> list[str]:
        """The games' summary hook: what the game earned, as its summary's lines (the
        same lines on every retry of the summary; none when earning failed: the summary
        goes out without them)."""
        try:
            earned = await self.game_finished(record)
        except Exception:
            log.exception("game %s: storing its achievements failed", record.state.id)
            return []
        return summary_lines(earned, locale, players=len(record.state.players))

    async def room_finished(
        self, guild_id: int, room_id: str, players: int, firsts: Iterable[int]
    ) -> None:
        """A room that ended with places: its first place(s) among `players`."""
        for user_id in firsts:
            new = earned_by_room(players, True, await self._held(guild_id, user_id))
            await self._grant(guild_id, user_id, new, Source.ROOM, room_id)

    async def room_lines(self, record: RoomRecord) -> list[str]:
        """The rooms' final-table hook: what the room earned its first place(s), as lines
        (the same on every retry; none when earning failed)."""
        state = record.state
        if not state.standings:
            return []
        firsts = [
            user_id
            for standing in state.standings
            if standing.place == 1 and (user_id := _user(state.players[standing.player]))
        ]
        try:
            await self.room_finished(record.guild_id, state.id, len(state.players), firsts)
            earned = await self.store.achievements.of_source(Source.ROOM, state.id)
        except Exception:
            log.exception("room %s: storing its achievements failed", state.id)
            return []
        return summary_lines(earned, record.locale, players=len(state.players))

    async def day_won(
        self, guild_id: int, user_id: int, set_name: str, period: str, game_id: str
    ) -> None:
        """The first of a closed day's board of a Set (the daily post says so, once): the
        achievement goes with the winning game, the day's role to the day's winners."""
        del set_name  # every Set's winner of the day holds the one role
        new = earned_by_day_won(await self._held(guild_id, user_id))
        await self._grant(guild_id, user_id, new, Source.GAME, game_id)
        if await self.store.roles.crown(
            guild_id, RoleReward.DAY_WINNER, user_id, period, self.clock(), keep_same_key=True
        ):
            self._wake()

    async def champion_crowned(self, guild_id: int, user_id: int, cup_id: int) -> None:
        """The Cup's seam (`bot.cup.CupEvents`): the winner of a Cup's final. The champion
        role moves to them from the last champion, once per Cup however often this is
        called (the Cup's number is the earning source's key, as text)."""
        source = str(cup_id)
        new = earned_by_cup(await self._held(guild_id, user_id))
        await self._grant(guild_id, user_id, new, Source.CUP, source)
        if await self.store.roles.crown(
            guild_id, RoleReward.CHAMPION, user_id, source, self.clock()
        ):
            self._wake()

    async def run_finished(
        self, guild_id: int, user_id: int, kind: str, result: float, run_id: str
    ) -> list[Achievement]:
        """The puzzles' seam: a Storm (`result`: its sum of grades) or a Streak (its
        length) ended; what it earned first. An unknown kind earns nothing."""
        try:
            run_kind = RunKind(kind)
        except ValueError:
            log.warning("run %s: unknown kind %r earns no achievement", run_id, kind)
            return []
        new = earned_by_run(run_kind, result, await self._held(guild_id, user_id))
        return await self._grant(guild_id, user_id, new, Source.RUN, run_id)

    async def run_lines(self, run_id: str, locale: str) -> list[str]:
        """The puzzles' summary hook: what the run earned (`run_finished` stored it), as
        its summary's lines, the same on every call; none when reading failed (the
        summary goes out without them)."""
        try:
            earned = await self.store.achievements.of_source(Source.RUN, run_id)
        except Exception:
            log.exception("run %s: reading its achievements failed", run_id)
            return []
        return summary_lines(earned, locale, players=1)

    async def game_voided(self, game_id: str) -> list[Earned]:
        """An admin voided the game: what it earned is taken back (and its roles)."""
        taken = await self.store.achievements.void_source(Source.GAME, game_id)
        for e in taken:
            await self._streak_roles(e.guild_id, e.user_id, [e.achievement], game_id, want=False)
        return taken

    async def game_unvoided(self, game_id: str) -> list[Earned]:
        """Unvoided: what it earned comes back where nothing earned it since."""
        given = await self.store.achievements.unvoid_source(Source.GAME, game_id)
        for e in given:
            await self._streak_roles(e.guild_id, e.user_id, [e.achievement], game_id, want=True)
        return given
