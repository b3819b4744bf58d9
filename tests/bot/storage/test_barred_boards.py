"""A barred player is off the boards while barred, on SQLite and PostgreSQL: the
Qualification board and its count, the daily post's board, the Elo board and its count;
only on the server that barred them; unbarred, back in place."""

from __future__ import annotations

from bot.storage import Store
from tests.bot.storage.builders import CHECKOUT_4, DAY, GUILD, duel, record, single

ADMIN = 99


async def _board(store: Store, guild: int = GUILD) -> list[int]:
    return [r.user_id for r in await store.boards.qualification_leaderboard(guild, "darts", DAY)]


async def test_a_barred_player_leaves_every_board_and_comes_back(store: Store) -> None:
    await store.games.save_game(record(single("q1", 1, CHECKOUT_4)))
    await store.games.save_game(record(single("q2", 2, [1] * 7)))
    await store.games.save_game(record(single("q3", 1, CHECKOUT_4), guild=GUILD + 1))
    game = record(duel("d1", (1, 2), [(701, 1234)]))
    await store.games.save_game(game)
    await store.boards.record_duel_result(game)
    assert await _board(store) == [1, 2]
    assert await store.moderation.bar_player(GUILD, 1, ADMIN, "copied", 10.0)
    assert await _board(store) == [2]
    assert await store.boards.qualification_count(GUILD, "darts", DAY) == 1
    assert [r.user_id for r in (await store.servers.summary(GUILD, "darts", DAY)).board] == [2]
    assert [r.user_id for r in await store.boards.duel_leaderboard(GUILD)] == [2]
    assert await store.boards.duel_count(GUILD) == 1
    assert await _board(store, GUILD + 1) == [1]  # barred on one server only
    assert await store.moderation.unbar_player(GUILD, 1, ADMIN, "fair", 11.0)
    assert await _board(store) == [1, 2]
    assert [r.user_id for r in await store.boards.duel_leaderboard(GUILD)] == [1, 2]
