"""`board_best` (each player's best game, kept by triggers) ranks exactly as the window
over `games` does, on SQLite and PostgreSQL: after random saves, voids, unvoids, bars,
a game moved to another version and deleted games, every all-time board page read from
`board_best` equals the window's (RULES.md's order, ties to the earlier game, lost and
void games off, barred players off)."""

from __future__ import annotations

import asyncio
import random

import pytest
import sqlalchemy as sa

from bot.storage import LeaderRow, Store, open_store
from bot.storage._board_best import board_best
from bot.storage._boards import window_page
from bot.storage._games import games
from tests.bot.storage.builders import GUILD, record, single
from tests.support.sim import REAL_WORK_S

ADMIN = 99
RESULTS = ([100, 100, 100, 51], [100, 100, 100, 100, 99], [1] * 7, [100, 100, 100, 100, 1])
"""A Perfect, a five-round checkout, maxRound with 494 left, maxRound with 100 left."""


async def _pages(store: Store, version: str, size: int) -> list[tuple[list[LeaderRow], int]]:
    """Every page of the version's all-time board, from `board_best` and from the window."""
    out = []
    for offset in range(0, 30, size):
        best = await store.boards.qualification_page(
            GUILD, "darts", None, limit=size, offset=offset, version=version
        )
        async with store.engine.connect() as conn:
            window = await window_page(conn, GUILD, "darts", None, size, offset, version)
        assert best == window, (offset, best, window)
        out.append(best)
    return out


async def test_the_best_table_ranks_as_the_window_does_on_random_games(store: Store) -> None:
    rng = random.Random(34)
    saved: list[str] = []
    version = ""
    for index in range(100):
        game_id = f"g{index:03d}"
        player = rng.randrange(8)
        lost = rng.random() < 0.15  # a timeout after two rounds: rank_class 2, not ranked
        results = [100, 100] if lost else rng.choice(RESULTS)
        seconds = rng.choice((5.0, 10.0))
        state = single(game_id, player, results, seconds=seconds, timeout=lost)
        await store.games.save_game(record(state))
        saved.append(game_id)
        version = version or (await store.boards.set_versions(GUILD, "darts"))[0]
        roll = rng.random()
        if roll < 0.15:
            await store.moderation.void_game(
                GUILD, rng.choice(saved), ADMIN, "random", float(index)
            )
        elif roll < 0.25:
            await store.moderation.unvoid_game(
                GUILD, rng.choice(saved), ADMIN, "random", float(index)
            )
        elif roll < 0.3:
            await store.moderation.bar_player(
                GUILD, rng.randrange(8), ADMIN, "random", float(index)
            )
        elif roll < 0.35:
            await store.moderation.unbar_player(
                GUILD, rng.randrange(8), ADMIN, "random", float(index)
            )
        elif roll < 0.5:
            best = await store.boards.qualification_page(
                GUILD, "darts", None, limit=30, version=version
            )
            leaders = [row.game_id for row in best[0]]  # a best game, whose row must change
            async with store.engine.begin() as conn:  # another version; or gone
                moved = games.c.id == rng.choice(leaders or saved)
                if rng.random() < 0.5:
                    await conn.execute(games.update().where(moved).values(set_version="v2"))
                else:
                    await conn.execute(games.delete().where(moved))
        for each in {version, "v2"}:  # after every step: a stale row may heal later
            await _pages(store, each, 10)
    async with store.engine.connect() as conn:
        versions = set((await conn.execute(sa.select(games.c.set_version).distinct())).scalars())
    assert "v2" in versions and len(versions) == 2
    totals = []
    for version in versions:
        for size in (3, 10):
            pages = await _pages(store, version, size)
        totals.append(pages[0][1])
    assert max(totals) >= 3  # the comparison saw a board, not two empty ones


async def test_a_players_best_follows_void_and_unvoid(store: Store) -> None:
    await store.games.save_game(record(single("slow", 1, RESULTS[1])))
    await store.games.save_game(record(single("fast", 1, RESULTS[0])))
    await store.games.save_game(record(single("other", 2, RESULTS[2])))
    version = (await store.boards.set_versions(GUILD, "darts"))[0]

    async def board() -> list[tuple[int, str]]:
        rows, _ = await store.boards.qualification_page(GUILD, "darts", None, version=version)
        return [(row.user_id, row.game_id) for row in rows]

    assert await board() == [(1, "fast"), (2, "other")]
    assert await store.moderation.void_game(GUILD, "fast", ADMIN, "copied", 1.0)
    assert await board() == [(1, "slow"), (2, "other")]
    assert await store.moderation.void_game(GUILD, "slow", ADMIN, "copied", 2.0)
    assert await board() == [(2, "other")]
    assert await store.moderation.unvoid_game(GUILD, "fast", ADMIN, "fair", 3.0)
    assert await board() == [(1, "fast"), (2, "other")]
    async with store.engine.begin() as conn:  # moved to another version: off this board
        await conn.execute(games.update().where(games.c.id == "fast").values(set_version="v2"))
    assert await board() == [(2, "other")]  # "slow" is still void
    rows, total = await store.boards.qualification_page(GUILD, "darts", None, version="v2")
    assert [(row.user_id, row.game_id) for row in rows] == [(1, "fast")] and total == 1


async def _lock_waiter(store: Store) -> None:
    """Until a transaction waits for a player's key (the triggers' advisory lock)."""
    waiting = sa.text("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted")
    while True:
        async with store.engine.connect() as conn:
            if await conn.scalar(waiting):
                return
        await asyncio.sleep(0.01)


@pytest.mark.postgres
async def test_two_transactions_changing_one_players_games_on_postgres(postgres_url: str) -> None:
    """Two writers of one player's games at once (an admin's void beside another's
    unvoid, say): the second's recomputation waits for the first's commit (the
    triggers' transaction lock on the player's key) and sees its change. Without the
    lock its INSERT would hit the row the first committed (seen failing: duplicate key)."""
    store = await open_store(postgres_url)
    try:
        for game_id in ("first", "a", "b"):
            await store.games.save_game(record(single(game_id, 1, RESULTS[2])))
        version = (await store.boards.set_versions(GUILD, "darts"))[0]

        def better(game_id: str, by: float) -> sa.Update:
            faster = games.c.answer_time - by
            return games.update().where(games.c.id == game_id).values(answer_time=faster)

        async with store.engine.connect() as one, store.engine.connect() as two:
            await one.begin()
            await two.begin()
            await one.execute(better("a", 1.0))
            second = asyncio.create_task(two.execute(better("b", 2.0)))
            await asyncio.wait_for(_lock_waiter(store), REAL_WORK_S)  # blocked on the key
            assert not second.done()
            await one.commit()
            await asyncio.wait_for(second, REAL_WORK_S)
            await two.commit()
        rows, total = await store.boards.qualification_page(GUILD, "darts", None, version=version)
        assert [(row.user_id, row.game_id) for row in rows] == [(1, "b")] and total == 1
        async with store.engine.connect() as conn:
            assert await conn.scalar(sa.select(board_best.c.game_id)) == "b"
    finally:
        await store.close()
