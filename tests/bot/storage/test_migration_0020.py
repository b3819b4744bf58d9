"""Migration 0020 on a database populated at 0019, SQLite and PostgreSQL: what was there
stays, the puzzle tables come, and a pool, a run and its answers are stored and read."""

from __future__ import annotations

import rules
from bot.storage import Puzzle, PuzzleAnswer, PuzzleKind, PuzzleRun, open_store
from tests.bot.storage.migrating import upgrade_from

T0 = 1_700_000_000.0


async def test_a_database_at_0019_upgrades_and_keeps_puzzles(db_url: str) -> None:
    config = {"guild_id": 1, "timezone": "Europe/Kyiv", "updated_at": 1.0, "web_on": False}
    await upgrade_from(db_url, "0019", {"server_config": [{**config, "solo_games": "thread"}]})
    store = await open_store(db_url)
    try:
        assert (await store.servers.settings(1)).solo_games == "thread"
        darts = rules.CLASSIC
        await store.puzzles.want(darts, T0)
        await store.puzzles.want(darts, T0 + 1)  # again: one row
        first = await store.puzzles.add(darts, "3489", 501, "34+89", 123, 424, T0)
        second = await store.puzzles.add(darts, "7001", 501, "700+1", 701, 0, T0)
        floaty = await store.puzzles.add(darts, "7200", 3.5, "7/2+0+0", 3.5, 0.0, T0)
        assert [s.name for s in await store.puzzles.wanted()] == ["darts"]
        assert await store.puzzles.count(darts) == 3
        kept = await store.puzzles.puzzle(floaty)
        assert kept == Puzzle(floaty, "darts", "7200", 3.5, "7/2+0+0", 3.5, 0.0)
        assert isinstance(kept.best_score, float)  # PHP's float 0.0 stays a float

        run = PuzzleRun("r1", 1, 10, PuzzleKind.STORM, darts, "uk", None, T0, T0 + 180,
                        first, T0, 0.0, 0, 0, None)  # fmt: skip
        assert await store.puzzles.start(run)
        assert not await store.puzzles.start(run)  # one run of an id
        puzzle = await store.puzzles.puzzle(first)
        assert puzzle is not None
        answer = PuzzleAnswer(1, puzzle, "34+89", 424, 1.0, 4.5)
        assert await store.puzzles.answer(run, answer, next_puzzle=second, shown_at=T0 + 5,
                                          ends_at=T0 + 180, finished_at=None)  # fmt: skip
        assert not await store.puzzles.answer(run, answer, next_puzzle=second, shown_at=T0 + 5,
                                              ends_at=T0 + 180, finished_at=None)  # fmt: skip
        loaded = await store.puzzles.run("r1")
        assert loaded is not None and loaded.game_set == darts and loaded.locale == "uk"
        assert (loaded.total, loaded.solved, loaded.answered, loaded.puzzle_id) == (
            1.0,
            1,
            1,
            second,
        )
        assert await store.puzzles.answers("r1") == [answer]
        assert [r.id for r in await store.puzzles.expired(T0 + 181, 10)] == ["r1"]
        await store.puzzles.finish("r1", T0 + 181)
        assert await store.puzzles.expired(T0 + 181, 10) == []
        assert await store.puzzles.day(1, "2026-12-07", second) == second
        assert await store.puzzles.day(1, "2026-12-07", first) == second  # chosen once
    finally:
        await store.close()
