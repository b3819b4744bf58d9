"""When a Cup's steps are due, and making each once (RULES.md "Cup"); no discord here.

Its lead time (`CupRecord.lead_s`, an hour unless its admins chose) before its start a
Cup is announced (who qualified, a Check in button);
at the start it is drawn: the entrants (`_seeding`) seeded into the bracket, or, with
fewer than 2, the Cup cancelled and said so. A weekly Cup's next one is made at its
start, a week later at the same local hour. Each step is a move of the Cup's phase
under its version (one process wins) and an announcement claimed in `cup_posts`; a
process that dies between the two leaves a phase another look moves on, and an
announcement made once. Nothing is kept in memory: each look reads every open Cup this
process's shards own, so a step missed while the bot was down is made at the next.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import replace

from bot.cup._matches import POLL_S, MatchRunner
from bot.cup._seeding import entrants, qualified, zone_of
from bot.cup._service import CupService
from bot.cup._spec import Repeat, next_week
from bot.play import game_time
from bot.storage import CupPhase, CupRecord, StaleGame, next_cup_id
from rules.cup import draw

log = logging.getLogger(__name__)

IDLE_S = 3600.0
"""The longest sleep with nothing due (a Cup set up in this process wakes the loop)."""
RETRY_S = 60.0
"""How soon a step that failed (the channel unreachable, the store down) is tried again."""


class CupSchedule:
    def __init__(self, cups: CupService, owns: Callable[[int], bool] = lambda _: True) -> None:
        self.cups = cups
        self.store = cups.store
        self.clock = cups.clock
        self.owns = owns
        self.matches = MatchRunner(cups)
        self._task: asyncio.Task[None] | None = None
        self._sleeping = False
        self._again = False

    async def run_due(self) -> float:
        """Make every step due now; the seconds until the next one (`IDLE_S` at most)."""
        wait = IDLE_S
        for cup in await self.store.cups.open_cups():
            if not self.owns(cup.guild_id):
                continue
            try:
                stepped = await self._step(cup)
            except Exception:  # one Cup's failure must not hold up the others
                log.exception("Cup %s: its step failed; tried again", cup.id)
                wait = min(wait, RETRY_S)
                continue
            now = self.clock()
            wait = min(wait, max(0.0, due_at(stepped, now) - now))
        return wait

    async def _step(self, cup: CupRecord) -> CupRecord:
        """The Cup's due steps; the Cup as they left it."""
        now = self.clock()
        if cup.phase is CupPhase.SCHEDULED and now >= cup.starts_at - cup.lead_s:
            cup = await self._announce(cup)
        if cup.phase is CupPhase.ANNOUNCED and now >= cup.starts_at:
            cup = await self._draw(cup)
        elif (
            cup.phase is CupPhase.DRAWN
            and await self.store.cups.post_message(cup.id, "bracket") is None
        ):
            await self.cups.show_bracket(cup)  # its drawer died before posting it (once)
        if cup.phase is CupPhase.DRAWN:
            await self.matches.look(cup)
        return cup

    async def _announce(self, cup: CupRecord) -> CupRecord:
        game_set = await self.cups.sets.resolve(cup.guild_id, cup.set_name)
        names = await qualified(self.store, cup, game_set.version, self.clock())
        face = self.cups.face
        await self.cups.post_once(cup, "announce", lambda: face.announce(cup, names, ""))
        moved, _ = await self._move(cup, replace(cup, phase=CupPhase.ANNOUNCED))
        return moved

    async def _draw(self, cup: CupRecord) -> CupRecord:
        game_set = await self.cups.sets.resolve(cup.guild_id, cup.set_name)
        players = await entrants(self.store, cup, game_set.version, self.clock())
        if len(players) < 2:
            moved, _ = await self._move(cup, replace(cup, phase=CupPhase.CANCELLED))
            face = self.cups.face
            await self.cups.post_once(moved, "cancel", lambda: face.cancelled(moved, True))
        else:
            bracket = draw(players, cup.legs)
            moved, won = await self._move(cup, replace(cup, phase=CupPhase.DRAWN, bracket=bracket))
            if won:
                await self.cups.show_bracket(moved)
        await self._next(moved)
        return moved

    async def _move(self, cup: CupRecord, changed: CupRecord) -> tuple[CupRecord, bool]:
        """The Cup moved on: by this process (True), or by another first (False: then as
        it is stored, and that process shows what it did)."""
        try:
            return await self.store.cups.save(changed, self.clock()), True
        except StaleGame:
            stored = await self.store.cups.load(cup.id)
            if stored is None:
                raise
            return stored, False

    async def _next(self, cup: CupRecord) -> None:
        """A weekly Cup's next one, made once, whatever processes see it start."""
        if cup.repeat != Repeat.WEEKLY.value or cup.phase is CupPhase.SCHEDULED:
            return
        following = replace(
            cup, id=next_cup_id(cup.id), starts_at=next_week(cup.starts_at, zone_of(cup)),
            phase=CupPhase.SCHEDULED, bracket=None, champion=None, version=0,
            created_at=self.clock(),
        )  # fmt: skip
        if await self.store.cups.create_next(following, self.clock()) is not None:
            log.info("Cup %s: its next one is %s", cup.id, following.id)

    # the loop

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="cup-schedule")

    def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()

    def poke(self) -> None:
        """Look again now (a Cup was set up, changed or cancelled here): a sleeping loop
        is restarted; a looking one goes round once more before it sleeps."""
        if self._task is None:
            return
        if self._sleeping:
            self._task.cancel()
            self._task = asyncio.create_task(self._run(), name="cup-schedule")
        else:
            self._again = True

    async def _run(self) -> None:
        while True:
            self._again = False
            try:
                wait = await self.run_due()
            except Exception:
                log.exception("the Cups' schedule could not look; tried again")
                wait = RETRY_S
            if self._again:
                continue
            self._sleeping = True
            try:
                await game_time.wait(wait)
            finally:
                self._sleeping = False


def due_at(cup: CupRecord, now: float) -> float:
    """When the Cup's next step is due (a drawn Cup's matches: every `POLL_S`)."""
    if cup.phase is CupPhase.SCHEDULED:
        return cup.starts_at - cup.lead_s
    if cup.phase is CupPhase.ANNOUNCED:
        return cup.starts_at
    if cup.phase is CupPhase.DRAWN:
        return now + POLL_S
    return float("inf")
