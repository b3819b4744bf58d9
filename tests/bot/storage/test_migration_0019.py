"""Migration 0019 on a database populated at 0018, SQLite and PostgreSQL: what was there
stays, and Cups are stored, drawn once, checked in to once, announced once."""

from __future__ import annotations

from dataclasses import replace

import pytest
import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage import CupPhase, CupRecord, LegRecord, StaleGame, next_cup_id, open_store
from rules.cup import Leg, LegResult, apply, draw
from tests.bot.storage.migrating import upgrade_from

T0 = 1_700_000_000.0


def a_cup(cup_id: int = 101, guild_id: int = 1) -> CupRecord:
    return CupRecord(
        id=cup_id, guild_id=guild_id, channel_id=5, name="Friday Cup", set_name="classic",
        starts_at=T0 + 7200, zone="Europe/Kyiv", repeat="weekly", size=8, legs=3,
        seeding="week", locale="uk", created_by="10", created_at=T0,
    )  # fmt: skip


async def test_a_database_at_0018_upgrades_and_keeps_cups(db_url: str) -> None:
    room = {"id": "r1", "guild_id": 1, "channel_id": 5, "locale": "en", "phase": "over",
            "version": 3, "state": "{}", "created_at": 1.0, "updated_at": 2.0}  # fmt: skip

    async def kept(conn: AsyncConnection) -> None:
        assert (await conn.execute(sa.text("SELECT version FROM rooms"))).scalar() == 3

    await upgrade_from(db_url, "0018", {"rooms": [room]}, then=kept)
    store = await open_store(db_url)
    try:
        cups = store.cups
        saved = await cups.save(a_cup(), T0)
        assert saved.version == 1 and await cups.load(101) == saved
        with pytest.raises(StaleGame):
            await cups.save(a_cup(), T0)  # a second Cup of that id
        assert [c.id for c in await cups.open_cups()] == [101]
        assert (await cups.find(1, 101)) == saved and await cups.find(2, 101) is None

        # check-ins: once each, in order
        assert await cups.check_in(101, "11", T0 + 1)
        assert not await cups.check_in(101, "11", T0 + 2)
        assert await cups.check_in(101, "12", T0 + 3)
        assert await cups.entries(101) == ["11", "12"]

        # the draw: two processes at once, one wins
        bracket = draw(["11", "12"], 3)
        drawn = await cups.save(replace(saved, phase=CupPhase.DRAWN, bracket=bracket), T0 + 2)
        with pytest.raises(StaleGame):
            await cups.save(replace(saved, phase=CupPhase.DRAWN, bracket=bracket), T0 + 2)
        loaded = await cups.load(101)
        assert loaded is not None and loaded.bracket == bracket and loaded.phase is CupPhase.DRAWN

        # legs and the result
        assert await cups.add_leg(101, LegRecord(1, 0, 1, "g1"), T0 + 3)
        assert not await cups.add_leg(101, LegRecord(1, 0, 1, "g9"), T0 + 3)
        bracket = apply(apply(bracket, Leg(1, 0, LegResult.FIRST)), Leg(1, 0, LegResult.FIRST))
        await cups.add_leg(101, LegRecord(1, 0, 2, "g2"), T0 + 4)
        assert [leg.game_id for leg in await cups.legs(101)] == ["g1", "g2"]
        over = await cups.save(
            replace(drawn, phase=CupPhase.OVER, bracket=bracket, champion=bracket.champion), T0
        )
        assert over.champion == "11" and await cups.open_cups() == []
        assert [c.id for c in await cups.champions(1)] == [101]
        assert [c.id for c in await cups.of_server(1, open_only=False)] == [101]

        # the next weekly Cup: made once
        following = replace(a_cup(next_cup_id(101)), starts_at=T0 + 7 * 86400)
        assert await cups.create_next(following, T0) is not None
        assert await cups.create_next(following, T0) is None

        # an announcement: claimed once; taken over only past its lease
        assert await cups.claim_post(101, "draw", "a", T0, lease=300)
        assert not await cups.claim_post(101, "draw", "b", T0 + 10, lease=300)
        assert await cups.claim_post(101, "draw", "b", T0 + 400, lease=300)
        await cups.finish_post(101, "draw", "b", 77, T0 + 401)
        assert not await cups.claim_post(101, "draw", "c", T0 + 9999, lease=300)
        assert await cups.post_message(101, "draw") == 77
    finally:
        await store.close()


async def test_a_match_starts_each_leg_once_and_counts_it_once(db_url: str) -> None:
    store = await open_store(db_url)
    try:
        bracket = draw(["11", "12"], 3)
        cup = await store.cups.save(replace(a_cup(202), phase=CupPhase.DRAWN, bracket=bracket), T0)
        matches = store.cup_matches
        assert await matches.open(202, 1, 0, T0) and not await matches.open(202, 1, 0, T0)
        await matches.set_thread(202, 1, 0, 99)
        assert await matches.press_ready(202, 1, 0, 1, 1) == frozenset({1})
        assert not await matches.take_start(202, 1, 0, 1, T0 + 4)  # one side only
        assert await matches.press_ready(202, 1, 0, 1, 0) == frozenset({0, 1})
        assert await matches.take_start(202, 1, 0, 1, T0 + 4)
        assert not await matches.take_start(202, 1, 0, 1, T0 + 4)
        assert await matches.press_ready(202, 1, 0, 1, 0) is None  # the leg is starting
        await matches.started(202, 1, 0, 1, "g1", T0 + 5)
        match = await matches.load(202, 1, 0)
        assert match is not None and match.game_id == "g1" and match.thread_id == 99

        won = replace(cup, bracket=apply(bracket, Leg(1, 0, LegResult.FIRST)))
        saved = await matches.finish_leg(won, 1, 0, 1, "first", False, T0 + 60)
        assert saved is not None and saved.version == cup.version + 1
        assert await matches.finish_leg(won, 1, 0, 1, "first", False, T0 + 61) is None  # once
        match = await matches.load(202, 1, 0)
        assert match is not None and (match.leg, match.game_id, match.ready) == (
            2,
            None,
            frozenset(),
        )
        assert [(leg.game_id, leg.result) for leg in await store.cups.legs(202)] == [
            ("g1", "first")
        ]
        await matches.open(202, 1, 0, T0)
        assert list(await matches.of_cup(202)) == [(1, 0)]
    finally:
        await store.close()
