"""Migration 0015 on a database populated at 0014, SQLite and PostgreSQL: the games
finished before it are reached by the backfill's cursor (oldest first, each once, a
running one not), best answers found after a game keep their number kinds (PHP's int 3
is not 3.0) and join the game's own, and the queue of owed games keeps its times."""

from __future__ import annotations

from dataclasses import replace

from bot.storage import GameMeta, Reveal, open_store
from rules import Mode
from tests.bot.storage.builders import CHECKOUT_4, NO_CHECKOUT, START, duel, record, single
from tests.bot.storage.migrating import upgrade_from


async def test_games_of_0014_are_queued_once_and_their_best_answers_kept(db_url: str) -> None:
    await upgrade_from(db_url, "0014", to="0014")
    old = await open_store(db_url, migrate=False)  # the 0014 schema the store wrote then
    try:
        own = Reveal(1, 0, "12*3+4", 40, 40, 461)
        first = record(single("a" * 32, 1, CHECKOUT_4))
        await old.games.save_game(replace(first, meta=GameMeta(best=(own,))), now=START + 10)
        await old.games.save_game(
            record(duel("b" * 32, (1, 2), [(100, 90)], resign=0)), now=START + 20
        )
        await old.games.save_game(record(single("c" * 32, 3, NO_CHECKOUT[:2])), now=START + 30)
        await old.games.save_game(
            record(single("d" * 32, 4, NO_CHECKOUT, mode=Mode.TRAINING)), now=START + 30
        )
    finally:
        await old.close()

    await upgrade_from(db_url, "0014")
    store = await open_store(db_url)
    try:
        best = store.best
        assert await best.due(START + 100, 10) == []
        assert await best.queue_finished(START + 1000, 2) == 2
        assert await best.queue_finished(START + 1000, 2) == 1  # "c" runs: never queued
        assert await best.queue_finished(START + 1000, 2) == 0
        owed = await best.due(START + 100, 10)
        assert {p.game_id for p in owed} == {"a" * 32, "b" * 32, "d" * 32}
        assert {p.tries for p in owed} == {0}

        await best.keep("a" * 32, Reveal(2, 0, "1*234", 234, 34, 467))
        await best.keep("a" * 32, Reveal(2, 0, "9*9", 81, 81, 270))  # once found, kept
        await best.keep("a" * 32, Reveal(3, 0, "2**.5", 1.5, 1.5, 199.5))
        await best.keep("a" * 32, Reveal(1, 0, "4*3", 12, 12, 489))  # the game's own wins
        game = await store.games.load_game("a" * 32)
        assert game is not None
        merged = (await best.with_found(game)).meta.best
        assert merged == (own, Reveal(2, 0, "1*234", 234, 34, 467),
                          Reveal(3, 0, "2**.5", 1.5, 1.5, 199.5))  # fmt: skip
        assert [type(b.result) for b in merged] == [int, int, float]

        await best.later("a" * 32, 1, START + 500)
        await best.settled("b" * 32)
        assert [p.game_id for p in await best.due(START + 100, 10)] == ["d" * 32]
        later = await best.due(START + 500, 10)
        assert [(p.game_id, p.tries) for p in later] == [("d" * 32, 0), ("a" * 32, 1)]
    finally:
        await store.close()
