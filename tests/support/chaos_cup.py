"""Cups in the chaos walk (tests/support/chaos.py): an admin sets one up as the walk
begins (another when a clock jump carried one past its end, up to `cups_at_most`); players check
in while it is announced and press Ready in their match threads once it is drawn (the
walk's `answer` plays the legs' duels like any other), among the walk's faults, restarts
and crashes. Once the faults stop, the matches left are played out: both players show up
and answer each leg (`play_out`); when the walk's clock jumps left no leg played, the
play-out sets up one more Cup and plays it so."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING

import simcord

from bot.storage import CupMatchRecord, CupPhase, CupRecord
from tests.support.chaos_rooms import button

if TYPE_CHECKING:
    from tests.support.chaos import Chaos

STARTS_IN_S = 10 * 60
"""Within the hour before its start, so it is announced at once and drawn during the walk."""
CUPS = 3
"""A clock jump may carry a Cup past its start windows (every match a no-show): the
walk sets up another while it has not made this many."""
READY = "fd:cup:ready:"
OPEN = (CupPhase.SCHEDULED, CupPhase.ANNOUNCED, CupPhase.DRAWN)


@dataclass
class CupWalk:
    chaos: Chaos
    legs: int = 3
    cups_at_most: int = CUPS
    admin: simcord.MemberActor | None = None
    made: int = 0
    played_out: bool = False
    """Whether the play-out set up a Cup of its own (once: when no leg was played before)."""

    async def create(self, admin: simcord.MemberActor) -> None:
        """Set up a Cup: once, open entry (seeded by Elo), room for every player."""
        self.admin, self.made = admin, self.made + 1
        start = self.chaos.env.now() + timedelta(seconds=STARTS_IN_S)
        made = await admin.slash(
            self.chaos.channel, "cup create", name=f"Chaos Cup {self.made}", set="darts",
            start=start.strftime("%Y-%m-%d %H:%M"), repeat="once", seeding="elo",
            size=8, legs=self.legs,
        )  # fmt: skip
        self.chaos.saw(made)

    async def cups(self) -> list[CupRecord]:
        store, guild = self.chaos.store, self.chaos.guild.id
        return await self.chaos.quietly(store.cups.of_server(guild, open_only=False))

    async def step(self) -> None:
        cups = await self.cups()
        if (
            self.admin is not None
            and self.made < self.cups_at_most
            and not any(c.phase in OPEN for c in cups)
        ):
            await self.create(self.admin)
        for cup in cups:
            if cup.phase is CupPhase.ANNOUNCED:
                await self._check_in(cup)
            elif cup.phase is CupPhase.DRAWN:
                await self._ready(cup)

    async def _check_in(self, cup: CupRecord) -> None:
        """Players press the announcement's Check in (some twice: refused, told so)."""
        chaos = self.chaos
        prefix = f"fd:cup:in:{cup.id}"
        posts = [m for m in chaos.channel.history() if button(m, prefix)]
        if posts:
            for player in chaos.players:
                if chaos.side.random() < 0.75:
                    await chaos.press(player, posts[-1], prefix)

    async def _ready(self, cup: CupRecord) -> None:
        """The players of a match waiting for its leg press Ready in the match's thread
        (each now and then, so that some legs start and some sides do not show)."""
        chaos = self.chaos
        matches = await chaos.quietly(chaos.store.cup_matches.of_cup(cup.id))
        waiting = [m for m in matches.values() if not m.done and m.game_id is None]
        if not waiting or cup.bracket is None:
            return
        match = chaos.side.choice(waiting)
        thread = next((t for t in chaos.channel.threads if t.id == match.thread_id), None)
        members = self._sides(cup, match)
        calls = [] if thread is None else [m for m in thread.history() if button(m, READY)]
        for member in members:
            if calls and chaos.side.random() < 0.8:
                await chaos.press(member, calls[-1], READY)

    async def play_out(self) -> None:
        """Once the faults stop, every match's players show up: both press Ready and answer
        each round of their leg. A short walk of faults and clock jumps may otherwise decide
        every match by no-shows, and the run would hold exactly-once for no leg at all."""
        chaos = self.chaos
        cups = await self.cups()
        settled = not any(c.phase in OPEN for c in cups)
        if not self.played_out and self.admin is not None and settled:
            legs = [leg for cup in cups for leg in await chaos.store.cups.legs(cup.id)]
            if not legs:  # the walk's jumps decided every match by no-shows: one more Cup
                self.played_out = True
                await self.create(self.admin)
                return
        for cup in cups:
            if cup.phase is CupPhase.ANNOUNCED:
                posts = [m for m in chaos.channel.history() if button(m, f"fd:cup:in:{cup.id}")]
                for player in chaos.players if posts else []:
                    await chaos.press(player, posts[-1], f"fd:cup:in:{cup.id}")
            if cup.phase is not CupPhase.DRAWN or cup.bracket is None:
                continue
            for match in (await chaos.store.cup_matches.of_cup(cup.id)).values():
                thread = next((t for t in chaos.channel.threads if t.id == match.thread_id), None)
                if match.done or thread is None:
                    continue
                if match.game_id is not None:
                    await chaos.answer_every_seat(match.game_id)
                    continue
                calls = [m for m in thread.history() if button(m, READY)]
                for member in self._sides(cup, match) if calls else []:
                    await chaos.press(member, calls[-1], READY)

    def _sides(self, cup: CupRecord, match: CupMatchRecord) -> list[simcord.MemberActor]:
        assert cup.bracket is not None
        seeds = cup.bracket.match(match.round, match.slot).seeds
        sides = [cup.bracket.player(seed) for seed in seeds]
        return [p for p in self.chaos.players if str(p.id) in sides]

    async def waiting(self) -> bool:
        """Whether a match waits for its players' Ready (the walk's next move is theirs)."""
        for cup in await self.cups():
            if cup.phase is CupPhase.DRAWN:
                matches = await self.chaos.quietly(self.chaos.store.cup_matches.of_cup(cup.id))
                if any(not m.done and m.game_id is None for m in matches.values()):
                    return True
        return False

    async def undecided(self) -> bool:
        return any(cup.phase in OPEN for cup in await self.cups())
