"""The room's flow without Discord: a restart resumes only the rooms of this process's
servers (shards), so two processes never run one room's timers, and a round the bot
missed while down is played again through the face."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

import rules
from bot.common import SetsDirectory
from bot.play.rooms import RoomFlow
from bot.storage import RoomRecord, Store
from rules.game import StartRound
from rules.room import Join, Phase, apply, new_room
from solver.result import Candidate

pytestmark = pytest.mark.asyncio(loop_scope="session")
T0 = 1_700_000_000.0


class ShownFace:
    """A face that keeps what it was asked to show (the flow's only way out)."""

    def __init__(self) -> None:
        self.rounds: list[tuple[str, int]] = []

    async def open_thread(self, record: RoomRecord) -> int:
        return 1

    async def post_round(self, record: RoomRecord) -> tuple[int, float]:
        self.rounds.append((record.state.id, record.state.rounds[-1].number))
        return 100 + len(self.rounds), record.state.rounds[-1].started_at

    async def end_round(
        self, record: RoomRecord, number: int, message_id: int, best: Sequence[Candidate | None]
    ) -> None:
        del record, number, message_id, best

    async def lobby_closed(self, record: RoomRecord) -> None:
        del record

    async def finished(self, record: RoomRecord) -> None:
        del record


async def playing_room(store: Store, room_id: str, guild_id: int) -> None:
    state = apply(new_room(room_id, rules.CLASSIC, "10", 2, T0), Join("11"))
    state = apply(state, StartRound("1234", T0))
    record = RoomRecord(state, guild_id, 5, "en", T0, thread_id=7, round_message_id=8)
    await store.rooms.save(record, T0)


async def test_a_restart_resumes_only_this_processs_rooms(store, evaluator) -> None:
    await playing_room(store, "a" * 32, guild_id=1)
    await playing_room(store, "b" * 32, guild_id=2)
    now = T0 + 3600.0  # the bot was down an hour: both rounds are long overdue
    flow = RoomFlow(store, evaluator, SetsDirectory(store, {"darts": rules.CLASSIC}),
                    lambda: now, lambda: "1234", owns=lambda guild_id: guild_id == 1)  # fmt: skip
    face = ShownFace()
    flow.face = face
    try:
        assert await flow.recover() == 1
    finally:
        flow.close()
    assert face.rounds == [("a" * 32, 1)]  # played again, posted anew
    mine = await store.rooms.load("a" * 32)
    theirs = await store.rooms.load("b" * 32)
    assert mine is not None and theirs is not None
    assert mine.state.rounds[0].started_at == now and mine.round_message_id == 101
    assert theirs.state.rounds[0].started_at == T0 and theirs.version == 1  # untouched
    assert mine.state.phase is Phase.PLAYING
