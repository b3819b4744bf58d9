"""The web player page lists the player's achievements in the reader's language, and
no longer lists one taken back with its game."""

from __future__ import annotations

from bot.storage import Source
from rules.achievements import Achievement
from tests.bot.web.conftest import site  # noqa: F401
from tests.bot.web.pages_site import GUILD, Site


async def _page(site: Site, lang: str) -> str:
    response = await site.client.get(f"{site.base}p/101?lang={lang}")
    assert response.status == 200
    return await response.text()


async def test_the_player_page_lists_achievements(site: Site) -> None:
    assert "Achievements" not in await _page(site, "en")  # none yet: no section
    achievements = site.store.achievements
    await achievements.grant(
        GUILD, 101, [Achievement.FIRST_CHECKOUT, Achievement.STREAK_7], Source.GAME, "g1",
        1_800_000_000.0,
    )  # fmt: skip
    await achievements.grant(GUILD, 101, [Achievement.CUP_CHAMPION], Source.CUP, "c1", 1.8e9)
    en = await _page(site, "en")
    assert "<h2>Achievements</h2>" in en
    assert "<strong>First checkout</strong>: Finished a game with Score 0" in en
    assert "<strong>Cup champion</strong>" in en and "<strong>7-day streak</strong>" in en
    uk = await _page(site, "uk")
    assert "<h2>Досягнення</h2>" in uk and "<strong>Чемпіон Кубка</strong>" in uk
    await achievements.void_source(Source.GAME, "g1")
    en = await _page(site, "en")
    assert "First checkout" not in en and "Cup champion" in en
