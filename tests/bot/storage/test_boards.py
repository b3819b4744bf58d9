"""Leaderboards, Elo and stats on hand-made tables of games."""

from __future__ import annotations

import dataclasses

import pytest

import rules
from bot.storage import RatingChange, Store
from tests.bot.storage.builders import (
    CHECKOUT_4,
    CHECKOUT_5,
    GUILD,
    NO_CHECKOUT,
    duel,
    record,
    single,
)


async def _save(store: Store, *states: rules.GameState, period: str = "2026-11-29") -> None:
    for state in states:
        await store.games.save_game(record(state, period=period))


async def test_qualification_order_follows_rules_md(store: Store) -> None:
    await _save(
        store,
        single("lost", 1, [100], timeout=True),
        single("five", 2, CHECKOUT_5, seconds=1.0),
        single("perfect-slow", 3, CHECKOUT_4, seconds=50.0),
        single("perfect-fast", 4, CHECKOUT_4, seconds=10.0),
        single("max-494", 5, NO_CHECKOUT),
        single("max-close", 6, [100, 100, 100, 1, 1, 1, 1]),
        single("resigned", 7, []),
    )
    await store.games.save_game(record(rules.apply(single("running", 8, [100]), rules.Resign("8"))))
    await store.games.save_game(record(single("unfinished", 9, [100])))
    board = await store.boards.qualification_leaderboard(GUILD, "darts", None)
    assert [row.game_id for row in board] == [
        "perfect-fast",
        "perfect-slow",
        "five",
        "max-close",
        "max-494",
    ]
    assert [row.rank for row in board] == list(range(1, 6))
    assert await store.boards.qualification_count(GUILD, "darts", None) == 5
    top = board[0]
    assert (top.user_id, top.rounds, top.perfect, top.rank_class) == (4, 4, True, 0)
    assert top.termination == "checkout" and top.answer_time == 40.0 and top.score == 0.0
    assert board[3].score == 47.0 and board[3].termination == "max_rounds"


async def test_losses_are_left_off_the_board(store: Store) -> None:
    """RULES.md ranks checkouts, then finished games; a timeout or resignation is not ranked."""
    await _save(
        store,
        single("a-timeout", 1, [100, 100, 100], timeout=True),
        single("b-timeout", 2, [], timeout=True),
        single("c-resigned", 3, []),
        single("c-max", 3, NO_CHECKOUT),
    )
    await store.games.save_game(
        record(rules.apply(single("d-resign", 4, [100]), rules.Resign("4")))
    )
    board = await store.boards.qualification_leaderboard(GUILD, "darts", None)
    assert [(row.user_id, row.game_id) for row in board] == [(3, "c-max")]
    assert await store.boards.qualification_count(GUILD, "darts", None) == 1
    assert (await store.boards.player_stats(GUILD, 1)).best is None


async def test_best_game_per_player_and_the_period_filter(store: Store) -> None:
    await _save(store, single("old-perfect", 1, CHECKOUT_4), period="2026-11-01")
    await _save(store, single("new-five", 1, CHECKOUT_5), single("new-max", 1, NO_CHECKOUT))
    await _save(store, single("b-five", 2, CHECKOUT_5, seconds=30.0))
    everything = await store.boards.qualification_leaderboard(GUILD, "darts", None)
    assert [(r.user_id, r.game_id) for r in everything] == [(1, "old-perfect"), (2, "b-five")]
    this_week = await store.boards.qualification_leaderboard(GUILD, "darts", "2026-11-23")
    assert [(r.user_id, r.game_id) for r in this_week] == [(1, "new-five"), (2, "b-five")]
    assert await store.boards.qualification_leaderboard(GUILD, "darts", "2026-12-01") == []


async def test_board_is_per_server_set_and_mode_with_paging(store: Store) -> None:
    for player in range(1, 26):
        await _save(store, single(f"p{player}", player, CHECKOUT_5, seconds=float(player)))
    sprint = dataclasses.replace(rules.CLASSIC, name="sprint")
    await _save(store, single("other-set", 99, CHECKOUT_4, game_set=sprint))
    await _save(store, single("training", 98, CHECKOUT_4, mode=rules.Mode.TRAINING))
    await store.games.save_game(record(single("other-guild", 97, CHECKOUT_4), guild=GUILD + 1))
    first = await store.boards.qualification_leaderboard(GUILD, "darts", None, limit=10)
    assert [r.user_id for r in first] == list(range(1, 11))
    last = await store.boards.qualification_leaderboard(GUILD, "darts", None, limit=10, offset=20)
    assert [r.user_id for r in last] == list(range(21, 26))
    assert [r.rank for r in last] == list(range(21, 26))
    assert await store.boards.qualification_count(GUILD, "darts", None) == 25
    assert await store.boards.qualification_count(GUILD, "darts", "2026-11-30") == 0
    assert await store.boards.qualification_count(GUILD + 1, "darts", None) == 1
    sprint_board = await store.boards.qualification_leaderboard(GUILD, "sprint", None)
    assert [r.game_id for r in sprint_board] == ["other-set"]


async def test_a_page_carries_the_boards_count(store: Store) -> None:
    """`qualification_page` is the board's page and `qualification_count` in one query:
    the same rows and the same count, on a page, past the last one, in a period, with a
    player's several games counted once and a barred player counted out."""
    for player in range(1, 26):
        await _save(store, single(f"p{player}", player, CHECKOUT_5, seconds=float(player)))
    await _save(store, single("p1-again", 1, NO_CHECKOUT), period="2026-11-30")
    await _save(store, single("lost", 30, [100], timeout=True))
    assert await store.moderation.bar_player(GUILD, 25, 1, "test", 1.0)
    for since in (None, "2026-11-30", "2026-12-01"):
        for offset in (0, 10, 20, 30):
            rows, total = await store.boards.qualification_page(
                GUILD, "darts", since, limit=10, offset=offset
            )
            board = await store.boards.qualification_leaderboard(
                GUILD, "darts", since, limit=10, offset=offset
            )
            assert rows == board
            assert total == await store.boards.qualification_count(GUILD, "darts", since)
    assert (await store.boards.qualification_page(GUILD, "darts", None, offset=30))[1] == 24
    assert (await store.boards.qualification_page(GUILD, "darts", "2026-11-30"))[1] == 1
    assert await store.boards.qualification_page(GUILD + 1, "darts", None) == ([], 0)


async def test_elo_on_a_series_of_duels(store: Store) -> None:
    win_a = duel("d1", (1, 2), [(100, 1), (100, 1), (100, 1), (51, 1)])
    draw = duel("d2", (1, 2), [(1, 1)] * 7)
    resign = duel("d3", (1, 3), [(100, 100)], resign=0)
    both_zero = duel("d4", (2, 3), [(100, 100), (100, 100), (100, 100), (51, 51)])
    assert draw.outcome is not None and draw.outcome.winner is None
    assert both_zero.outcome is not None and both_zero.outcome.winner is None
    await _save(store, win_a, draw, resign, both_zero)
    assert await store.boards.record_duel_result(record(win_a)) == [
        RatingChange(1, 1000, 1016),
        RatingChange(2, 1000, 984),
    ]
    assert await store.boards.record_duel_result(record(draw)) == [
        RatingChange(1, 1016, 1015),
        RatingChange(2, 984, 985),
    ]
    assert await store.boards.record_duel_result(record(resign)) == [
        RatingChange(1, 1015, 998),
        RatingChange(3, 1000, 1017),
    ]
    assert await store.boards.record_duel_result(record(both_zero)) == [
        RatingChange(2, 985, 986),
        RatingChange(3, 1017, 1016),
    ]
    board = await store.boards.duel_leaderboard(GUILD)
    assert [(r.rank, r.user_id, r.rating, r.games, r.wins, r.draws, r.losses) for r in board] == [
        (1, 3, 1016, 2, 1, 1, 0),
        (2, 1, 998, 3, 1, 1, 1),
        (3, 2, 986, 3, 0, 2, 1),
    ]
    assert sum(r.rating for r in board) == 3000
    assert await store.boards.duel_count(GUILD) == 3
    assert await store.boards.duel_count(GUILD + 1) == 0
    assert await store.boards.duel_leaderboard(GUILD + 1) == []


async def test_rating_a_duel_twice_counts_once(store: Store) -> None:
    game = duel("once", (1, 2), [(100, 1), (100, 1), (100, 1), (51, 1)])
    await _save(store, game)
    first = await store.boards.record_duel_result(record(game))
    again = await store.boards.record_duel_result(record(game))
    assert first == again
    board = await store.boards.duel_leaderboard(GUILD)
    assert [(r.user_id, r.rating, r.games) for r in board] == [(1, 1016, 1), (2, 984, 1)]


async def test_only_saved_finished_duels_are_rated(store: Store) -> None:
    running = duel("run", (1, 2), [(100, 1)])
    await _save(store, running)
    with pytest.raises(ValueError, match="not a finished duel"):
        await store.boards.record_duel_result(record(running))
    finished = duel("unsaved", (1, 2), [(1, 1)] * 7)
    with pytest.raises(ValueError, match="save the finished duel"):
        await store.boards.record_duel_result(record(finished))
    with pytest.raises(ValueError, match="not a finished duel"):
        await store.boards.record_duel_result(record(single("q", 1, CHECKOUT_4)))


async def test_player_stats(store: Store) -> None:
    await _save(
        store,
        single("perfect", 1, CHECKOUT_4, seconds=10.0),  # 150*3 + 51 = 501 over 4 rounds
        single("five", 1, CHECKOUT_5, mode=rules.Mode.TRAINING),  # 600 + 99 over 5
        single("max", 1, NO_CHECKOUT),  # 7 over 7
        single("timeout", 1, [], timeout=True),  # no answer
    )
    await store.games.save_game(record(single("running", 1, [100])))
    game = duel("duel", (1, 2), [(100, 1), (100, 1), (100, 1), (51, 1)])
    await _save(store, game)
    await store.boards.record_duel_result(record(game))
    stats = await store.boards.player_stats(GUILD, 1)
    assert (stats.games, stats.checkouts, stats.perfects, stats.rounds) == (5, 3, 2, 20)
    assert stats.wins == 4  # checkouts and the full-length game; the timeout is lost
    assert stats.avg_points == pytest.approx((501 + 699 + 7 + 501) / 20)
    assert stats.best is not None and stats.best.game_id == "perfect"
    assert stats.duel is not None
    assert (stats.duel.rank, stats.duel.rating, stats.duel.wins) == (1, 1016, 1)
    loser = await store.boards.player_stats(GUILD, 2)
    assert (loser.games, loser.checkouts, loser.best) == (1, 0, None)
    assert loser.duel is not None and (loser.duel.rank, loser.duel.losses) == (2, 1)
    nobody = await store.boards.player_stats(GUILD, 3)
    assert (nobody.games, nobody.avg_points, nobody.best, nobody.duel) == (0, None, None, None)
