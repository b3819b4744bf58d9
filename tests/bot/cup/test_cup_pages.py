"""The Cups on the web: the hall of fame and a bracket page (plain HTML, no script), each
match linking to its legs' replays, names escaped, another server's Cup not found."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

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
async def client(tmp_path: Path) -> AsyncIterator[tuple[TestClient, str]]:
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
    served = TestClient(TestServer(create_app(store)))
    await served.start_server()
    try:
        yield served, f"/s/{key}/"
    finally:
        await served.close()
        await store.close()


async def test_the_hall_of_fame_and_a_bracket(client: tuple[TestClient, str]) -> None:
    http, base = client
    hall = await http.get(base + "cups")
    html = await hall.text()
    assert hall.status == 200 and "Winter &lt;Cup&gt;" in html and "<script" not in html
    assert "Champion: <strong><bdi>Alice</bdi></strong>" in html and "scheduled" in html
    assert f'href="{base}cup/11?lang=en"' in html and "cup/13" not in html

    page = await http.get(base + "cup/11")
    html = await page.text()
    assert page.status == 200 and "<script" not in html
    assert re.findall(r"<h2>([^<]+)</h2>", html) == ["Semi-finals", "Final"]
    assert "no-show" in html and "Champion: <strong><bdi>Alice</bdi></strong>" in html
    replays = re.findall(rf'href="{base}g/([0-9a-f]+)\?lang=en">leg (\d)', html)
    assert replays == [("a" * 32, "1"), ("b" * 32, "2"), ("c" * 32, "3")]
    replay = await http.get(f"{base}g/{'a' * 32}")
    assert replay.status == 200

    uk = await (await http.get(base + "cup/11?lang=uk")).text()
    assert "Фінал" in uk and "Чемпіон" in uk
    assert "The bracket is drawn at the start" in await (await http.get(base + "cup/12")).text()
    assert (await http.get(base + "cup/13")).status == 404  # another server's
    assert (await http.get(base + "cup/999")).status == 404
