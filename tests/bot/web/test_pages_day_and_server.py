"""A server's pages carry its name (titles, OpenGraph, the header), escaped; a
Qualification's replay links the board of its day, which ranks that day's games only."""

from __future__ import annotations

import html as html_lib
import re

from markupsafe import escape

from tests.bot.web.pages_site import ALICE, GUILD, Site, qualification

HOSTILE_SERVER = 'Дартс <i>"клуб"</i> & co'
EARLY = 105


async def _page(site: Site, path: str) -> str:
    response = await site.client.get(path)
    assert response.status == 200, path
    return await response.text()


async def test_every_server_page_names_the_server_escaped(site: Site) -> None:
    await site.store.servers.name_server(GUILD, HOSTILE_SERVER, 2.0)
    escaped = str(escape(HOSTILE_SERVER))
    for path in ("", "duel", f"p/{ALICE}", f"g/{'a' * 32}", "rules"):
        for lang in ("en", "uk"):
            page = await _page(site, f"{site.base}{path}?lang={lang}")
            assert HOSTILE_SERVER not in page, path  # never raw
            title = re.search(r"<title>(.*?)</title>", page, re.S)
            assert title is not None and f" · {escaped} · " in title.group(1), (path, lang)
            assert f'<meta property="og:site_name" content="{escaped} · ' in page, path
            assert f'<p class="server"><bdi>{escaped}</bdi></p>' in page, path


async def test_a_renamed_server_is_named_anew_and_the_general_rules_name_none(site: Site) -> None:
    await site.store.servers.name_server(GUILD, "Old name", 2.0)
    await site.store.servers.name_server(GUILD, "New name", 3.0)
    assert (await site.store.servers.settings(GUILD)).guild_name == "New name"
    assert "New name" in await _page(site, f"{site.base}duel?lang=en")
    assert '<p class="server">' not in await _page(site, "/rules?lang=en")


async def test_a_qualification_replay_links_the_board_of_its_day(site: Site) -> None:
    await qualification(
        site.store, GUILD, "9" * 32, EARLY, [100, 100, 100, 51], period="2025-12-31"
    )
    await site.store.names.remember(GUILD, {EARLY: "Early Bird"}, 1.0)
    for lang, words in (("en", "The board of January 1, 2026"),
                        ("uk", "Таблиця лідерів за 1 січня 2026\u202fр.")):  # fmt: skip
        replay = await _page(site, f"{site.base}g/{'a' * 32}?lang={lang}")
        found = re.search(r'<a href="([^"]+)">' + re.escape(words) + "</a>", replay)
        assert found is not None, (lang, replay.split("<main>", 1)[1][:600])
        link = html_lib.unescape(found.group(1))
        assert "day=2026-01-01" in link and f"me={ALICE}" in link
        day = await _page(site, link)
        main = day.split("<main>", 1)[1]
        assert words.split(" ", 3)[-1] in main  # the day in the title
        assert "Alice" in main and "Carol" in main
        assert "Early Bird" not in main  # another day's game
        assert 'class="me"' in main  # Alice's row marked
    everyone = await _page(site, f"{site.base}?period=all&lang=en")
    assert "Early Bird" in everyone


async def test_a_day_asked_badly_is_the_periods_board(site: Site) -> None:
    for bad in ("2026-13-01", "yesterday", "2026-01-01T00", ""):
        page = await _page(site, f"{site.base}?day={bad}&period=all&lang=en")
        assert "Alice" in page and "Qualification · darts · all time" in page, bad
