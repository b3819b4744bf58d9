"""A Cup's matches as they are played (`cup_matches`): each match's thread, its current
leg, which sides pressed Ready, the duel running as that leg. `Store.cup_matches`.

Every step is one guarded UPDATE, so two processes (or two clicks) never take it twice:
a leg starts once (`take_start`: from no game to "starting"), and a leg counts once
(`finish_leg`: its `cup_legs.result` set where it was empty, the match moved to its next
leg and the Cup's new bracket saved under its version, in one transaction).

A process can die inside a step: after opening a match and before its thread is kept,
or after taking a leg's start and before its duel is kept. Both leave a mark with the
time it was taken (`opened_at`): a thread still NULL, a game still "starting". Past a
lease, `retake_open` and `retake_start` hand that step to one caller (the mark's time
moved on under a guard), which finishes it. A leg called (its row moved on) by a process
that died before posting the call is found by its start window running out with no call
in the thread: `retake_call` hands the call to one caller and restarts the window.
"""

from __future__ import annotations

from dataclasses import dataclass

import sqlalchemy as sa
from sqlmodel import Field, SQLModel

from bot.storage._connect import Connect
from bot.storage._cups import CupRecord, legs_t, save_in
from bot.storage._games import dialect_insert
from bot.storage._models import NAME, table

STARTING = "starting"
"""`game_id` while a leg's duel is being opened (its thread message, its first round)."""
NO_THREAD = 0
"""`thread_id` of a match whose thread could not be made (the channel gone or closed to
the bot): unlike NULL, not a step left half done."""


class CupMatchRow(SQLModel, table=True):
    __tablename__ = "cup_matches"

    cup_id: int = Field(
        primary_key=True, sa_type=sa.BigInteger, sa_column_kwargs={"autoincrement": False}
    )
    round: int = Field(primary_key=True, sa_type=sa.Integer)
    slot: int = Field(primary_key=True, sa_type=sa.Integer)
    thread_id: int | None = Field(default=None, sa_type=sa.BigInteger, nullable=True)
    leg: int = Field(sa_type=sa.Integer)
    opened_at: float = Field(sa_type=sa.Float)
    """When the current leg was called: its start window runs from here. While the
    match's thread is NULL or its game "starting", when that step was taken."""
    ready: str = Field(sa_type=sa.String(16))
    """The sides (0, 1) that pressed Ready for the current leg, as "0", "1" or "0,1"."""
    game_id: str | None = Field(default=None, sa_type=sa.String(NAME), nullable=True)
    done: bool = Field(sa_type=sa.Boolean)


matches_t = table(CupMatchRow)


@dataclass(frozen=True, slots=True)
class CupMatchRecord:
    cup_id: int
    round: int
    slot: int
    thread_id: int | None
    leg: int
    opened_at: float
    ready: frozenset[int]
    game_id: str | None
    done: bool


def _ready(text: str) -> frozenset[int]:
    return frozenset(int(side) for side in text.split(",") if side)


def _text(sides: frozenset[int]) -> str:
    return ",".join(str(side) for side in sorted(sides))


def _record(row: sa.Row[tuple[object, ...]]) -> CupMatchRecord:
    m = row._mapping
    return CupMatchRecord(
        cup_id=int(m["cup_id"]), round=int(m["round"]), slot=int(m["slot"]),
        thread_id=m["thread_id"], leg=int(m["leg"]), opened_at=float(m["opened_at"]),
        ready=_ready(str(m["ready"])), game_id=m["game_id"], done=bool(m["done"]),
    )  # fmt: skip


class CupMatchStore:
    def __init__(self, write: Connect, read: Connect) -> None:
        self._write = write
        self._read = read

    def _key(self, cup_id: int, round_: int, slot: int) -> list[sa.ColumnElement[bool]]:
        return [matches_t.c.cup_id == cup_id, matches_t.c.round == round_,
                matches_t.c.slot == slot]  # fmt: skip

    async def open(self, cup_id: int, round_: int, slot: int, now: float) -> bool:
        """The match is opened (its first leg called); True for the one caller that did."""
        async with self._write() as conn:
            done = await conn.execute(
                dialect_insert(conn, matches_t)
                .values(
                    cup_id=cup_id,
                    round=round_,
                    slot=slot,
                    leg=1,
                    opened_at=now,
                    ready="",
                    done=False,
                )
                .on_conflict_do_nothing(index_elements=["cup_id", "round", "slot"])
            )
            return bool(done.rowcount)

    async def set_thread(self, cup_id: int, round_: int, slot: int, thread_id: int) -> None:
        async with self._write() as conn:
            await conn.execute(
                matches_t.update()
                .where(*self._key(cup_id, round_, slot))
                .values(thread_id=thread_id)
            )

    async def keeps_thread(self, thread_id: int) -> bool:
        """Whether some match (of any Cup) keeps `thread_id`: a thread found by its name
        may be an earlier Cup's of the same name, not the one a dead process made."""
        async with self._read() as conn:
            query = sa.select(matches_t.c.cup_id).where(matches_t.c.thread_id == thread_id)
            return (await conn.execute(query.limit(1))).first() is not None

    async def of_cup(self, cup_id: int) -> dict[tuple[int, int], CupMatchRecord]:
        async with self._read() as conn:
            rows = await conn.execute(sa.select(matches_t).where(matches_t.c.cup_id == cup_id))
            return {(r.round, r.slot): _record(r) for r in rows}

    async def load(self, cup_id: int, round_: int, slot: int) -> CupMatchRecord | None:
        async with self._read() as conn:
            query = sa.select(matches_t).where(*self._key(cup_id, round_, slot))
            row = (await conn.execute(query)).first()
        return None if row is None else _record(row)

    async def press_ready(
        self, cup_id: int, round_: int, slot: int, leg: int, side: int
    ) -> frozenset[int] | None:
        """Who is Ready for leg `leg` with `side` now; None when that leg is no longer
        waiting (it started, or the match moved on)."""
        for _ in range(5):
            match = await self.load(cup_id, round_, slot)
            if match is None or match.leg != leg or match.game_id is not None or match.done:
                return None
            sides = match.ready | {side}
            if sides == match.ready:
                return sides
            async with self._write() as conn:
                moved = await conn.execute(
                    matches_t.update()
                    .where(
                        *self._key(cup_id, round_, slot),
                        matches_t.c.leg == leg,
                        matches_t.c.ready == _text(match.ready),
                        matches_t.c.game_id.is_(None),
                    )
                    .values(ready=_text(sides))
                )
            if moved.rowcount:
                return sides
        return None

    async def take_start(self, cup_id: int, round_: int, slot: int, leg: int, now: float) -> bool:
        """Both sides are Ready: True for the one caller that starts the leg's duel."""
        async with self._write() as conn:
            taken = await conn.execute(
                matches_t.update()
                .where(
                    *self._key(cup_id, round_, slot),
                    matches_t.c.leg == leg,
                    matches_t.c.ready == "0,1",
                    matches_t.c.game_id.is_(None),
                )
                .values(game_id=STARTING, opened_at=now)
            )
            return bool(taken.rowcount)

    async def retake_start(
        self, cup_id: int, round_: int, slot: int, leg: int, taken_at: float, now: float
    ) -> bool:
        """Leg `leg`'s start, taken at `taken_at` by a process that never kept its duel:
        True for the one caller that takes it over (and finishes it)."""
        return await self._retake(
            self._key(cup_id, round_, slot), taken_at, now,
            matches_t.c.leg == leg, matches_t.c.game_id == STARTING,
        )  # fmt: skip

    async def retake_open(
        self, cup_id: int, round_: int, slot: int, taken_at: float, now: float
    ) -> bool:
        """A match opened at `taken_at` by a process that never kept its thread: True for
        the one caller that takes it over (makes the thread, calls the first leg)."""
        return await self._retake(
            self._key(cup_id, round_, slot), taken_at, now, matches_t.c.thread_id.is_(None)
        )

    async def retake_call(
        self, cup_id: int, round_: int, slot: int, leg: int, called_at: float, now: float
    ) -> bool:
        """Leg `leg`, called at `called_at` by a process that died before its call was
        posted (nobody pressed Ready, none is in the thread): True for the one caller that
        posts it; the leg's start window runs from `now`."""
        return await self._retake(
            self._key(cup_id, round_, slot), called_at, now,
            matches_t.c.leg == leg, matches_t.c.ready == "", matches_t.c.game_id.is_(None),
            matches_t.c.done.is_(False),
        )  # fmt: skip

    async def _retake(
        self, key: list[sa.ColumnElement[bool]], taken_at: float, now: float,
        *still: sa.ColumnElement[bool],
    ) -> bool:  # fmt: skip
        """A half-done step taken at `taken_at` whose row is `still` as it left it: True for
        the one caller whose guarded update moves its time to `now` (the others see 0 rows)."""
        async with self._write() as conn:
            taken = await conn.execute(
                matches_t.update()
                .where(*key, *still, matches_t.c.opened_at == taken_at)
                .values(opened_at=now)
            )
            return bool(taken.rowcount)

    async def started(
        self, cup_id: int, round_: int, slot: int, leg: int, game_id: str, now: float
    ) -> None:
        """The leg's duel is `game_id` (kept as the leg's replay)."""
        async with self._write() as conn:
            await conn.execute(
                matches_t.update()
                .where(
                    *self._key(cup_id, round_, slot),
                    matches_t.c.leg == leg,
                    matches_t.c.game_id == STARTING,
                )
                .values(game_id=game_id)
            )
            await conn.execute(
                dialect_insert(conn, legs_t)
                .values(
                    cup_id=cup_id, round=round_, slot=slot, leg=leg, game_id=game_id, created_at=now
                )
                .on_conflict_do_nothing(index_elements=["cup_id", "round", "slot", "leg"])
            )

    async def release(self, cup_id: int, round_: int, slot: int, leg: int, now: float) -> None:
        """The duel could not be opened: the leg waits for Ready again (its start window
        from `now`)."""
        async with self._write() as conn:
            await conn.execute(
                matches_t.update()
                .where(
                    *self._key(cup_id, round_, slot),
                    matches_t.c.leg == leg,
                    matches_t.c.game_id == STARTING,
                )
                .values(game_id=None, ready="", opened_at=now)
            )

    async def finish_leg(
        self, cup: CupRecord, round_: int, slot: int, leg: int, result: str, decided: bool,
        now: float,
    ) -> CupRecord | None:  # fmt: skip
        """Count leg `leg`'s `result` with the Cup's new bracket (`cup`, at its stored
        version), once: None when it counted already. StaleGame (nothing written) when
        the Cup moved on meanwhile: the caller reloads and tries again."""
        async with self._write() as conn:
            counted = await conn.execute(
                legs_t.update()
                .where(
                    legs_t.c.cup_id == cup.id,
                    legs_t.c.round == round_,
                    legs_t.c.slot == slot,
                    legs_t.c.leg == leg,
                    legs_t.c.result.is_(None),
                )
                .values(result=result)
            )
            if not counted.rowcount:
                return None
            await conn.execute(
                matches_t.update()
                .where(*self._key(cup.id, round_, slot), matches_t.c.leg == leg)
                .values(leg=leg + 1, ready="", game_id=None, opened_at=now, done=decided)
            )
            return await save_in(conn, cup, now)

    async def close(self, cup_id: int, round_: int, slot: int) -> None:
        """The match was decided without a leg (a no-show)."""
        async with self._write() as conn:
            await conn.execute(
                matches_t.update().where(*self._key(cup_id, round_, slot)).values(done=True)
            )
