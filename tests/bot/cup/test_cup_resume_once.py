"""A step a dead process left half done is finished once, by one of two live processes
looking at the same moment, on SQLite and on PostgreSQL: a match opened without its
thread gets one thread and one call of its first leg; a leg left "starting" gets one
duel; a leg whose call was never posted gets one call when its window runs out. Before
the lease (or the window) runs out, neither touches it (the first process may be alive)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import cast

import pytest

from bot.common import SetsDirectory
from bot.cup import CupFace, CupService
from bot.cup._matches import START_WINDOW_S, STEP_LEASE_S, MatchRunner
from bot.storage import STARTING, CupPhase, CupRecord, Store, open_store
from rules import load_sets
from rules.cup import draw
from tests.support.postgres import fresh_database

T0 = 1_767_225_600.0
CUP = CupRecord(
    id=9, guild_id=1, channel_id=5, name="Cup", set_name="darts", starts_at=T0,
    zone="UTC", repeat="once", size=4, legs=3, seeding="elo", locale="en",
    created_by="9", created_at=T0, phase=CupPhase.DRAWN, bracket=draw(["11", "12"], 3),
)  # fmt: skip


class Face:
    """Counts what both processes asked Discord for; yields between, so they interleave."""

    def __init__(self) -> None:
        self.calls: list[str] = []
        self.found: int | None = None
        """The bot's thread of the match's name Discord has (`match_thread`)."""
        self.made = 77

    async def _call(self, what: str) -> None:
        await asyncio.sleep(0)
        self.calls.append(what)

    async def bracket(self, cup: CupRecord, message_id: int | None) -> int:
        await self._call("bracket")
        return 1

    async def match_opened(self, cup: CupRecord, match: object, players: object) -> int:
        await self._call("thread")
        return self.made

    async def match_thread(self, cup: CupRecord, match: object) -> int | None:
        await asyncio.sleep(0)
        return self.found

    async def leg_call_seen(self, *args: object) -> bool:
        await asyncio.sleep(0)
        return "leg called" in self.calls

    async def leg_called(self, *args: object) -> None:
        await self._call("leg called")

    async def start_leg(self, cup: CupRecord, thread_id: int, players: object) -> str:
        await self._call(f"duel in {thread_id}")
        return "d" * 32


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
async def shared(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    if request.param == "sqlite":
        opened = await open_store(f"sqlite+aiosqlite:///{tmp_path}/cup.sqlite3")
        yield opened
        await opened.close()
        return
    async with fresh_database(request.getfixturevalue("postgres_server")) as url:
        opened = await open_store(url)
        yield opened
        await opened.close()


def runner(store: Store, face: Face, now: list[float]) -> MatchRunner:
    sets = SetsDirectory(store, load_sets())
    return MatchRunner(CupService(store, sets, cast(CupFace, face), lambda: now[0]))


async def both_look(store: Store, face: Face, now: list[float]) -> None:
    cup = await store.cups.load(CUP.id)
    assert cup is not None
    first, second = runner(store, face, now), runner(store, face, now)
    await asyncio.gather(first.look(cup), second.look(cup))


async def test_a_match_left_without_its_thread_is_given_one_once(shared: Store) -> None:
    await shared.cups.save(CUP, T0)
    assert await shared.cup_matches.open(CUP.id, 1, 0, T0)  # and the process died
    face, now = Face(), [T0 + STEP_LEASE_S - 1]
    await both_look(shared, face, now)
    assert face.calls == []  # within the lease: maybe still being made
    now[0] = T0 + STEP_LEASE_S + 1
    await both_look(shared, face, now)
    await both_look(shared, face, now)
    assert face.calls == ["thread", "leg called"]
    row = await shared.cup_matches.load(CUP.id, 1, 0)
    assert row is not None and row.thread_id == 77 and row.opened_at == now[0]


async def test_a_leg_left_starting_gets_one_duel(shared: Store) -> None:
    await shared.cups.save(CUP, T0)
    matches = shared.cup_matches
    assert await matches.open(CUP.id, 1, 0, T0)
    await matches.set_thread(CUP.id, 1, 0, 77)
    await matches.press_ready(CUP.id, 1, 0, 1, 0)
    await matches.press_ready(CUP.id, 1, 0, 1, 1)
    assert await matches.take_start(CUP.id, 1, 0, 1, T0 + 10)  # and the process died
    face, now = Face(), [T0 + 10 + STEP_LEASE_S - 1]
    await both_look(shared, face, now)
    assert face.calls == []
    now[0] = T0 + 10 + STEP_LEASE_S + 1
    await both_look(shared, face, now)
    await both_look(shared, face, now)
    assert face.calls == ["duel in 77"]
    row = await matches.load(CUP.id, 1, 0)
    assert row is not None and row.game_id == "d" * 32
    legs = await shared.cups.legs(CUP.id)
    assert [(leg.leg, leg.game_id) for leg in legs] == [(1, "d" * 32)]
    assert row.game_id != STARTING


async def test_a_leg_never_called_is_called_once_when_its_window_runs_out(shared: Store) -> None:
    await shared.cups.save(CUP, T0)
    matches = shared.cup_matches
    assert await matches.open(CUP.id, 1, 0, T0)
    await matches.set_thread(CUP.id, 1, 0, 77)  # and the process died before calling leg 1
    face, now = Face(), [T0 + START_WINDOW_S - 1]
    await both_look(shared, face, now)
    assert face.calls == []  # its window still runs
    now[0] = T0 + START_WINDOW_S + 1
    await both_look(shared, face, now)
    await both_look(shared, face, now)
    assert face.calls == ["leg called"]
    row = await matches.load(CUP.id, 1, 0)
    assert row is not None and row.opened_at == now[0] and not row.done  # nobody forfeited
    stored = await shared.cups.load(CUP.id)
    assert stored is not None and stored.phase is CupPhase.DRAWN


async def test_a_thread_of_the_same_name_kept_by_another_cup_is_not_adopted(
    shared: Store,
) -> None:
    """Last week's Cup of the same name left its final's thread active (its archive
    failed): a takeover finding it by name makes the match its own thread."""
    await shared.cups.save(replace(CUP, id=8), T0 - 7 * 86400)
    assert await shared.cup_matches.open(8, 1, 0, T0 - 7 * 86400)
    await shared.cup_matches.set_thread(8, 1, 0, 77)
    await shared.cups.save(CUP, T0)
    assert await shared.cup_matches.open(CUP.id, 1, 0, T0)  # and the process died
    face, now = Face(), [T0 + STEP_LEASE_S + 1]
    face.found, face.made = 77, 78
    await both_look(shared, face, now)
    assert face.calls == ["thread", "leg called"]
    row = await shared.cup_matches.load(CUP.id, 1, 0)
    assert row is not None and row.thread_id == 78
