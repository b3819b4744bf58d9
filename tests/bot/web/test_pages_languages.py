"""The web pages of a JavaScript Set's games: the board and the replay name its language
and write its numbers as JavaScript prints them; the rules page has its formula page."""

from __future__ import annotations

from markupsafe import escape

import rules
from tests.bot.web.pages_site import ALICE, BOB, GUILD, Site, qualification

JS = rules.load_sets()["js-darts"]
HUGE = 1.0449567633177832e83
"""`9**87+6` in node: its Score reads 1.0449567633177832e+83 in JavaScript."""


async def test_a_javascript_board_and_replay_name_it_and_print_its_numbers(site: Site) -> None:
    # HUGE - 200 is HUGE again in doubles: a second HUGE would check out, 1234 leaves it
    huge = [HUGE] + [1234.0] * 6
    await qualification(site.store, GUILD, "f" * 32, ALICE, huge, formula="9**87+6", game_set=JS)
    await qualification(site.store, GUILD, "9" * 32, BOB, [1.3333333333333335] * 7,
                        formula="7/3-1-0", game_set=JS)  # fmt: skip
    board = await (await site.client.get(site.base + "?set=js-darts&period=all")).text()
    assert str(escape("js-darts · JavaScript")) in board
    assert "1.0449567633177832e+83" in board and "E+83" not in board
    game = await (await site.client.get(f"{site.base}g/{'9' * 32}")).text()
    assert str(escape("js-darts · JavaScript")) in game
    assert "1.3333333333333335" in game and "1.3333333333333286" in game  # Result, Points
    php = await (await site.client.get(site.base + "?period=all")).text()
    assert "JavaScript" not in php.split("<main", 1)[-1].split("</h1>", 1)[0]


async def test_the_rules_page_has_javascripts_formula_page(site: Site) -> None:
    page = await (await site.client.get("/rules?lang=en")).text()
    assert "The formula in JavaScript" in page and "The formula" in page
    uk = await (await site.client.get("/rules?lang=uk")).text()
    assert "Формула в JavaScript" in uk
