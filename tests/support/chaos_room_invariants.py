"""What the chaos run's rooms must still hold when it ends (RULES.md "Room"): no room lost
nor left open, no round resolved twice (revealed twice, or Scores that are not the last
answers'), every round revealed and a room's final table posted, once (a REST fault only
delays them: the flow keeps them owed until they land), and its places stored once.

`room_problems` judges plain facts (`RoomSeen`), so a test can hand it a broken variant
and see it complain; `rooms_seen` gathers those facts from what the simulated Discord
received and what the store keeps, never from the bot's memory."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

import discord
import sqlalchemy as sa

from bot.storage import RoomRecord
from rules.room_state import Phase, RoomEnd

if TYPE_CHECKING:
    from tests.support.chaos import Chaos

ROUND_TITLE = re.compile(r"— round (\d+) of \d+")
TABLES = ("🏁 **The room is over**", "⛔ The room is void")
PLACED = frozenset(set(RoomEnd) - {RoomEnd.VOID, RoomEnd.CANCELLED, RoomEnd.HOST_LEFT})


@dataclass(frozen=True)
class RoomSeen:
    room_id: str
    stored: bool
    phase: Phase | None = None
    end: RoomEnd | None = None
    players: int = 0
    rounds: tuple[int, ...] = ()
    """The numbers of the rounds stored, in order."""
    revealed: tuple[int, ...] = ()
    """The round number of each message in the room's thread that shows a round's reveal
    (a round replayed after a restart is posted again, but revealed once)."""
    scores_agree: bool = True
    """Each player's stored Score is the Score of their last answer (one resolution each)."""
    unshown: tuple[int, ...] = ()
    """Rounds never shown to the players (their post failed, the room went void): nothing
    of theirs to reveal."""
    tables: int = 0
    """Final tables (or void notices) posted in the thread: at most one."""
    places: int = 0
    """`room_places` rows stored for the room."""


def room_problems(seen: RoomSeen) -> list[str]:
    """Every promise about one room that is broken, a line each."""
    room = seen.room_id[:8]
    if not seen.stored:
        return [f"room {room}: lost (its lobby was shown, nothing is stored)"]
    if seen.phase is not Phase.OVER:
        return [f"room {room}: never ended ({seen.phase})"]
    broken = []
    if list(seen.rounds) != list(range(1, len(seen.rounds) + 1)):
        broken.append(f"room {room}: rounds stored as {list(seen.rounds)}")
    twice = sorted(n for n, count in Counter(seen.revealed).items() if count > 1)
    if twice:
        broken.append(f"room {room}: round(s) {twice} revealed more than once (resolved twice)")
    if not set(seen.revealed) <= set(seen.rounds):
        broken.append(f"room {room}: rounds {sorted(set(seen.revealed))} revealed, not stored")
    if not seen.scores_agree:
        broken.append(f"room {room}: its Scores are not those of its players' last answers")
    placed = seen.end in PLACED
    if seen.tables > 1 or (seen.tables and not placed and seen.end is not RoomEnd.VOID):
        broken.append(f"room {room}: {seen.tables} final tables for an end of {seen.end}")
    wanted = seen.players if placed else 0
    if seen.places != wanted:
        broken.append(f"room {room}: {seen.places} places stored for {wanted}")
    broken += [f"room {room}: {count} {what}" for what, count in shown_lost(seen).items() if count]
    return broken


def _revealed(message: discord.Message) -> int | None:
    """The number of the round the message reveals, if it shows a reveal."""
    for embed in message.embeds:
        found = ROUND_TITLE.search(embed.title or "")
        if found and "revealed" in (embed.title or ""):
            return int(found[1])
    return None


def room_seen(
    room_id: str, record: RoomRecord | None, thread: list[discord.Message], places: int
) -> RoomSeen:
    if record is None:
        return RoomSeen(room_id, stored=False)
    state = record.state
    return RoomSeen(
        room_id, stored=True, phase=state.phase, end=state.end, players=len(state.players),
        rounds=tuple(r.number for r in state.rounds),
        revealed=tuple(n for m in thread if (n := _revealed(m)) is not None),
        unshown=tuple(r.number for r in state.rounds if r.shown_at is None),
        scores_agree=_scores_agree(record),
        tables=sum(1 for m in thread if m.content.startswith(TABLES)),
        places=places,
    )  # fmt: skip


def _scores_agree(record: RoomRecord) -> bool:
    state = record.state
    for index, score in enumerate(state.scores):
        answers = [r.answers[index] for r in state.rounds if r.answers[index] is not None]
        if answers and answers[-1] is not None and answers[-1].score != score:
            return False
    return True


def shown_lost(seen: RoomSeen) -> Counter[str]:
    """Reveals and final tables the thread does not show after the play-out: a post or
    edit lost for good (the flow owes what Discord refused and tries it again until it
    lands, so any count here breaks the room's promise)."""
    unrevealed = set(seen.rounds) - set(seen.unshown) - set(seen.revealed)
    lost = Counter({"reveals lost": len(unrevealed)})
    if seen.end in PLACED and seen.tables == 0:
        lost["final tables lost"] += 1
    return lost


async def rooms_seen(chaos: Chaos) -> list[RoomSeen]:
    """Every room the walk opened or the store holds, as the run left it."""
    store = chaos.store
    async with store.engine.connect() as conn:
        stored = [row[0] for row in await conn.execute(sa.text("SELECT id FROM rooms"))]
        counted = await conn.execute(
            sa.text("SELECT room_id, COUNT(*) FROM room_places GROUP BY room_id")
        )
        places = {row[0]: int(row[1]) for row in counted}
    seen = []
    for room_id in sorted(chaos.rooms.opened | set(stored)):
        record = await store.rooms.load(room_id)
        thread = _thread(chaos, record)
        seen.append(room_seen(room_id, record, thread, places.get(room_id, 0)))
    return seen


def _thread(chaos: Chaos, record: RoomRecord | None) -> list[discord.Message]:
    if record is None or record.thread_id is None:
        return []
    found = next((t for t in chaos.channel.threads if t.id == record.thread_id), None)
    return [] if found is None else list(found.history())
