"""The Cup's service: what admins and players ask of a Cup, and its results (no discord).

Admins set Cups up (`create`, `edit`, `cancel`, `listed`, `show`); players check in;
a no-show goes through `record` (a `rules.cup` action), which saves the new bracket
under the Cup's version (a racing process is told `StaleGame`, reloads and finds the
match decided); `show_bracket` edits the bracket in place and `crown` announces the
champion once. When things are due (the announcement, the draw, the matches' steps) is
`_schedule`'s and `_matches`'.
"""

from __future__ import annotations

import logging
import secrets
import uuid
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime
from enum import StrEnum
from typing import Any

from bot.common import SetsDirectory, UnknownSet, UserError
from bot.cup._events import CupEvents, CupFace, NoCupEvents
from bot.cup._seeding import board, zone_of
from bot.cup._spec import START_FORMAT, CupProblem, CupSpec, Seeding, parse_spec
from bot.storage import CUP_ID_BITS, CupPhase, CupRecord, StaleGame, Store
from rules.cup import CupAction, CupError
from rules.cup import apply as apply_action

log = logging.getLogger(__name__)

LEASE_S = 300.0
"""An announcement claimed this long ago and never marked done was a crash mid-post."""


class CupRefused(UserError):
    prefix = "cup.error."


class NotDrawable(UserError):
    """A Check in from a player the draw could not take (not on the Cup's board)."""

    prefix = "cup_more.error."


class CheckIn(StrEnum):
    """What a Check in press came to."""

    IN = "in"
    ALREADY = "already"


class CupService:
    def __init__(
        self,
        store: Store,
        sets: SetsDirectory,
        face: CupFace,
        clock: Callable[[], float],
        events: CupEvents | None = None,
        on_change: Callable[[], None] | None = None,
    ) -> None:
        """`on_change`: a Cup was set up or changed (the schedule looks again)."""
        self.store = store
        self.sets = sets
        self.face = face
        self.clock = clock
        self.events: CupEvents = events or NoCupEvents()
        self.on_change = on_change or (lambda: None)
        self.owner = uuid.uuid4().hex[:16]
        """This process, in the claims of announcements (`cup_posts`)."""

    # admins

    async def _spec(self, guild_id: int, options: dict[str, Any]) -> tuple[CupSpec, str]:
        """The settings and the Set's name, or every problem at once."""
        problems: list[CupProblem] = []
        set_name = ""
        try:
            set_name = (await self.sets.resolve(guild_id, options.get("set_name"))).name
        except UnknownSet as unknown:
            problems.append(CupProblem("set", "set", tuple(unknown.params.items())))
        zone = (await self.store.servers.settings(guild_id)).zone
        return parse_spec(options, zone, self.clock(), problems), set_name

    async def create(
        self, guild_id: int, channel_id: int, admin: int, locale: str, options: dict[str, Any]
    ) -> CupRecord:
        spec, set_name = await self._spec(guild_id, options)
        settings = await self.store.servers.settings(guild_id)
        now = self.clock()
        for _ in range(3):  # a random id taken already (one in 10**12): another
            cup = CupRecord(
                id=secrets.randbelow((1 << CUP_ID_BITS) - 1) + 1, guild_id=guild_id,
                channel_id=channel_id, name=spec.name, set_name=set_name,
                starts_at=spec.starts_at, zone=settings.timezone, repeat=spec.repeat.value,
                size=spec.size, legs=spec.legs, seeding=spec.seeding.value, lead_s=spec.lead_s,
                locale=settings.language or locale, created_by=str(admin), created_at=now,
            )  # fmt: skip
            try:
                saved = await self.store.cups.save(cup, now)
            except StaleGame:
                continue
            self.on_change()
            return saved
        raise RuntimeError("no free Cup id")

    async def _own(self, guild_id: int, cup_id: int) -> CupRecord:
        cup = await self.store.cups.find(guild_id, cup_id)
        if cup is None:
            raise CupRefused("unknown", id=cup_id)
        return cup

    async def edit(self, guild_id: int, cup_id: int, options: dict[str, Any]) -> CupRecord:
        """Change what the admin gave (the rest stays); only before the announcement."""
        cup = await self._own(guild_id, cup_id)
        if cup.phase is not CupPhase.SCHEDULED:
            raise CupRefused("started", name=cup.name)
        current = {"name": cup.name, "set_name": cup.set_name, "repeat": cup.repeat,
                   "size": cup.size, "legs": cup.legs, "seeding": cup.seeding,
                   "start": _local_start(cup), "lead": round(cup.lead_s / 60)}  # fmt: skip
        current |= {key: value for key, value in options.items() if value is not None}
        spec, set_name = await self._spec(guild_id, current)
        changed = replace(
            cup, name=spec.name, set_name=set_name, starts_at=spec.starts_at,
            repeat=spec.repeat.value, size=spec.size, legs=spec.legs, seeding=spec.seeding.value,
            lead_s=spec.lead_s,
        )  # fmt: skip
        try:
            saved = await self.store.cups.save(changed, self.clock())
        except StaleGame:  # announced meanwhile
            raise CupRefused("started", name=cup.name) from None
        self.on_change()
        return saved

    async def cancel(self, guild_id: int, cup_id: int) -> CupRecord:
        """Call the Cup off (a weekly one's next is not made); said in its channel when it
        was announced already."""
        cup = await self._own(guild_id, cup_id)
        if cup.phase in (CupPhase.OVER, CupPhase.CANCELLED):
            raise CupRefused("over", name=cup.name)
        try:
            saved = await self.store.cups.save(replace(cup, phase=CupPhase.CANCELLED), self.clock())
        except StaleGame:
            raise CupRefused("busy", name=cup.name) from None
        if cup.phase is not CupPhase.SCHEDULED:
            await self.post_once(saved, "cancel", lambda: self.face.cancelled(saved, False))
        self.on_change()
        return saved

    async def listed(self, guild_id: int, *, open_only: bool = True) -> list[CupRecord]:
        return await self.store.cups.of_server(guild_id, open_only=open_only)

    async def show(self, guild_id: int, cup_id: int) -> tuple[CupRecord, list[str]]:
        """The Cup and who checked in."""
        cup = await self._own(guild_id, cup_id)
        return cup, await self.store.cups.entries(cup.id)

    async def history(self, guild_id: int) -> list[CupRecord]:
        return await self.store.cups.champions(guild_id)

    # players

    async def check_in(self, guild_id: int, cup_id: int, user_id: int) -> CheckIn:
        cup = await self._own(guild_id, cup_id)
        if cup.phase is CupPhase.SCHEDULED:
            raise CupRefused("not_open", name=cup.name)
        if cup.phase is not CupPhase.ANNOUNCED or self.clock() >= cup.starts_at:
            raise CupRefused("closed", name=cup.name)
        if await self.store.moderation.barred_reason(guild_id, user_id) is not None:
            raise CupRefused("barred")
        await self._ensure_drawable(cup, user_id)
        joined = await self.store.cups.check_in(cup.id, str(user_id), self.clock())
        return CheckIn.IN if joined else CheckIn.ALREADY

    async def _ensure_drawable(self, cup: CupRecord, user_id: int) -> None:
        """A Qualification-seeded Cup draws only its board's players (`entrants`): one not
        on it is told so, and what gets them on it, rather than checked in for nothing."""
        seeding = Seeding(cup.seeding)
        if not seeding.qualified:
            return
        game_set = await self.sets.resolve(cup.guild_id, cup.set_name)
        if str(user_id) not in await board(self.store, cup, game_set.version, self.clock()):
            raise NotDrawable(f"not_on_board.{seeding.value}", set=cup.set_name, name=cup.name)

    # results

    async def record(self, cup_id: int, action: CupAction) -> CupRecord | None:
        """Apply a decision that ends a match (a no-show) to the bracket, once: None when
        the match is decided already (by another process or an earlier try). A leg's
        result goes through `MatchRunner`, which keys it by the leg so it counts once."""
        for _ in range(3):
            cup = await self.store.cups.load(cup_id)
            if cup is None or cup.bracket is None or cup.phase is not CupPhase.DRAWN:
                return None
            try:
                bracket = apply_action(cup.bracket, action)
            except CupError:
                return None
            champion = bracket.champion
            changed = replace(
                cup, bracket=bracket, champion=champion,
                phase=CupPhase.OVER if champion is not None else cup.phase,
            )  # fmt: skip
            try:
                saved = await self.store.cups.save(changed, self.clock())
            except StaleGame:
                continue
            await self.show_bracket(saved)
            if champion is not None:
                await self.crown(saved)
            return saved
        return None

    async def show_bracket(self, cup: CupRecord) -> None:
        """The bracket message: posted once at the draw, edited in place after."""
        message = await self.store.cups.post_message(cup.id, "bracket")
        if message is None:
            await self.post_once(cup, "bracket", lambda: self.face.bracket(cup, None))
            return
        try:
            await self.face.bracket(cup, message)
        except Exception:  # the next result edits it again
            log.exception("the bracket of Cup %s could not be edited", cup.id)

    async def crown(self, cup: CupRecord) -> None:
        """The champion: announced once, and told to the other features once."""
        bracket, champion = cup.bracket, cup.champion
        if bracket is None or champion is None:
            return
        if await self.post_once(cup, "champion", lambda: self.face.champion(cup, bracket)):
            await self.events.champion_crowned(cup.guild_id, int(champion), cup.id)

    async def post_once(self, cup: CupRecord, what: str, post: Any) -> bool:
        """Make the announcement `what` unless it is made (or being made elsewhere):
        True when this call made it."""
        cups = self.store.cups
        if not await cups.claim_post(cup.id, what, self.owner, self.clock(), LEASE_S):
            return False
        message = await post()
        await cups.finish_post(cup.id, what, self.owner, message, self.clock())
        return True


def _local_start(cup: CupRecord) -> str:
    return datetime.fromtimestamp(cup.starts_at, zone_of(cup)).strftime(START_FORMAT)
