"""The Cup suites' shared fixture: `cup_site`, the web pages over a store with one
server's games (`tests.bot.web.pages_site`) and its Cups: one over (a no-show, a drawn
leg, a champion), one scheduled, one of another server."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.charts import ChartRenderer
from bot.storage import CupPhase, CupRecord, LegRecord, open_store
from bot.web import create_app
from rules.cup import Leg, LegResult, NoShow, apply, draw
from tests.bot.web.pages_site import ALICE, BOB, CAROL, DAVE, GUILD, OTHER_GUILD, populate

T0 = 1_767_225_600.0


def a_cup(cup_id: int, guild_id: int = GUILD, **changes: object) -> CupRecord:
    return CupRecord(
        id=cup_id, guild_id=guild_id, channel_id=5, name="Winter <Cup>", set_name="darts",
        starts_at=T0, zone="UTC", repeat="once", size=4, legs=3, seeding="all", locale="en",
        created_by="9", created_at=T0, **changes,  # type: ignore[arg-type]
    )  # fmt: skip


@pytest.fixture
async def cup_site(
    tmp_path: Path, page_charts: ChartRenderer
) -> AsyncIterator[tuple[TestClient, str]]:
    store = await open_store(f"sqlite+aiosqlite:///{tmp_path}/web.sqlite3")
    key = await populate(store)
    bracket = draw([str(p) for p in (ALICE, BOB, CAROL, DAVE)], 3)
    bracket = apply(bracket, NoShow(1, 0, frozenset({1})))
    for result in (LegResult.DRAW, LegResult.FIRST, LegResult.FIRST):
        bracket = apply(bracket, Leg(1, 1, result))
    for result in (LegResult.FIRST, LegResult.FIRST):
        bracket = apply(bracket, Leg(2, 0, result))
    over = a_cup(11, phase=CupPhase.OVER, bracket=bracket, champion=bracket.champion)
    await store.cups.save(over, T0)
    for leg, game in enumerate(("a" * 32, "b" * 32, "c" * 32), start=1):
        await store.cups.add_leg(11, LegRecord(1, 1, leg, game), T0)
    await store.cups.save(replace(a_cup(12), starts_at=T0 + 86400), T0)
    await store.cups.save(a_cup(13, guild_id=OTHER_GUILD), T0)
    served = TestClient(TestServer(create_app(store, charts=page_charts)))
    await served.start_server()
    try:
        yield served, f"/s/{key}/"
    finally:
        await served.close()
        await store.close()
