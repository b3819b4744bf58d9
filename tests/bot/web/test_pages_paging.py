"""A long list has page numbers, not only Previous and Next: the first, the last and the
pages around the current one, each a link that keeps the language."""

from __future__ import annotations

import re

from bot.web._paging import page_numbers
from tests.bot.web.pages_site import Site
from tests.bot.web.test_pages import _resigned_duels


def test_the_numbers_around_the_page_with_gaps() -> None:
    assert page_numbers(0, 1) == []
    assert page_numbers(0, 3) == [0, 1, 2]
    assert page_numbers(0, 7) == [0, 1, 2, 3, 4, 5, 6]
    assert page_numbers(5, 63) == [0, None, 3, 4, 5, 6, 7, None, 62]
    assert page_numbers(62, 63) == [0, None, 60, 61, 62]


async def test_the_elo_board_links_each_page_by_its_number(site: Site) -> None:
    await _resigned_duels(site, 6)  # twelve players: two pages
    html = await (await site.client.get(site.base + "duel?lang=uk")).text()
    nav = html.split('<nav aria-label="Сторінки">', 1)[1].split("</nav>", 1)[0]
    assert re.search(r'<a href="\?page=1&amp;lang=uk"[^>]*>2</a>', nav), nav
    assert re.search(r'aria-current="page"[^>]*>1<', nav), nav
