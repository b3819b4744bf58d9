"""The web pages over a real store, through aiohttp's client: order, secrecy, escaping,
headers, languages and the 404 of a server whose web is off."""

from __future__ import annotations

import re

from markupsafe import escape

from tests.bot.web.pages_site import (
    DAVE,
    GUILD,
    HOSTILE,
    OTHER_GUILD,
    SECRET_DIGITS,
    Site,
)


async def _get(site: Site, path: str, **headers: str) -> tuple[int, str, dict[str, str]]:
    response = await site.client.get(path, headers=headers)
    return response.status, await response.text(), dict(response.headers)


async def test_the_board_ranks_the_players_in_order(site: Site) -> None:
    status, html, _ = await _get(site, site.base + "?period=all")
    assert status == 200
    names = re.findall(r'<th scope="row"><a href="[^"]+"><bdi>([^<]*)</bdi></a></th>', html)
    hostile = str(escape(HOSTILE))
    assert names == ["Alice", hostile, "Carol"]
    assert "<title>" in html and "<caption>" in html and 'scope="col"' in html


async def test_a_hostile_name_is_text(site: Site) -> None:
    _, html, _ = await _get(site, site.base + "?period=all")
    assert "<script>" not in html and "<b>bob</b>" not in html
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;&lt;b&gt;bob&lt;/b&gt;" in html


async def test_a_running_qualification_shows_nothing_of_its_digits(site: Site) -> None:
    for path in (site.base, site.base + "?period=week", f"{site.base}g/{'d' * 32}",
                 f"{site.base}p/{DAVE}", f"{site.base}g/dddddddd"):  # fmt: skip
        status, html, _ = await _get(site, path)
        assert status == 200, path
        assert SECRET_DIGITS not in html, path
        assert "73*9+1" not in html and "73*9" not in html, path
    _, replay, headers = await _get(site, f"{site.base}g/{'d' * 32}")
    assert "secret until its day ends" in replay
    assert headers["Cache-Control"] == "no-store"


async def test_a_replay_shows_each_round_and_the_best_answer(site: Site) -> None:
    status, html, _ = await _get(site, f"{site.base}g/{'a' * 32}")
    assert status == 200
    assert [int(n) for n in re.findall(r'<h2 id="round-(\d+)"', html)] == [1, 2, 3, 4]
    assert html.count("<code>12*3+4</code>") == 4
    assert "<code>1*234</code> → Score 467" in html
    assert "Accuracy against the best answers" in html
    _, hostile, _ = await _get(site, f"{site.base}g/{'b' * 32}")
    assert "<code>1&lt;2&gt;3&amp;4</code>" in hostile


async def test_the_player_page_has_the_chart_as_inline_svg(site: Site) -> None:
    status, html, _ = await _get(site, f"{site.base}p/101")
    assert status == 200
    assert '<svg role="img" aria-label="Score chart of the last games"' in html
    assert "<script" not in html.split("<svg", 1)[1]


async def test_the_language_follows_the_browser_and_the_switch(site: Site) -> None:
    _, uk, headers = await _get(site, "/rules", **{"Accept-Language": "uk-UA,uk;q=0.9,en;q=0.8"})
    assert '<html lang="uk">' in uk and "<h1>Правила</h1>" in uk
    assert headers["Content-Language"] == "uk"
    _, en, _ = await _get(site, "/rules?lang=en", **{"Accept-Language": "uk"})
    assert '<html lang="en">' in en and "<h1>The rules</h1>" in en
    _, board, _ = await _get(site, site.base + "?lang=uk&period=all")
    assert "Кваліфікація · darts · за весь час" in board


async def test_headers_cache_and_only_get(site: Site) -> None:
    response = await site.client.get(site.base)
    assert response.status == 200
    csp = response.headers["Content-Security-Policy"]
    assert "default-src 'none'" in csp and "script-src" not in csp
    assert "Set-Cookie" not in response.headers
    assert response.headers["Cache-Control"] == "public, max-age=30"
    etag = response.headers["ETag"]
    again = await site.client.get(site.base, headers={"If-None-Match": etag})
    assert again.status == 304 and await again.read() == b""
    posted = await site.client.post(site.base)
    assert posted.status == 405


async def test_a_server_with_its_web_off_or_unknown_is_not_found(site: Site) -> None:
    other = await site.store.servers.set_web(OTHER_GUILD, False, 2.0)
    assert other.web_key is not None
    for path in (f"/s/{other.web_key}/", "/s/AAAAAAAAAAAAAAAAAAAAAA/", f"/s/{GUILD}/"):
        status, html, _ = await _get(site, path)
        assert status == 404, path
        assert "Alice" not in html
    await site.store.servers.set_web(GUILD, False, 3.0)
    status, _, _ = await _get(site, f"{site.base}p/101")
    assert status == 404
    status, _, _ = await _get(site, site.base + "?period=all&x=1")
    assert status == 404


async def test_a_game_of_another_server_is_not_found_here(site: Site) -> None:
    status, _, _ = await _get(site, f"{site.base}g/{'e' * 32}")
    assert status == 404


async def test_the_board_offers_each_set_played_here(site: Site) -> None:
    from rules import GameSet
    from tests.bot.web.pages_site import qualification

    blitz = GameSet("blitz", 501, 100, 50, 12, 30, 4)
    await qualification(site.store, GUILD, "g" * 32, 101, [100, 100, 100, 51], game_set=blitz)
    _, html, _ = await _get(site, site.base + "?period=all")
    assert 'href="?set=blitz&amp;period=all&amp;lang=en"' in html
    assert 'href="?set=darts&amp;period=all&amp;lang=en" aria-current="page"' in html
    _, blitz_board, _ = await _get(site, site.base + "?period=all&set=blitz")
    assert "Alice" in blitz_board and "Carol" not in blitz_board


async def _resigned_duels(site: Site, pairs: int) -> None:
    """`pairs` rated duels of fresh players (each ends by a resignation in round 1)."""
    import rules
    from bot.storage import GameRecord

    for index in range(pairs):
        a, b = str(5000 + 2 * index), str(5001 + 2 * index)
        state = rules.new_game(f"{index:032x}", rules.Mode.DUEL, rules.CLASSIC, [a, b])
        state = rules.apply(rules.apply(state, rules.StartRound("4589", 0.0)), rules.Resign(b))
        await site.store.games.save_game(
            GameRecord(state=state, guild_id=GUILD, channel_id=1, created_at=1_767_225_600.0)
        )


async def test_the_elo_board_turns_its_pages(site: Site) -> None:
    """Twelve rated players: ten on the first page, two on the second, linked both ways
    (the Elo page once showed its first ten only)."""
    await _resigned_duels(site, 6)
    ranks = r'<tr>\s*<td class="num"[^>]*>(\d+)</td>'
    _, first, _ = await _get(site, site.base + "duel")
    assert [int(n) for n in re.findall(ranks, first)] == list(range(1, 11))
    assert "Page 1 of 2" in first and 'href="?page=1&amp;lang=en" rel="next"' in first
    _, second, _ = await _get(site, site.base + "duel?page=1")
    assert [int(n) for n in re.findall(ranks, second)] == [11, 12]
    assert 'href="?page=0&amp;lang=en" rel="prev"' in second and 'rel="next"' not in second
    for hostile in ("-1", "x", "١", "1e3"):  # the first page, not an error
        status, html, _ = await _get(site, site.base + f"duel?page={hostile}")
        assert status == 200 and re.findall(ranks, html)[:1] == ["1"], hostile
    status, _, _ = await _get(site, site.base + "duel?page=" + "9" * 40)  # past the end
    assert status == 200
    _, uk, _ = await _get(site, site.base + "duel?lang=uk")
    assert "Сторінка 1 з 2" in uk and "Далі →" in uk


async def test_the_boards_pages_keep_the_version_they_rank(site: Site) -> None:
    from tests.bot.web.pages_site import qualification

    for index in range(11):
        await qualification(site.store, GUILD, f"f{index:031x}", 6000 + index, [100, 100, 100, 51])
    _, html, _ = await _get(site, site.base + "?period=all")
    version = re.search(r"&amp;version=([0-9a-f]+)&amp;page=1&amp;lang=en", html)
    assert version is not None, "the next page's link names the version"
    assert "Page 1 of 2" in html


async def test_a_page_past_the_end_says_so_and_links_the_last(site: Site) -> None:
    """`?page=` past the last page (an old link, an edited address) once said "no games
    yet" of a board full of them; it says the page is past the end and links the last."""
    from tests.bot.web.pages_site import qualification

    await _resigned_duels(site, 6)  # twelve rated players: two pages
    _, duel, _ = await _get(site, site.base + "duel?page=5")
    assert "No rated duels yet." not in duel
    assert "Page 6 is past the end of this list." in duel
    assert '<a href="?page=1&amp;lang=en">Go to the last page (2)</a>' in duel
    assert "Page 6 of 2" not in duel and 'rel="prev"' not in duel
    _, uk, _ = await _get(site, site.base + "duel?page=5&lang=uk")
    assert "Сторінка 6 — уже за кінцем цього списку." in uk and "останньої сторінки (2)" in uk
    for index in range(11):  # with the three of the site, fourteen players: two pages
        await qualification(site.store, GUILD, f"f{index:031x}", 6000 + index, [100, 100, 100, 51])
    _, board, _ = await _get(site, site.base + "?period=all&page=9")
    assert "No Qualification games" not in board
    assert "Page 10 is past the end of this list." in board
    last = re.search(r'<a href="([^"]*)">Go to the last page \(2\)</a>', board)
    assert last is not None and "&amp;period=all&amp;" in last[1] and "&amp;page=1&amp;" in last[1]
    _, page_two, _ = await _get(site, site.base + last[1].replace("&amp;", "&"))
    assert "Page 2 of 2" in page_two and "past the end" not in page_two
    _, empty, _ = await _get(site, site.base + "?set=nothing")  # page 1 of nothing: empty
    assert "No Qualification games of this Set in this period yet." in empty
    assert "past the end" not in empty
