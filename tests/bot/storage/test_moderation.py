"""Voiding games and barring players in the store: off the boards, stats and Elo, logged,
reversible; on SQLite and PostgreSQL."""

from __future__ import annotations

from bot.storage import ModerationAction, Store
from tests.bot.storage.builders import CHECKOUT_4, DAY, GUILD, duel, record, single

ADMIN = 99


async def test_a_voided_qualification_leaves_the_board_and_stats_and_comes_back(
    store: Store,
) -> None:
    await store.games.save_game(record(single("q1", 1, CHECKOUT_4)))
    await store.games.save_game(record(single("q2", 2, [1] * 7)))
    assert [
        r.game_id for r in await store.boards.qualification_leaderboard(GUILD, "darts", DAY)
    ] == [
        "q1",
        "q2",
    ]
    assert await store.moderation.void_game(GUILD, "q1", ADMIN, "copied the Digits", 10.0)
    assert [
        r.game_id for r in await store.boards.qualification_leaderboard(GUILD, "darts", DAY)
    ] == ["q2"]
    assert (await store.boards.player_stats(GUILD, 1)).games == 0
    assert await store.games.count_attempts(GUILD, 1, "darts", DAY) == 0  # a void uses no attempt
    assert await store.games.attempt_counts(GUILD, 1, "darts", DAY) == (0, 1)  # but was started
    voided = await store.games.load_game("q1")
    assert voided is not None and voided.meta.void_reason == "copied the Digits"
    assert await store.moderation.unvoid_game(GUILD, "q1", ADMIN, "it was fair after all", 12.0)
    assert [
        r.game_id for r in await store.boards.qualification_leaderboard(GUILD, "darts", DAY)
    ] == [
        "q1",
        "q2",
    ]
    assert (await store.boards.player_stats(GUILD, 1)).checkouts == 1
    log = await store.moderation.log(GUILD)
    assert [e.action for e in log][:2] == [ModerationAction.UNVOID, ModerationAction.VOID]
    assert log[-1].reason == "copied the Digits" and log[-1].actor_id == ADMIN


async def test_a_voided_duel_gives_its_elo_back_and_is_rated_again_when_restored(
    store: Store,
) -> None:
    game = record(duel("d1", (1, 2), [(701, 1234)]))
    await store.games.save_game(game)
    changes = await store.boards.record_duel_result(game)
    assert [c.after for c in changes] == [1016, 984]
    assert await store.moderation.void_game(GUILD, "d1", ADMIN, "collusion", 10.0)
    assert await store.boards.duel_leaderboard(GUILD) == []  # their only duel: off the Elo board
    assert await store.boards.duel_count(GUILD) == 0
    assert await store.moderation.unvoid_game(GUILD, "d1", ADMIN, "no collusion", 11.0)
    board = {row.user_id: row for row in await store.boards.duel_leaderboard(GUILD)}
    assert (board[1].rating, board[1].wins, board[2].rating) == (1016, 1, 984)


async def test_only_this_servers_finished_games_can_be_voided(store: Store) -> None:
    running = single("live", 1, [100])  # a round played, the game goes on
    await store.games.save_game(record(running))
    assert not await store.moderation.void_game(
        GUILD, "live", ADMIN, "no", 1.0
    )  # the games end it first
    await store.games.save_game(record(single("mine", 1, CHECKOUT_4)))
    assert not await store.moderation.void_game(GUILD + 1, "mine", ADMIN, "not ours", 1.0)
    assert not await store.moderation.unvoid_game(GUILD, "mine", ADMIN, "never voided", 1.0)
    assert await store.moderation.log(GUILD + 1) == []


async def test_barring_is_logged_and_reversible(store: Store) -> None:
    assert await store.moderation.barred_reason(GUILD, 5) is None
    assert await store.moderation.bar_player(GUILD, 5, ADMIN, "alt account", 1.0)
    assert not await store.moderation.bar_player(GUILD, 5, ADMIN, "again", 2.0)
    assert await store.moderation.barred_reason(GUILD, 5) == "alt account"
    assert await store.moderation.barred_reason(GUILD + 1, 5) is None  # per server
    assert await store.moderation.unbar_player(GUILD, 5, ADMIN, "appealed", 3.0)
    assert not await store.moderation.unbar_player(GUILD, 5, ADMIN, "again", 4.0)
    assert await store.moderation.barred_reason(GUILD, 5) is None
    actions = [e.action for e in await store.moderation.log(GUILD)]
    assert actions == [ModerationAction.UNBAR, ModerationAction.BAR]
