"""A game record is a value: the store never writes into the caller's object.

`_advance.plan` once set `created_at` on the record it was handed, and the full save
did too; a record kept elsewhere (this process's `ActiveGames`, a test) changed under
its holder. Frozen, a change is a new record (`dataclasses.replace`).
"""

from __future__ import annotations

import dataclasses

import pytest

import rules
from bot.storage import GameMeta, GameRecord, Store
from tests.bot.storage.builders import GUILD, single


def test_a_record_and_its_meta_cannot_be_written_through() -> None:
    record = GameRecord(state=single("frozen", 1, [100]), guild_id=GUILD, channel_id=7)
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.created_at = 5.0  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        record.meta.round_message_id = 9  # type: ignore[misc]
    with pytest.raises(TypeError):  # built by keyword, never by position
        GameRecord(record.state, GUILD, 7)  # type: ignore[misc]
    meta = GameMeta(best=[])  # type: ignore[arg-type]  # a list handed in is kept as a tuple: nothing in it to append to
    assert meta.best == ()


async def test_saving_leaves_the_callers_record_as_it_was(store: Store) -> None:
    """The new game's start comes from its state (created_at 0: unknown), and the next
    step's shortcut keeps the stored start; neither lands in the object saved."""
    state = rules.new_game("kept", rules.Mode.TRAINING, rules.CLASSIC, ["5"])
    state = rules.apply(state, rules.StartRound("3489", 1000.0))
    first = GameRecord(state=state, guild_id=GUILD, channel_id=7)
    before = dataclasses.replace(first)
    await store.games.save_game(first)
    assert first == before and first.created_at == 0.0
    loaded = await store.games.load_game("kept")
    assert loaded is not None and loaded.created_at == 1000.0

    answered = rules.apply(state, rules.Submit("5", "3+4*8+9", 44, 1003.0))
    second = dataclasses.replace(first, state=answered)  # still created_at 0: the shortcut's way
    await store.games.save_game(second, now=1003.0)
    assert second.created_at == 0.0
    again = await store.games.load_game("kept")
    assert again is not None and again.created_at == 1000.0
    assert again.state.to_dict() == answered.to_dict()
