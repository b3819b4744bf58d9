"""Finding yourself on a long board: "my place" (`?me=<id>`, the link Discord's
/leaderboard gives) opens the page you are on with your row marked; a search by name
lists the players whose name has the words typed."""

from __future__ import annotations

from tests.bot.web.pages_site import GUILD, Site, qualification


async def _crowd(site: Site, count: int) -> None:
    """`count` more players of the past day, each checking out later than the last."""
    names = {}
    for index in range(count):
        user = 9000 + index
        results = [100] * 3 + [51] if index % 2 else [1] * 7
        await qualification(site.store, GUILD, f"{user:032d}", user, results)
        names[user] = f"Гравчиня {index:02d}" if index != 28 else "Соломія Крушельницька"
    await site.store.names.remember(GUILD, names, 3.0)


async def _text(site: Site, path: str) -> str:
    response = await site.client.get(path)
    assert response.status == 200, path
    return await response.text()


async def test_my_place_opens_the_page_i_am_on_with_my_row_marked(site: Site) -> None:
    await _crowd(site, 30)
    html = await _text(site, site.base + "?period=all&me=9028&lang=uk")
    assert "Соломія Крушельницька" in html
    assert '<tr class="me" aria-current="true">' in html
    assert 'aria-current="page">1<' not in html  # not the first page
    missing = await _text(site, site.base + "?period=all&me=1234567&lang=en")
    assert "not on this board" in missing


async def test_a_search_by_name_lists_the_players_found(site: Site) -> None:
    await _crowd(site, 30)
    html = await _text(site, site.base + "?period=all&q=крушельн&lang=uk")
    main = html.split("<main>", 1)[1]
    assert "Соломія Крушельницька" in main and "Гравчиня" not in main
    assert '<form method="get" role="search"' in html
    none = await _text(site, site.base + "?period=all&q=nobody-like-this&lang=en")
    assert "Nobody here is called so" in none
