"""The web keeps Discord's moderation: a voided game is marked on its replay and leaves
the board, a barred player is off the board; the player's chart is drawn from the same
data as the PNG of /stats."""

from __future__ import annotations

from bot.charts import GAMES_MAX, stats_input
from bot.views import player
from tests.bot.web.pages_site import ALICE, BOB, CAROL, GUILD, Site


async def _board_names(site: Site) -> list[str]:
    response = await site.client.get(site.base + "?period=all&v=" + str(id(object())))
    html = await response.text()
    return [n for n in ("Alice", "Carol", "&lt;script") if n in html]


async def test_a_voided_game_is_marked_and_off_the_board(site: Site) -> None:
    assert await site.store.moderation.void_game(GUILD, "a" * 32, 9, "<i>cheat</i>", 10.0)
    replay = await (await site.client.get(f"{site.base}g/{'a' * 32}")).text()
    assert 'class="void"' in replay and "Void: this game counts nowhere." in replay
    assert "&lt;i&gt;cheat&lt;/i&gt;" in replay and "<i>cheat</i>" not in replay
    assert "Alice" not in await _board_names(site)


async def test_a_barred_player_is_off_the_board(site: Site) -> None:
    assert await site.store.moderation.bar_player(GUILD, CAROL, 9, "spam", 10.0)
    names = await _board_names(site)
    assert "Carol" not in names and "Alice" in names


async def test_the_chart_has_the_data_of_the_stats_png(site: Site) -> None:
    """/stats draws `stats_input` of the last GAMES_MAX finished, counted games."""
    for user in (ALICE, BOB):
        records = await site.store.games.history(GUILD, user, limit=GAMES_MAX)
        found = await player(site.store, GUILD, user)
        assert found.chart == stats_input([r for r in records if r.state.outcome], user)


async def test_a_barred_duellist_is_off_the_elo_board(site: Site) -> None:
    from tests.bot.leaderboards.games_played import duel

    await duel(site.store, GUILD, "f" * 32, (ALICE, CAROL), [(100, 1)] * 3 + [(51, 1)])
    before = await (await site.client.get(site.base + "duel")).text()
    assert "Alice" in before and "Carol" in before
    assert await site.store.moderation.bar_player(GUILD, CAROL, 9, "spam", 10.0)
    after = await (await site.client.get(site.base + "duel")).text()
    assert "Alice" in after and "Carol" not in after
    assert await site.store.boards.duel_count(GUILD) == 1
