"""A drawn Cup's matches (RULES.md "Cup"), no discord: each open match gets a thread and
its legs called one by one; a leg starts when both players pressed Ready (an Online Duel
of the Cup's Set, opened through the games' public API by the face), and counts when its
duel ends; a side not Ready within the start window loses the match (neither: the higher
seed goes through). The next round's matches open as soon as theirs are known.

A leg's end is seen by looking at its duel (`GameStore.load_game`) each time the schedule
looks at the Cup (`POLL_S`): the duel machinery stays as it is and tells the Cup nothing,
and a restart loses nothing, since the look reads only what is stored.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from enum import StrEnum

from bot.cup._service import CupRefused, CupService
from bot.storage import CupMatchRecord, CupPhase, CupRecord, GameRecord, StaleGame
from rules.cup import CupError, Leg, LegResult, Match, NoShow
from rules.cup import apply as apply_action
from rules.game import Termination

log = logging.getLogger(__name__)

START_WINDOW_S = 600.0
"""A leg not started this long after it was called is a no-show (RULES.md: 10 minutes)."""
POLL_S = 15.0
"""How often a Cup in play is looked at: its legs' duels, its start windows."""


class Ready(StrEnum):
    WAITING = "waiting"
    """This side is Ready; the other is not yet."""
    STARTED = "started"


def leg_result(game: GameRecord) -> LegResult | None:
    """A finished duel as the match sees it (side 0 played first); None while it runs."""
    outcome = game.state.outcome
    if outcome is None:
        return None
    if outcome.termination is Termination.VOID or game.meta.void_reason is not None:
        return LegResult.VOID
    if outcome.winner is None:
        return LegResult.DRAW
    return LegResult.FIRST if outcome.winner == 0 else LegResult.SECOND


class MatchRunner:
    def __init__(self, cups: CupService) -> None:
        self.cups = cups
        self.store = cups.store
        self.face = cups.face

    async def look(self, cup: CupRecord) -> None:
        """Everything due in a drawn Cup: matches to open, legs that ended, no-shows."""
        for attempt in range(64):  # each pass may decide matches that open the next round's
            if attempt:
                cup = await self.store.cups.load(cup.id) or cup
            if cup.phase is not CupPhase.DRAWN or cup.bracket is None:
                return
            rows = await self.store.cup_matches.of_cup(cup.id)
            moved = False
            for match in cup.bracket.open_matches:
                row = rows.get((match.round, match.slot))
                if row is None:
                    await self._open(cup, match)
                    continue
                moved = await self._step(cup, match, row) or moved
            if not moved:
                return

    def players(self, cup: CupRecord, match: Match) -> tuple[int, int]:
        assert cup.bracket is not None
        first, second = (cup.bracket.player(seed) for seed in match.seeds)
        return int(first or 0), int(second or 0)

    async def _open(self, cup: CupRecord, match: Match) -> None:
        if not await self.store.cup_matches.open(
            cup.id, match.round, match.slot, self.cups.clock()
        ):
            return
        thread_id = await self.face.match_opened(cup, match, self.players(cup, match))
        if thread_id is not None:
            await self.store.cup_matches.set_thread(cup.id, match.round, match.slot, thread_id)
            await self.face.leg_called(cup, thread_id, match, 1, self.players(cup, match))

    async def _step(self, cup: CupRecord, match: Match, row: CupMatchRecord) -> bool:
        """One match's due step; True when the bracket changed."""
        now = self.cups.clock()
        if row.game_id is not None:
            game = (
                None if row.game_id == "starting" else await self.store.games.load_game(row.game_id)
            )
            result = None if game is None else leg_result(game)
            return result is not None and await self._count(cup, match, row, result)
        if now < row.opened_at + START_WINDOW_S:
            return False
        absent = frozenset({0, 1}) - row.ready
        decided = await self.cups.record(cup.id, NoShow(match.round, match.slot, absent))
        await self.store.cup_matches.close(cup.id, match.round, match.slot)
        if decided is not None and decided.bracket is not None and row.thread_id is not None:
            done = decided.bracket.match(match.round, match.slot)
            await self.face.match_decided(decided, row.thread_id, done)
        return decided is not None

    async def _count(
        self, cup: CupRecord, match: Match, row: CupMatchRecord, result: LegResult
    ) -> bool:
        """The leg's result into the bracket, once (`finish_leg`); the next leg called or
        the match closed; the bracket shown; the champion crowned."""
        for _ in range(3):
            stored = await self.store.cups.load(cup.id)
            if stored is None or stored.bracket is None:
                return False
            try:
                bracket = apply_action(stored.bracket, Leg(match.round, match.slot, result))
            except CupError:
                return False
            after = bracket.match(match.round, match.slot)
            champion = bracket.champion
            changed = replace(
                stored, bracket=bracket, champion=champion,
                phase=CupPhase.OVER if champion is not None else stored.phase,
            )  # fmt: skip
            try:
                saved = await self.store.cup_matches.finish_leg(
                    changed, match.round, match.slot, row.leg, result.value,
                    after.winner is not None, self.cups.clock(),
                )  # fmt: skip
            except StaleGame:
                continue
            if saved is None:
                return False  # another process counted it
            await self._after_leg(saved, after, row)
            return True
        return False

    async def _after_leg(self, cup: CupRecord, match: Match, row: CupMatchRecord) -> None:
        await self.cups.show_bracket(cup)
        if row.thread_id is not None:
            if match.winner is None:
                players = self.players(cup, match)
                await self.face.leg_called(cup, row.thread_id, match, row.leg + 1, players)
            else:
                await self.face.match_decided(cup, row.thread_id, match)
        if cup.champion is not None:
            await self.cups.crown(cup)

    async def press_ready(
        self, guild_id: int, cup_id: int, round_: int, slot: int, leg: int, user_id: int
    ) -> Ready:
        """A player's Ready for leg `leg`; the leg's duel starts when both are."""
        cup = await self.store.cups.find(guild_id, cup_id)
        if cup is None or cup.bracket is None or cup.phase is not CupPhase.DRAWN:
            raise CupRefused("leg_gone")
        match = cup.bracket.match(round_, slot)
        players = self.players(cup, match) if match.ready else (0, 0)
        if user_id not in players:
            raise CupRefused("not_yours")
        sides = await self.store.cup_matches.press_ready(
            cup_id, round_, slot, leg, players.index(user_id)
        )
        if sides is None:
            raise CupRefused("leg_gone")
        if sides != {0, 1} or not await self.store.cup_matches.take_start(
            cup_id, round_, slot, leg
        ):
            return Ready.WAITING
        row = await self.store.cup_matches.load(cup_id, round_, slot)
        try:
            if row is None or row.thread_id is None:
                raise RuntimeError("a match without its thread")
            game_id = await self.face.start_leg(cup, row.thread_id, players)
        except BaseException:
            await self.store.cup_matches.release(cup_id, round_, slot, leg)
            raise
        await self.store.cup_matches.started(cup_id, round_, slot, leg, game_id, self.cups.clock())
        return Ready.STARTED
