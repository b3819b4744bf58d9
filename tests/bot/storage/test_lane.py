"""The common save on a SQLite file in one go (`_lane`): while another process holds
SQLite's writer lock it waits off the event loop, what it writes a restart reads, and a
save cancelled while waiting leaves the store consistent."""

from __future__ import annotations

import asyncio
import dataclasses
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

import rules
from bot.storage import GameMeta, GameRecord, Store, open_store
from tests.bot.storage.builders import duel, record


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "games.sqlite3"


@contextmanager
def other_process_writing(path: Path) -> Iterator[sqlite3.Connection]:
    """SQLite's writer lock, held by a connection of its own (as another bot process's
    transaction would), until the block ends."""
    conn = sqlite3.connect(path, isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        yield conn
        conn.execute("ROLLBACK")
    finally:
        conn.close()


def opened(game_id: str) -> rules.GameState:
    return rules.apply(duel(game_id, (1, 2), []), rules.StartRound("4589", 9000.0))


async def known_game(store: Store, game_id: str) -> rules.GameState:
    """A game this store saved (so its next save takes the shortcut)."""
    state = opened(game_id)
    await store.games.save_game(record(state))
    return state


async def test_the_shortcut_is_taken_on_a_sqlite_file(path: Path) -> None:
    store = await open_store(f"sqlite:///{path}")
    try:
        assert store._lane is not None
        state = await known_game(store, "g")
        planned = store.games._known.plan(
            record(rules.apply(state, rules.RoundShown(9000.5))), None
        )
        assert planned is not None  # the next step is one the lane writes
    finally:
        await store.close()


async def test_a_save_waits_for_another_writer_off_the_loop(path: Path) -> None:
    """Seen failing with the lane's loop connection waiting on SQLite's lock itself
    (busy_timeout on the loop): the ticker stood still for the whole wait."""
    store = await open_store(f"sqlite:///{path}")
    try:
        state = await known_game(store, "g")
        answered = rules.apply(state, rules.Submit("1", "45+89", 134, 9001.0))
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        ticking = asyncio.create_task(ticker())
        with other_process_writing(path):
            saving = asyncio.create_task(store.games.save_game(record(answered)))
            await asyncio.sleep(0.5)
            assert not saving.done()  # it waits for the lock...
            assert ticks >= 10  # ...while the loop goes on
        await asyncio.wait_for(saving, 10)
        ticking.cancel()
        loaded = await store.games.load_game("g")
        assert loaded is not None and loaded.state.to_dict() == answered.to_dict()
    finally:
        await store.close()


async def test_a_restart_reads_what_the_lane_wrote(path: Path) -> None:
    """When the round appeared and its message: written by the lane, read after a restart."""
    store = await open_store(f"sqlite:///{path}")
    try:
        state = await known_game(store, "g")
        shown = rules.apply(state, rules.RoundShown(9000.25))
        meta = GameMeta(locale="uk", round_message_id=4242)
        await store.games.save_game(dataclasses.replace(record(shown), meta=meta), now=9000.3)
    finally:
        await store.close()
    again = await open_store(f"sqlite:///{path}", migrate=False)
    try:
        loaded = await again.games.load_game("g")
        assert loaded is not None
        assert loaded.state.to_dict() == shown.to_dict()
        assert loaded.state.rounds[0].shown_at == 9000.25
        assert loaded.meta.round_message_id == 4242
    finally:
        await again.close()


async def test_a_save_cancelled_while_waiting_leaves_the_store_consistent(path: Path) -> None:
    store = await open_store(f"sqlite:///{path}")
    try:
        state = await known_game(store, "g")
        answered = rules.apply(state, rules.Submit("1", "45+89", 134, 9001.0))
        with other_process_writing(path):
            saving = asyncio.create_task(store.games.save_game(record(answered)))
            await asyncio.sleep(0.3)
            saving.cancel()
            await asyncio.sleep(0.1)
            assert not saving.done()  # it keeps the Store's lock until SQLite's thread is done
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(saving, 10)
        # it may have landed once the lock was free: the next save reads the row first
        shown = rules.apply(answered, rules.RoundShown(9001.5))
        await store.games.save_game(record(shown))
        loaded = await store.games.load_game("g")
        assert loaded is not None and loaded.state.to_dict() == shown.to_dict()
        assert isinstance(loaded, GameRecord)
    finally:
        await store.close()
