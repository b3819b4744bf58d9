"""Exactly once without Discord: two processes' schedules on one store announce and draw a
Cup once and make its next weekly one once; a match's result applied by two processes
counts once; the champion is announced and told to `CupEvents` once."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field, replace
from typing import Any, cast

import pytest

from bot.common import SetsDirectory
from bot.cup import CupFace, CupSchedule, CupService
from bot.storage import CupPhase, CupRecord, Store
from rules import load_sets
from rules.cup import Decision, Leg, LegResult, NoShow, draw

pytestmark = pytest.mark.asyncio(loop_scope="session")

T0 = 1_767_225_600.0  # 2026-01-01 00:00 UTC


@dataclass
class Seen:
    """What every process's face was asked to post, and the champions crowned."""

    posts: list[str] = field(default_factory=list)
    crowned: list[tuple[int, int, int]] = field(default_factory=list)


class Face:
    def __init__(self, seen: Seen) -> None:
        self.seen = seen

    async def _post(self, what: str) -> int:
        await asyncio.sleep(0)  # let the other process run in between
        self.seen.posts.append(what)
        return len(self.seen.posts)

    async def announce(self, cup: CupRecord, qualified: list[str], version: str) -> int:
        return await self._post("announce")

    async def cancelled(self, cup: CupRecord, too_few: bool) -> int:
        return await self._post("cancel")

    async def bracket(self, cup: CupRecord, message_id: int | None) -> int:
        return await self._post("bracket" if message_id is None else "bracket edit")

    async def champion(self, cup: CupRecord, bracket: object) -> int:
        return await self._post("champion")


class Events:
    def __init__(self, seen: Seen) -> None:
        self.seen = seen

    async def champion_crowned(self, guild_id: int, user_id: int, cup_id: int) -> None:
        self.seen.crowned.append((guild_id, user_id, cup_id))


def process(store: Store, seen: Seen, now: list[float]) -> CupSchedule:
    sets = SetsDirectory(store, load_sets())
    face = cast(CupFace, Face(seen))  # announcing and drawing only: no match is played here
    service = CupService(store, sets, face, lambda: now[0], Events(seen))
    return CupSchedule(service)


BASE = CupRecord(
    id=7, guild_id=1, channel_id=5, name="Cup", set_name="darts", starts_at=T0 + 7200,
    zone="Europe/Kyiv", repeat="weekly", size=8, legs=3, seeding="elo", locale="en",
    created_by="9", created_at=T0,
)  # fmt: skip


def a_cup(**changes: Any) -> CupRecord:
    return replace(BASE, **changes)


async def test_two_processes_announce_and_draw_once(store: Store) -> None:
    seen, now = Seen(), [T0]
    first, second = process(store, seen, now), process(store, seen, now)
    await store.cups.save(a_cup(), T0)
    now[0] = T0 + 3600
    await asyncio.gather(first.run_due(), second.run_due())
    assert seen.posts == ["announce"]
    for player, at in (("11", 1.0), ("12", 2.0), ("13", 3.0)):
        assert await store.cups.check_in(7, player, T0 + 3600 + at)
    now[0] = T0 + 7200
    await asyncio.gather(first.run_due(), second.run_due(), first.run_due())
    assert seen.posts == ["announce", "bracket"]
    drawn = await store.cups.load(7)
    assert drawn is not None and drawn.phase is CupPhase.DRAWN and drawn.bracket is not None
    assert drawn.bracket.entrants == ("11", "12", "13")  # all unrated: who checked in first
    cups = await store.cups.of_server(1)
    assert len(cups) == 2 and cups[1].phase is CupPhase.SCHEDULED
    assert cups[1].starts_at == T0 + 7200 + 7 * 86400  # Kyiv has no clock change in January


async def test_results_count_once_and_the_champion_is_crowned_once(store: Store) -> None:
    seen, now = Seen(), [T0]
    first, second = process(store, seen, now), process(store, seen, now)
    bracket = draw(["11", "12", "13", "14"], 3)
    await store.cups.save(a_cup(id=8, phase=CupPhase.DRAWN, bracket=bracket), T0)
    one, two = first.cups, second.cups
    await one.record(8, NoShow(1, 0, frozenset({1})))  # seed 4 does not show
    assert await two.record(8, NoShow(1, 0, frozenset({1}))) is None  # decided already
    for result in (LegResult.FIRST, LegResult.DRAW, LegResult.DRAW, LegResult.SECOND):
        await one.record(8, Leg(1, 1, result))
    cup = await store.cups.load(8)
    assert cup is not None and cup.bracket is not None
    semi = cup.bracket.match(1, 1)
    assert semi.wins == (1, 1) and semi.winner is None  # a drawn leg is replayed
    await one.record(8, Leg(1, 1, LegResult.SECOND))
    final = (await store.cups.load(8)).bracket.match(2, 0)  # type: ignore[union-attr]
    assert final.seeds == (1, 3)
    await one.record(8, Leg(2, 0, LegResult.FIRST))
    await asyncio.gather(
        one.record(8, Leg(2, 0, LegResult.FIRST)), two.record(8, Leg(2, 0, LegResult.FIRST))
    )
    over = await store.cups.load(8)
    assert over is not None and over.phase is CupPhase.OVER and over.champion == "11"
    assert over.bracket is not None and over.bracket.match(2, 0).decision is Decision.LEGS
    assert seen.posts.count("champion") == 1 and seen.posts.count("bracket") == 1
    assert seen.crowned == [(1, 11, 8)]
    assert [c.id for c in await store.cups.champions(1)] == [8]
