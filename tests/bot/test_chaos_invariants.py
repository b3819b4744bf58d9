"""The chaos run's room and Cup invariants can fail: each is handed what a sound run
leaves and a broken variant of it (a round resolved twice, a table posted twice, places
stored twice, a room lost, a double draw, a result counted twice, a second champion, a
lost leg) and must pass the first and name the break in the second."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from types import SimpleNamespace
from typing import TYPE_CHECKING, cast

import discord
import pytest

from bot.cup import CupService
from bot.storage import CupPhase, CupRecord
from rules.cup import Decision
from rules.room_state import Phase, RoomEnd
from tests.support.chaos_cup_invariants import (
    CupSeen,
    MatchSeen,
    cup_problems,
    cups_seen,
    uncalled,
)
from tests.support.chaos_room_invariants import RoomSeen, room_problems, shown_lost
from tests.support.sim import button_id

if TYPE_CHECKING:
    from tests.support.chaos import Chaos

ROOM = RoomSeen(
    "ab" * 16, stored=True, phase=Phase.OVER, end=RoomEnd.MAX_ROUNDS, players=4,
    rounds=(1, 2, 3), revealed=(1, 2, 3), tables=1, places=4,
)  # fmt: skip


def test_a_sound_room_keeps_every_promise() -> None:
    assert room_problems(ROOM) == []
    cancelled = replace(ROOM, end=RoomEnd.CANCELLED, rounds=(), revealed=(), tables=0, places=0)
    assert room_problems(cancelled) == []
    unshown = replace(ROOM, end=RoomEnd.VOID, revealed=(1, 2), unshown=(3,), places=0)
    assert room_problems(unshown) == []  # round 3's post failed: the room is void, unrevealed
    lost = replace(ROOM, revealed=(1, 3), tables=0)
    assert shown_lost(lost) == {"reveals lost": 1, "final tables lost": 1}


@pytest.mark.parametrize(
    ("broken", "names"),
    [
        (replace(ROOM, stored=False), "lost"),
        (replace(ROOM, phase=Phase.PLAYING), "never ended"),
        (replace(ROOM, revealed=(1, 2, 2, 3)), "resolved twice"),
        (replace(ROOM, rounds=(1, 2, 2)), "rounds stored as"),
        (replace(ROOM, revealed=(1, 2, 3, 4)), "revealed, not stored"),
        (replace(ROOM, scores_agree=False), "not those of its players' last answers"),
        (replace(ROOM, tables=2), "2 final tables"),
        (replace(ROOM, places=8), "8 places stored for 4"),
        (replace(ROOM, places=3), "3 places stored for 4"),
        (replace(ROOM, revealed=(1, 3)), "1 reveals lost"),
        (replace(ROOM, tables=0), "1 final tables lost"),
        (replace(ROOM, end=RoomEnd.CANCELLED, rounds=(), revealed=()), "final tables"),
        (replace(ROOM, end=RoomEnd.CANCELLED, rounds=(), revealed=(), tables=0), "places"),
    ],
)
def test_a_broken_room_is_named(broken: RoomSeen, names: str) -> None:
    problems = room_problems(broken)
    assert any(names in line for line in problems), problems


FINAL = MatchSeen("2.0", True, Decision.LEGS, (2, 1), (2, 1), 1)
CUP = CupSeen(
    cup_id=7, phase=CupPhase.OVER, announced=1, drawn=1, cancelled=0,
    crowned=("👑 <@11> is the champion of **Chaos Cup**!",), champion="11",
    bracket_champion="11",
    matches=(
        MatchSeen("1.0", True, Decision.BYE, (0, 0), (0, 0), None),
        MatchSeen("1.1", True, Decision.NO_SHOW, (0, 0), (0, 0), 1),
        FINAL,
    ),
)  # fmt: skip


def test_a_sound_cup_keeps_every_promise() -> None:
    assert cup_problems(CUP) == []
    cancelled = replace(CUP, phase=CupPhase.CANCELLED, drawn=0, cancelled=1, crowned=(),
                        champion=None, bracket_champion=None, matches=())  # fmt: skip
    assert cup_problems(cancelled) == []
    never_called = _final(results_posted=None)  # a Cup defect the run counts, not fails on
    assert cup_problems(never_called) == [] and uncalled(never_called) == 1


def _final(**changes: object) -> CupSeen:
    return replace(CUP, matches=(*CUP.matches[:2], replace(FINAL, **changes)))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("broken", "names"),
    [
        (replace(CUP, drawn=2), "2 draws posted"),
        (replace(CUP, phase=CupPhase.CANCELLED, cancelled=1), "draws posted"),
        (replace(CUP, announced=2), "announced 2 times"),
        (replace(CUP, phase=CupPhase.DRAWN), "never finished"),
        (_final(results_posted=2), "2 results posted"),
        (_final(wins=(3, 1)), "counts (3, 1), its legs (2, 1)"),
        (_final(decided=False), "never decided"),
        (replace(CUP, crowned=CUP.crowned * 2), "champion announced 2 times"),
        (replace(CUP, crowned=()), "champion announced 0 times"),
        (replace(CUP, champion="12"), "champion 12, the final's 11"),
        (replace(CUP, lost_legs=("c" * 32,)), "is no leg"),
        (replace(CUP, open_legs=("1.1.2",)), "leg 1.1.2 has no result"),
    ],
)
def test_a_broken_cup_is_named(broken: CupSeen, names: str) -> None:
    problems = cup_problems(broken)
    assert any(names in line for line in problems), problems


@pytest.mark.asyncio(loop_scope="session")
async def test_a_double_draw_on_simcord_is_seen(world, admin, monkeypatch) -> None:
    """The gathering end to end: a Cup drawn on simcord whose draw is posted twice (as two
    processes both drawing would) is named by what the chaos run reads of Discord."""

    async def drawn_twice(self: CupService, cup: CupRecord) -> None:
        for _ in range(2):
            await self.face.bracket(cup, None)

    monkeypatch.setattr(CupService, "show_bracket", drawn_twice)
    start = (discord.utils.utcnow() + timedelta(minutes=30)).strftime("%Y-%m-%d %H:%M")
    await admin.slash(
        world.channel, "cup create", name="Twice Cup", set="darts", start=start,
        seeding="elo", size=4, legs=1,
    )  # fmt: skip
    await world.env.advance_time(1)
    announcement = world.channel.last_message
    for member in (world.alice, world.bob):
        await member.click(announcement, custom_id=button_id(announcement, "fd:cup:in:"))
    await world.env.advance_time(30 * 60)
    seen = await cups_seen(cast("Chaos", SimpleNamespace(
        store=world.store, channel=world.channel, guild=world.guild,
    )))  # fmt: skip
    (cup,) = seen
    assert cup.phase is CupPhase.DRAWN and cup.drawn == 2
    assert any("2 draws posted" in line for line in cup_problems(cup)), cup_problems(cup)
