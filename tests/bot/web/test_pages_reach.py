"""How a reader gets around the pages and finds them: names isolated, a styled 404 with
a way back, links that keep the language, the rules inside the server's menu, robots,
unfurl tags and a favicon, long decimals rounded for reading."""

from __future__ import annotations

import re

from tests.bot.web.pages_site import ALICE, GUILD, Site, qualification


async def _get(site: Site, path: str) -> tuple[int, str]:
    response = await site.client.get(path, allow_redirects=False)
    return response.status, await response.text()


def _pages(site: Site) -> list[str]:
    return [
        site.base + "?period=all", site.base + "duel", f"{site.base}p/{ALICE}",
        f"{site.base}g/{'a' * 32}", f"{site.base}rules",
    ]  # fmt: skip


async def test_every_name_is_isolated_from_the_text_around_it(site: Site) -> None:
    _, board = await _get(site, site.base + "?period=all")
    assert '"><bdi>Alice</bdi></a></th>' in board
    _, replay = await _get(site, f"{site.base}g/{'a' * 32}")
    assert "<bdi>Alice</bdi>" in replay
    _, page = await _get(site, f"{site.base}p/{ALICE}")
    assert "<h1><bdi>Alice</bdi></h1>" in page


async def test_unknown_addresses_are_a_styled_404_with_a_way_back(site: Site) -> None:
    for path, back in (
        ("/nowhere", "/rules"), ("/rules/", "/rules"), (f"{site.base}nope", site.base),
        (f"{site.base}g/{'z' * 32}", site.base), ("/s/" + "x" * 20 + "/", "/rules"),
    ):  # fmt: skip
        status, html = await _get(site, path)
        assert status == 404, path
        assert "<h1>Not found</h1>" in html and "<style>" in html, path
        assert f'href="{back}?lang=en"' in html, (path, html)
    status, _ = await _get(site, site.base.rstrip("/"))
    assert status in (301, 302, 308)


async def test_a_player_who_never_played_here_is_not_found(site: Site) -> None:
    status, _ = await _get(site, f"{site.base}p/999")
    assert status == 404
    status, _ = await _get(site, f"{site.base}p/{ALICE}")
    assert status == 200


async def test_every_link_keeps_the_language(site: Site) -> None:
    for path in _pages(site):
        sep = "&" if "?" in path else "?"
        status, html = await _get(site, path + sep + "lang=uk")
        assert status == 200, path
        menu = html.split("<main", 1)[0]
        links = re.findall(r'<a href="([^"]+)"(?! hreflang)', html.split("</head>", 1)[1])
        inner = [link for link in links if link.startswith(("/", "?"))]
        assert inner and all("lang=uk" in link for link in inner), (path, inner)
        assert f'href="{site.base}?lang=uk"' in menu, path


async def test_the_rules_keep_the_servers_menu(site: Site) -> None:
    status, html = await _get(site, f"{site.base}rules?lang=en")
    assert status == 200 and "<h1>The rules</h1>" in html
    assert f'href="{site.base}duel?lang=en"' in html


async def test_robots_are_kept_off_the_servers_pages(site: Site) -> None:
    status, robots = await _get(site, "/robots.txt")
    assert status == 200 and "Disallow: /s/" in robots
    for path in _pages(site):
        _, html = await _get(site, path)
        assert '<meta name="robots" content="noindex">' in html, path


async def test_pages_unfurl_with_a_title_and_a_description(site: Site) -> None:
    for path in [*_pages(site), "/rules"]:
        _, html = await _get(site, path)
        head = html.split("</head>", 1)[0]
        assert '<meta property="og:title" content="' in head, path
        assert re.search(r'<meta name="description" content="[^"]{10,}">', head), path
        assert '<meta property="og:site_name" content="Formula Darts">' in head, path
        assert '<link rel="icon" href="data:image/svg+xml,' in head, path
    _, replay = await _get(site, f"{site.base}g/{'a' * 32}")
    assert 'content="Alice' in replay.split("</head>", 1)[0]


async def test_a_long_decimal_reads_rounded_with_the_exact_value_on_hover(site: Site) -> None:
    """100 six times, then 0.0097…: 98.99021207177815 left, which reads 98.99."""
    results = [100.0] * 6 + [0.009787928221854258]
    await qualification(site.store, GUILD, "9" * 32, 105, results)
    _, html = await _get(site, site.base + "?period=all")
    assert '<span title="98.99021207177815">' in html and "98.99 left" in html
    assert not re.search(r">[^<]*98\.990212[^<]*<", html)
    _, replay = await _get(site, f"{site.base}g/{'9' * 32}")
    assert '<span title="98.99021207177815">98.99</span>' in replay
