"""Details a reader of the pages sees: code in the rules kept whole, units in the page's
language, the words the glossary gives."""

from __future__ import annotations

import re

from tests.bot.web.pages_site import ALICE, SYNCED_ID, Site, synced_commands


async def _text(site: Site, path: str) -> str:
    response = await site.client.get(path)
    return await response.text()


async def test_a_power_in_code_is_code_not_bold(site: Site) -> None:
    for lang in ("en", "uk"):
        page = await _text(site, f"/rules?lang={lang}")
        assert "<code>2**10</code>" in page, lang
        assert "<code>-(2**2)</code>" in page, lang
        assert "<code><strong>" not in page and "<strong></code>" not in page, lang


async def test_the_board_writes_seconds_in_the_pages_language(site: Site) -> None:
    uk = await _text(site, site.base + "?period=all&lang=uk")
    en = await _text(site, site.base + "?period=all&lang=en")
    assert "\u00a0с</td>" in uk and "\u00a0s</td>" not in uk and "&nbsp;s" not in uk
    assert "\u00a0s</td>" in en


async def test_the_ukrainian_player_page_says_the_glossarys_words(site: Site) -> None:
    page = await _text(site, f"{site.base}p/{ALICE}?lang=uk")
    assert "Ігри з Рахунком 0" in page and "Чекаути" not in page
    assert "· Formula Darts</title>" in page and "Формула Дартс" not in page
    assert "Рейтинг Elo в Онлайн-дуелях" in page and "Початок" in page


async def test_dates_read_as_the_pages_language_writes_them(site: Site) -> None:
    player = await _text(site, f"{site.base}p/{ALICE}?lang=uk")
    assert "1 січня 2026\u202fр., 00:00 UTC" in player and "2026-01-01 00:00" not in player
    sealed = await _text(site, f"{site.base}g/{'d' * 32}?lang=uk")
    assert "\u202fр., 00:00 UTC)" in sealed
    assert not re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d", sealed)


async def test_the_rules_page_names_commands_without_discords_mentions(site: Site) -> None:
    """Once the bot synced its commands in the process (any bot test before, or the bot
    serving the pages), a Discord mention `</training:1456074444194709510>` is no link on
    the web: it was one long word, 337 px wide on a 320 px phone (the phone check's
    missing page). The page names each command as a reader types it."""
    with synced_commands():
        for lang, name in (("en", "/training"), ("uk", "/тренування")):
            page = await _text(site, f"/rules?lang={lang}")
            assert str(SYNCED_ID) not in page and "&lt;/" not in page, lang
            assert f". {name}<br>" in page, lang
