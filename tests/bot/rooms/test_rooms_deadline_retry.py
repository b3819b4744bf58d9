"""A room's deadline that meets the store down for a moment is tried again, as a game's
is (the chaos run found rooms left in their lobby or mid-round for good: the timer's one
try failed on a database fault and nothing armed another until a restart)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy import event

from bot.storage import Store
from rules.room_state import Phase
from tests.bot.rooms.test_rooms_sim import answer, live_round, open_full_room, seen
from tests.support.sim import message_text

pytestmark = pytest.mark.asyncio(loop_scope="session")


@contextmanager
def rooms_table_fails(store: Store, times: int) -> Iterator[list[str]]:
    """The next `times` statements reading the rooms table fail, as a dropped connection
    would; yields the statements failed."""
    failed: list[str] = []

    def before(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
        del conn, cursor, args
        if len(failed) < times and "FROM rooms" in statement:
            failed.append(statement)
            raise sa.exc.OperationalError(statement, {}, Exception("the database is away"))

    engine = store.engine.sync_engine
    event.listen(engine, "before_cursor_execute", before)
    try:
        yield failed
    finally:
        event.remove(engine, "before_cursor_execute", before)


async def test_a_round_deadline_that_fails_is_tried_again(world) -> None:
    thread = await open_full_room(world, [world.alice, world.bob, world.carol])
    first = live_round(thread)
    await answer(world.alice, first, "12+34")
    with rooms_table_fails(world.store, times=2) as failed:
        await world.env.advance_time(61)  # the deadline: its load fails
        assert failed
    await world.env.advance_time(5)  # tried again after 1 s, then 2 s
    assert "revealed" in seen(thread, first.id).embeds[0].title
    assert "round 2 of 4" in live_round(thread).embeds[0].title, message_text(thread.last_message)
    rooms = await world.store.rooms.open_rooms()
    assert [r.state.phase for r in rooms] == [Phase.PLAYING]
