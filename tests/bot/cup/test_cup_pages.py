"""The Cups on the web: the hall of fame and a bracket page (plain HTML, no script), each
match linking to its legs' replays, names escaped, another server's Cup not found."""

from __future__ import annotations

import re

from aiohttp.test_utils import TestClient


async def test_the_hall_of_fame_and_a_bracket(cup_site: tuple[TestClient, str]) -> None:
    http, base = cup_site
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
