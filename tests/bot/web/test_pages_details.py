"""Details a reader of the pages sees: code in the rules kept whole, units in the page's
language, the words the glossary gives."""

from __future__ import annotations

from tests.bot.web.pages_site import Site


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
