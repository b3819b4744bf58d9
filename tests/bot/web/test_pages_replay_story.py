"""A replay tells the story of its game: who won and how it ended, the Elo it moved, when
it was played, how long each answer took, who won each round, the games before and after
it, and a best answer's Score said as one."""

from __future__ import annotations

import rules
from bot.storage import GameMeta, GameRecord
from tests.bot.web.pages_site import ALICE, BOB, GUILD, Site


async def _duel(site: Site) -> str:
    """Alice and Bob's Online Duel of 1 January 2026: Alice checks out in round 4."""
    game_id = "f" * 32
    state = rules.new_game(game_id, rules.Mode.DUEL, rules.CLASSIC, [str(ALICE), str(BOB)])
    for number, (a, b) in enumerate([(100, 90), (100, 100), (100, 95), (51, 99)]):
        start = 1_767_229_200.0 + 200 * number
        state = rules.apply(state, rules.StartRound("1234", start))
        state = rules.apply(state, rules.Submit(str(ALICE), "12*3+4", a, start + 12.5))
        state = rules.apply(state, rules.Submit(str(BOB), "1+2+34", b, start + 30))
    assert state.outcome is not None and state.outcome.winner == 0
    record = GameRecord(
        state=state, guild_id=GUILD, channel_id=1, seed="s", created_at=1_767_229_200.0,
        meta=GameMeta(),
    )  # fmt: skip
    await site.store.games.save_game(record)
    await site.store.boards.record_duel_result(record)
    return game_id


async def _page(site: Site, path: str) -> str:
    response = await site.client.get(path)
    assert response.status == 200, path
    return await response.text()


async def test_a_duel_replay_says_who_won_how_and_the_elo_it_moved(site: Site) -> None:
    html = await _page(site, f"{site.base}g/{await _duel(site)}?lang=en")
    main = html.split("<main>", 1)[1]
    assert "🏆 <bdi>Alice</bdi> won: Score 0 in round 4" in main
    assert "Elo:" in main and "1000 → 1016 (+16)" in main and "1000 → 984 (−16)" in main
    assert "January 1, 2026" in main


async def test_each_answer_has_its_time_and_each_round_its_winner(site: Site) -> None:
    html = await _page(site, f"{site.base}g/{await _duel(site)}?lang=uk")
    assert "12,5\u00a0с" in html and "30,0\u00a0с" in html
    assert html.count("Раунд виграє: <bdi>Alice</bdi>") == 3  # round 2 is even
    assert "Раунд 2 · Число" in html and "Нічия в раунді" in html


async def test_a_best_answer_says_its_score_and_an_empty_best_column_is_gone(site: Site) -> None:
    with_best = await _page(site, f"{site.base}g/{'a' * 32}?lang=en")
    assert "<code>1*234</code> → Score 467" in with_best
    without = await _page(site, f"{site.base}g/{'c' * 32}?lang=en")
    assert "Best answer" not in without


async def test_a_replay_links_the_players_games_before_and_after_it(site: Site) -> None:
    duel = await _duel(site)
    html = await _page(site, f"{site.base}g/{'a' * 32}?lang=en")
    assert f'href="{site.base}g/{duel}?lang=en" rel="next"' in html
    assert 'rel="prev"' not in html
    later = await _page(site, f"{site.base}g/{duel}?lang=en")
    assert f'href="{site.base}g/{"a" * 32}?lang=en" rel="prev"' in later
