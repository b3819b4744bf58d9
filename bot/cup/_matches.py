"""A drawn Cup's matches (RULES.md "Cup"), no discord: each open match gets a thread and
its legs called one by one; a leg starts when both players pressed Ready (an Online Duel
of the Cup's Set, opened through the games' public API by the face), and counts when its
duel ends; a side not Ready within the start window loses the match (neither: the higher
seed goes through). The next round's matches open as soon as theirs are known.

A leg's end is seen by looking at its duel (`GameStore.load_game`) each time the schedule
looks at the Cup (`POLL_S`): the duel machinery stays as it is and tells the Cup nothing,
and a restart loses nothing, since the look reads only what is stored.

The same look finishes a step a dead process left half done: a match opened without its
thread gets one and its first leg called (`STEP_LEASE_S` after it was opened; the thread
Discord made for the dead process is adopted, not made twice); a leg whose start was
taken but whose duel was never kept gets that duel: the one its players played or play
in the match's thread (the dead process opened it; kept at once, its result counted as
any leg's, so no leg is played twice), or, past the lease, a new one. A leg whose start
window ran out with its call never posted (the process died first) is called then, and
its window starts again: nobody forfeits a leg they were never called to. One process
takes each over.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from enum import StrEnum

from bot.cup._service import CupRefused, CupService
from bot.storage import (
    NO_THREAD,
    STARTING,
    CupMatchRecord,
    CupPhase,
    CupRecord,
    GameRecord,
    StaleGame,
)
from rules.cup import CupError, Leg, LegResult, Match, NoShow
from rules.cup import apply as apply_action
from rules.game import Termination

log = logging.getLogger(__name__)

START_WINDOW_S = 600.0
"""A leg not started this long after it was called is a no-show (RULES.md: 10 minutes)."""
POLL_S = 15.0
"""How often a Cup in play is looked at: its legs' duels, its start windows."""
STEP_LEASE_S = 300.0
"""A match's thread or a leg's duel still not kept this long after the step was taken:
the process taking it died (making a thread or a duel is a few REST calls, retried)."""


RECENT_GAMES = 5
"""A player's newest games looked through for a leg's duel a dead process opened: the
player was in it when the process died, and can have played few games since."""


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
        if await self.store.cup_matches.open(cup.id, match.round, match.slot, self.cups.clock()):
            await self._make_thread(cup, match)

    async def _make_thread(self, cup: CupRecord, match: Match, found: int | None = None) -> None:
        """The match's thread (`found`, or made), kept (or `NO_THREAD`: its players cannot
        be called, and the start window decides it), then its first leg called."""
        players = self.players(cup, match)
        thread_id = found
        if thread_id is None:
            thread_id = await self.face.match_opened(cup, match, players)
        kept = NO_THREAD if thread_id is None else thread_id
        await self.store.cup_matches.set_thread(cup.id, match.round, match.slot, kept)
        if thread_id is not None:
            await self.face.leg_called(cup, thread_id, match, 1, players)

    async def _resume(self, cup: CupRecord, match: Match, row: CupMatchRecord) -> bool:
        """A step a dead process left half done, finished once past its lease; True when
        this row was such a step (done here, by another process, or not due yet)."""
        now = self.cups.clock()
        due = now >= row.opened_at + STEP_LEASE_S
        matches, where = self.store.cup_matches, (cup.id, match.round, match.slot)
        if row.thread_id is None:
            if due and await matches.retake_open(*where, row.opened_at, now):
                found = await self.face.match_thread(cup, match)
                if found is not None and await matches.keeps_thread(found):
                    found = None  # an earlier Cup's match of the same name
                log.warning("Cup %s: match %s.%s had no thread; %s", *where,
                            "made" if found is None else f"adopted {found}")  # fmt: skip
                await self._make_thread(cup, match, found)
            return True
        if row.game_id == STARTING:
            players = self.players(cup, match)
            key = (*where, row.leg)
            opened = await self._duel_in_thread(cup, row, players)
            if opened is not None:  # kept as the process opening it would keep it
                await matches.started(*key, opened, now)
            elif due and await matches.retake_start(*key, row.opened_at, now):
                log.warning("Cup %s: match %s.%s leg %s was left starting; started", *key)
                await self._start_duel(cup, row, players)
            return True
        return False

    async def _step(self, cup: CupRecord, match: Match, row: CupMatchRecord) -> bool:
        """One match's due step; True when the bracket changed."""
        if await self._resume(cup, match, row):
            return False
        now = self.cups.clock()
        if row.game_id is not None:
            game = await self.store.games.load_game(row.game_id)
            result = None if game is None else leg_result(game)
            return result is not None and await self._count(cup, match, row, result)
        if now < row.opened_at + START_WINDOW_S or await self._call_unseen(cup, match, row):
            return False
        absent = frozenset({0, 1}) - row.ready
        decided = await self.cups.record(cup.id, NoShow(match.round, match.slot, absent))
        await self.store.cup_matches.close(cup.id, match.round, match.slot)
        if decided is not None and decided.bracket is not None and row.thread_id:
            done = decided.bracket.match(match.round, match.slot)
            await self.face.match_decided(decided, row.thread_id, done)
        return decided is not None

    async def _call_unseen(self, cup: CupRecord, match: Match, row: CupMatchRecord) -> bool:
        """A leg whose start window ran out with nobody Ready and no call in its thread:
        the process calling it died first. Called now, by one process, its window from
        now; True while so (nobody forfeits). Read only when the window runs out: one
        read of the thread a no-show, not one a look."""
        if row.ready or not row.thread_id:
            return False
        if await self.face.leg_call_seen(cup, row.thread_id, match, row.leg):
            return False
        key = (cup.id, match.round, match.slot, row.leg)
        if await self.store.cup_matches.retake_call(*key, row.opened_at, self.cups.clock()):
            log.warning("Cup %s: match %s.%s leg %s was never called; called", *key)
            players = self.players(cup, match)
            await self.face.leg_called(cup, row.thread_id, match, row.leg, players)
        return True

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
        if row.thread_id:
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
            cup_id, round_, slot, leg, self.cups.clock()
        ):
            return Ready.WAITING
        row = await self.store.cup_matches.load(cup_id, round_, slot)
        if row is None or not row.thread_id:
            await self.store.cup_matches.release(cup_id, round_, slot, leg, self.cups.clock())
            raise RuntimeError("a match without its thread")
        await self._start_duel(cup, row, players)
        return Ready.STARTED

    async def _start_duel(
        self, cup: CupRecord, row: CupMatchRecord, players: tuple[int, int]
    ) -> None:
        """The leg's duel opened and kept, its start taken by this process; a duel that
        could not be opened gives the start back (the players press Ready again)."""
        matches, key = self.store.cup_matches, (cup.id, row.round, row.slot, row.leg)
        try:
            game_id = await self.face.start_leg(cup, row.thread_id or NO_THREAD, players)
        except BaseException:
            await matches.release(*key, self.cups.clock())
            raise
        await matches.started(*key, game_id, self.cups.clock())

    async def _duel_in_thread(
        self, cup: CupRecord, row: CupMatchRecord, players: tuple[int, int]
    ) -> str | None:
        """The duel the match's players play or played in its thread that is no leg yet:
        the starting leg's, opened by a process that died before keeping it (running or
        already over: its result is the leg's). Kept at once: the id it would have kept."""
        legs = {leg.game_id for leg in await self.store.cups.legs(cup.id)}
        recent = await self.store.games.history(cup.guild_id, players[0], limit=RECENT_GAMES)
        for game in recent:
            if (
                game.channel_id == row.thread_id
                and game.state.players == [str(p) for p in players]
                and game.state.id not in legs
            ):
                return game.state.id
        return None
