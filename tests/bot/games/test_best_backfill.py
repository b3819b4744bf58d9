"""The backfill of finished games' best answers (issue 29): a Qualification's waits for
its seal to lift, the solves are paced to `per_minute` (the pauses the job asks for, in
the job's own time), and a game whose solves failed is tried again later, a bounded
number of times, by what the store keeps (a new job, as after a restart, goes on)."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

import rules
from bot.play import BestBackfill, backfilling
from bot.play._backfill import RETRY_S, TRIES
from bot.storage import Store, open_store
from solver.result import Candidate
from tests.bot.web.pages_site import qualification, today

GUILD = 1


class Refusing:
    """A solver that never finds a best answer (late, busy): what the job does then."""

    def __init__(self) -> None:
        self.calls = 0

    async def best(
        self, digits: str, score: rules.Number, game_set: rules.GameSet, *, aim: int = 0
    ) -> Candidate | None:
        self.calls += 1
        return None

    async def finish(
        self, digits: str, score: rules.Number, game_set: rules.GameSet, *, last: bool = False
    ) -> Candidate | None:
        raise AssertionError("the backfill never plays a move")


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now
        self.pauses: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.pauses.append(seconds)


@pytest.fixture
async def store(tmp_path: Path) -> Any:
    opened = await open_store(f"sqlite+aiosqlite:///{tmp_path}/best.sqlite3")
    yield opened
    await opened.close()


async def test_a_qualification_is_solved_once_its_seal_lifts(store: Store) -> None:
    await qualification(store, GUILD, "q" * 32, 101, [100, 100, 100, 51], period=today())
    ends = rules.period_end(today(), UTC).timestamp()
    refusing, clock = Refusing(), Clock(datetime.now(UTC).timestamp())
    backfill = BestBackfill(store, refusing, clock=clock, sleep=clock.sleep)
    assert await backfill.step() == 0  # its day runs: nothing solved
    clock.now = ends - 1
    assert await backfill.step() == 0
    clock.now = ends + 1
    assert await backfill.step() == 4
    assert refusing.calls == 4


async def test_solves_are_paced_and_failed_ones_tried_again_a_bounded_number_of_times(
    store: Store,
) -> None:
    await qualification(store, GUILD, "p" * 32, 101, [100, 100, 100, 51], period="2026-01-01")
    refusing, clock = Refusing(), Clock(2_000_000_000.0)
    per_minute = 6
    backfill = BestBackfill(store, refusing, clock=clock, per_minute=per_minute, sleep=clock.sleep)
    assert await backfill.step() == 4
    assert clock.pauses == [60.0 / per_minute] * 4  # never more than per_minute a minute
    assert await backfill.step() == 0  # not due again yet

    restarted = BestBackfill(store, refusing, clock=clock, sleep=clock.sleep)
    wait = RETRY_S
    for _ in range(TRIES - 1):
        clock.now += wait
        assert await restarted.step() == 4
        wait *= 2
    clock.now += 100 * RETRY_S
    assert await restarted.step() == 0  # its tries ran out: left as it is
    assert refusing.calls == 4 * TRIES


class Failing(Refusing):
    """A solver that raises for one game's Digits (a bug, a pool down)."""

    async def best(
        self, digits: str, score: rules.Number, game_set: rules.GameSet, *, aim: int = 0
    ) -> Candidate | None:
        if digits == "6666":
            raise RuntimeError("a bug")
        return await super().best(digits, score, game_set, aim=aim)


async def test_a_game_that_fails_holds_up_no_other(store: Store) -> None:
    await qualification(store, GUILD, "f" * 32, 101, [100], period="2026-01-01", digits="6666",
                        finish=False)  # fmt: skip
    record = await store.games.load_game("f" * 32)
    assert record is not None
    ended = rules.apply(record.state, rules.Resign("101"))
    await store.games.save_game(replace(record, state=ended))
    await qualification(store, GUILD, "g" * 32, 102, [100, 100, 100, 51], period="2026-01-01")
    failing, clock = Failing(), Clock(2_000_000_000.0)
    backfill = BestBackfill(store, failing, clock=clock, sleep=clock.sleep)
    assert await backfill.step() == 4  # the other game's four rounds, after the failure
    for _ in range(TRIES - 1):
        clock.now += 100 * RETRY_S
        await backfill.step()
    assert await store.best.due(clock.now + 1000 * RETRY_S, 10) == []  # its tries ran out


class Signalling(Refusing):
    """Tells when the job asked its first solve."""

    def __init__(self) -> None:
        super().__init__()
        self.asked = asyncio.Event()

    async def best(
        self, digits: str, score: rules.Number, game_set: rules.GameSet, *, aim: int = 0
    ) -> Candidate | None:
        self.asked.set()
        return await super().best(digits, score, game_set, aim=aim)


async def test_the_job_runs_while_the_bot_does_and_stops_with_it(store: Store) -> None:
    """`backfilling` is how `run_discord` runs it: in the background, cancelled at exit."""
    await qualification(store, GUILD, "r" * 32, 101, [100, 100, 100, 51], period="2026-01-01")
    signalling, clock = Signalling(), Clock(2_000_000_000.0)
    backfill = BestBackfill(store, signalling, clock=clock, sleep=clock.sleep)
    async with backfilling(backfill):
        await signalling.asked.wait()
    calls = signalling.calls
    await asyncio.sleep(0)
    assert signalling.calls == calls  # stopped
    async with backfilling(None):  # a process that does not run it
        pass
