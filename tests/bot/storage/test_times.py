"""A game's times come from the clock that played it, never from this machine's."""

from __future__ import annotations

import sqlalchemy as sa

import rules
from bot.storage import Store
from tests.bot.storage.builders import CHECKOUT_4, START, duel, record, single


async def _times(store: Store, game_id: str) -> tuple[float, float | None]:
    async with store.engine.connect() as conn:
        row = (
            await conn.execute(
                sa.text("SELECT created_at, finished_at FROM games WHERE id = :id"), {"id": game_id}
            )
        ).one()
    return row.created_at, row.finished_at


async def test_finished_at_is_the_states_last_answer_or_deadline(store: Store) -> None:
    checkout = single("co", 1, CHECKOUT_4, seconds=10.0)  # rounds start every 200 s
    await store.games.save_game(record(checkout))
    assert await _times(store, "co") == (START, START + 3 * 200 + 10)

    timeout = single("to", 2, [100], timeout=True)  # round 2 opens at START + 200
    await store.games.save_game(record(timeout))
    assert await _times(store, "to") == (START, START + 200 + rules.CLASSIC.time_limit)

    resigned = rules.apply(single("rs", 3, [100, 100]), rules.Resign("3"))
    await store.games.save_game(record(resigned))
    assert await _times(store, "rs") == (START, START + 200 + 10)


async def test_finished_at_when_a_running_game_ends_and_the_callers_clock(store: Store) -> None:
    running = single("run", 1, [100, 100, 100])
    await store.games.save_game(record(running))
    assert await _times(store, "run") == (START, None)
    played = rules.apply(running, rules.StartRound("1234", START + 600))
    await store.games.save_game(record(played))
    ended = rules.apply(played, rules.Submit("1", "1234", 51, START + 620))
    await store.games.save_game(record(ended))
    assert await _times(store, "run") == (START, START + 620)

    clocked = single("clock", 2, CHECKOUT_4)
    await store.games.save_game(record(clocked), now=START + 5000)
    assert await _times(store, "clock") == (START + 5000, START + 5000)


async def test_rating_events_are_dated_by_the_duel(store: Store) -> None:
    game = duel("dd", (1, 2), [(100, 1), (100, 1), (100, 1), (51, 1)])
    await store.games.save_game(record(game))
    await store.boards.record_duel_result(record(game))
    async with store.engine.connect() as conn:
        dates = (await conn.execute(sa.text("SELECT created_at FROM rating_events"))).scalars()
        assert set(dates) == {START + 3 * 200 + 5}
    assert (await _times(store, "dd"))[1] == START + 3 * 200 + 5
