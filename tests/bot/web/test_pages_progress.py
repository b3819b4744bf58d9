"""Progress over time on the player page: the Elo in Online Duels over a player's rated
duels (drawn by the chart worker) and a calendar of the days with a finished
Qualification, both labelled, in en and uk."""

from __future__ import annotations

import re

from tests.bot.web.pages_site import ALICE, CAROL, GUILD, Site, qualification, rated_duel, today


async def _page(site: Site, path: str) -> str:
    response = await site.client.get(path)
    assert response.status == 200, path
    return await response.text()


async def test_the_player_page_draws_the_elo_over_the_rated_duels(site: Site) -> None:
    await rated_duel(site.store, "f" * 32, 1_767_229_200.0)
    await rated_duel(site.store, "e" * 31 + "1", 1_767_229_200.0 + 86_400)
    en = await _page(site, f"{site.base}p/{ALICE}?lang=en")
    assert "<h2>Elo in Online Duels over time</h2>" in en
    assert '<svg role="img" aria-label="Elo in Online Duels over time"' in en
    uk = await _page(site, f"{site.base}p/{ALICE}?lang=uk")
    assert '<svg role="img" aria-label="Рейтинг Elo в Онлайн-дуелях із часом"' in uk
    carol = await _page(site, f"{site.base}p/{CAROL}?lang=en")  # no rated duel: no Elo chart
    assert "Elo in Online Duels over time" not in carol


async def test_the_player_page_has_a_calendar_of_the_days_with_a_finished_qualification(
    site: Site,
) -> None:
    await qualification(site.store, GUILD, "9" * 32, CAROL, [100, 100, 100, 51], period=today())
    en = await _page(site, f"{site.base}p/{CAROL}?lang=en")
    assert "<h2>Days with a finished Qualification</h2>" in en
    label = "1\u00a0day with a finished Qualification in the last 17\u00a0weeks"
    assert f'aria-label="{label}"' in en and f'<p class="note">{label}</p>' in en
    on = re.findall(r'<rect class="on"[^>]*><title>([^<]+)</title>', en)
    assert len(on) == 1, on
    assert len(re.findall(r'<rect class="(?:on|off)"', en)) > 16 * 7  # the weeks up to today
    uk = await _page(site, f"{site.base}p/{CAROL}?lang=uk")
    assert "<h2>Дні із завершеною Кваліфікацією</h2>" in uk
    assert "1\u00a0день із завершеною Кваліфікацією за останні 17\u00a0тижнів" in uk
    alice = await _page(site, f"{site.base}p/{ALICE}?lang=en")  # her day is months ago
    assert "0\u00a0days with a finished Qualification in the last 17\u00a0weeks" in alice
    assert '<rect class="on"' not in alice
