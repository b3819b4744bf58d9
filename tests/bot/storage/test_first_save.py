"""A new game's first save on a SQLite file goes through the lane (`_first`): one
transaction, no SQLAlchemy writer holding the Store's lock across thread hops; the rows
are the full way's; a game already stored is refused there and decided the full way;
a failure part way leaves nothing of the game behind."""

from __future__ import annotations

import dataclasses
import sqlite3
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager
from pathlib import Path

import pytest
from sqlalchemy.ext.asyncio import AsyncConnection

import rules
from bot.storage import Face, GameMeta, GameRecord, StaleGame, Store, _games, open_store
from tests.bot.storage.builders import duel, record, single
from tests.bot.storage.test_advance import rows


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[Store]:
    opened = await open_store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    try:
        yield opened
    finally:
        await opened.close()


def writers(store: Store) -> list[str]:
    """Count the SQLAlchemy write transactions `store.games` opens from now on."""
    opened: list[str] = []
    write = store.games._write

    def counted() -> AbstractAsyncContextManager[AsyncConnection]:
        opened.append("write")
        return write()

    store.games._write = counted
    return opened


def games() -> list[GameRecord]:
    """New games as the service saves them: a round open, one already answered, one
    that ended at once, a duel, and one of another face with a meta of its own."""
    training = single("t", 5, [], mode=rules.Mode.TRAINING)
    opened = rules.apply(training, rules.StartRound("4589", 9000.0))
    answered = single("a", 5, [100], mode=rules.Mode.TRAINING)
    over = rules.apply(opened, rules.Resign("5"))
    faced = dataclasses.replace(
        record(dataclasses.replace(opened, id="w")),
        face=Face.WEB,
        meta=GameMeta(locale="uk", round_message_id=7),
    )
    return [
        record(opened),
        record(answered),
        record(dataclasses.replace(over, id="o")),
        record(rules.apply(duel("d", (1, 2), []), rules.StartRound("4589", 9000.0))),
        faced,
    ]


async def test_a_new_game_is_one_lane_transaction(store: Store) -> None:
    """Seen failing before `_first`: each new game opened a SQLAlchemy write
    transaction (about ten statements, each a few hops to aiosqlite's thread) with the
    Store's writer lock held throughout, and every answer's save queued behind it."""
    opened = writers(store)
    for game in games():
        await store.games.save_game(game, now=9000.0)
    assert opened == []
    assert all(store.games._known.knows(game.state.id) for game in games()[:2])


async def test_the_lane_writes_the_full_ways_rows(store: Store) -> None:
    for game in games():
        await store.games.save_game(game, now=9000.0)
        full = dataclasses.replace(
            game, state=dataclasses.replace(game.state, id=f"full-{game.state.id}")
        )
        async with store.games._write() as conn:
            await _games.save(conn, full, 9000.0)
        lane = await rows(store, game.state.id)
        assert lane == await rows(store, full.state.id)
        assert lane[0] and lane[1]  # the game row and its seats at least
        loaded = await store.games.load_game(game.state.id)
        assert loaded is not None and loaded.state.to_dict() == game.state.to_dict()
        assert (loaded.face, loaded.meta) == (game.face, game.meta)


async def test_a_game_stored_already_is_decided_the_full_way(tmp_path: Path) -> None:
    """Another process (or this one before a restart) wrote the game: the lane's insert
    is refused by the key and writes nothing; the full way then takes the next step,
    the same state again, and refuses a rival history as it always did."""
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    one, two = await open_store(url), await open_store(url, migrate=False)
    try:
        base = rules.apply(duel("g", (1, 2), []), rules.StartRound("4589", 9000.0))
        await one.games.save_game(record(base))
        answered = rules.apply(base, rules.Submit("1", "45+89", 134, 9001.0))
        opened = writers(two)
        await two.games.save_game(record(answered))
        assert opened == ["write"]  # the full way, after the lane's insert was refused
        loaded = await one.games.load_game("g")
        assert loaded is not None and loaded.state.to_dict() == answered.to_dict()
        await two.games.save_game(record(answered))  # the same state: its own retry
        rival = rules.apply(base, rules.Submit("2", "4*5+89", 109, 9001.5))
        fresh = await open_store(url, migrate=False)
        try:
            with pytest.raises(StaleGame):
                await fresh.games.save_game(record(rival))
        finally:
            await fresh.close()
        assert (await rows(one, "g"))[3] == (await rows(two, "g"))[3]
        assert len((await rows(one, "g"))[3]) == 1  # one answer: the rival's never landed
    finally:
        await one.close()
        await two.close()


async def test_a_failure_part_way_leaves_nothing_of_the_game(store: Store, tmp_path: Path) -> None:
    """The seats' insert fails after the game row went in (a trigger stands for the
    disk or a constraint failing there): the game row is undone with it, and the same
    save later writes the whole game."""
    path = tmp_path / "games.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute(
            "CREATE TRIGGER no_seats BEFORE INSERT ON game_players "
            "BEGIN SELECT RAISE(ABORT, 'no seats today'); END"
        )
    game = games()[0]
    with pytest.raises(StaleGame):  # refused in the lane, then twice the full way
        await store.games.save_game(game, now=9000.0)
    assert await rows(store, "t") == [[], [], [], []]
    assert not store.games._known.knows("t")
    with sqlite3.connect(path) as conn:
        conn.execute("DROP TRIGGER no_seats")
    await store.games.save_game(game, now=9000.0)
    saved = await rows(store, "t")
    assert len(saved[0]) == 1 and len(saved[1]) == 1 and len(saved[2]) == 1


async def test_a_qualification_counts_its_attempts_the_full_way(store: Store) -> None:
    opened = writers(store)
    state = rules.apply(single("q", 5, []), rules.StartRound("4589", 9000.0))
    await store.games.save_game(record(state), now=9000.0)
    assert opened == ["write"]
