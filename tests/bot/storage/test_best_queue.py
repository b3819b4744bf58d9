"""The backfill's queue (`Store.best`), SQLite and PostgreSQL: games finished since its
first pass go ahead of the backlog, the backlog newest first, each game once (a second
store on the same database, as after a restart, goes on from the cursors)."""

from __future__ import annotations

from bot.storage import Store, open_store
from tests.bot.storage.builders import CHECKOUT_4, START, record, single


async def _finish(store: Store, game_id: str, at: float) -> None:
    await store.games.save_game(record(single(game_id, 1, CHECKOUT_4)), now=at)


async def test_new_games_go_ahead_of_the_backlog_which_goes_newest_first(db_url: str) -> None:
    store = await open_store(db_url)
    try:
        for n in range(5):
            await _finish(store, f"old{n}".ljust(32, "0"), START + n)
        assert await store.best.queue_finished(START + 100, 2) == 2
        backlog = await store.best.due(START + 100, 10)
        assert [p.game_id[:4] for p in backlog] == ["old4", "old3"]  # the newest two
        await _finish(store, "new0".ljust(32, "0"), START + 50)
    finally:
        await store.close()
    restarted = await open_store(db_url)
    try:
        assert await restarted.best.queue_finished(START + 100, 2) == 2
        owed = [p.game_id[:4] for p in await restarted.best.due(START + 100, 10)]
        assert owed == ["new0", "old4", "old3", "old2"]  # the new game first
        assert await restarted.best.queue_finished(START + 100, 5) == 2
        assert await restarted.best.queue_finished(START + 100, 5) == 0
        owed = sorted(p.game_id[:4] for p in await restarted.best.due(START + 100, 10))
        assert owed == ["new0", "old0", "old1", "old2", "old3", "old4"]
    finally:
        await restarted.close()
