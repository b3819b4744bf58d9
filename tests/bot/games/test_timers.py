"""`Timers` and `RoundTimers` (bot/play/_timers.py): each key's callback runs once at its
moment, a new schedule replaces it, cancel and close stop it, and every pending key of a
`Timers` shares one waker task (issue 28: a thousand running games hold one task, not a
thousand), which is gone when nothing is pending."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.play._timers import RoundTimers, Timers

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def turns(count: int = 10) -> None:
    """Let the loop run `count` times: what is due now has run, and no clock moved."""
    for _ in range(count):
        await asyncio.sleep(0)


def new_tasks(before: set[asyncio.Task[object]]) -> list[str]:
    return sorted(t.get_name() for t in asyncio.all_tasks() - before if not t.done())


class Notes:
    """What the callbacks ran, and a wait for a given count of them (30 s at most)."""

    def __init__(self) -> None:
        self.ran: list[str] = []
        self._grew = asyncio.Event()

    async def note(self, what: str) -> None:
        self.ran.append(what)
        self._grew.set()

    async def reach(self, count: int) -> None:
        async with asyncio.timeout(30):
            while len(self.ran) < count:
                self._grew.clear()
                await self._grew.wait()
        await turns()  # the callback's own task has ended


async def test_a_timer_runs_once_at_its_moment_and_a_new_schedule_replaces_it() -> None:
    timers = Timers(time.time, "test")
    notes = Notes()
    timers.at("g", time.time() + 60, lambda: notes.note("first"))
    timers.at("g", time.time(), lambda: notes.note("second"))  # replaces
    timers.at("h", time.time(), lambda: notes.note("other"))
    timers.cancel("h")
    assert timers.armed("g") and not timers.armed("h")
    await notes.reach(1)
    await turns()
    assert notes.ran == ["second"]
    assert not timers.armed("g")
    timers.at("g", time.time() + 60, lambda: notes.note("never"))
    timers.close()
    assert not timers.armed("g")
    await turns()
    assert notes.ran == ["second"]


async def test_many_keys_share_one_waiting_task_and_none_is_left_when_they_are_done() -> None:
    timers = Timers(time.time, "many")
    notes = Notes()
    before = asyncio.all_tasks()
    for n in range(1000):
        timers.at(f"g{n}", time.time() + 3600 + n, lambda: notes.note("never"))
    await turns()
    assert new_tasks(before) == ["many:wake"]  # one sleeping task for a thousand timers
    for n in range(1000):
        timers.cancel(f"g{n}")
    await turns()
    assert new_tasks(before) == []  # nothing pending: the waker is gone too
    for n in range(3):
        timers.at(f"g{n}", time.time(), lambda n=n: notes.note(f"g{n}"))  # type: ignore[misc]
    await notes.reach(3)
    assert sorted(notes.ran) == ["g0", "g1", "g2"]
    assert new_tasks(before) == []  # all ran: no task stays


async def test_an_earlier_moment_wakes_the_shared_task_sooner_and_order_is_kept() -> None:
    timers = Timers(time.time, "order")
    notes = Notes()
    start = time.time()
    timers.at("late", start + 0.5, lambda: notes.note("late"))
    await turns()  # the waker sleeps until 'late'
    timers.at("soon", start + 0.05, lambda: notes.note("soon"))
    timers.at("now", start, lambda: notes.note("now"))
    await notes.reach(3)
    assert notes.ran == ["now", "soon", "late"]
    assert time.time() - start >= 0.5  # 'late' did not run before its moment


async def test_a_timer_scheduled_by_its_own_callback_runs_again() -> None:
    timers = Timers(time.time, "again")
    notes = Notes()

    async def tick() -> None:
        await notes.note("tick")
        if len(notes.ran) < 3:
            timers.at("t", time.time(), tick)

    timers.at("t", time.time(), tick)
    await notes.reach(3)
    assert notes.ran == ["tick"] * 3 and not timers.armed("t")


async def test_a_failed_deadline_is_retried_from_the_store_until_it_succeeds() -> None:
    notes = Notes()

    async def deadline(game: str, number: int) -> None:
        await notes.note(f"deadline {game} {number}")
        raise OSError("database is locked")

    async def retry(game: str, number: int) -> None:
        await notes.note(f"retry {game} {number}")
        if notes.ran.count(f"retry {game} {number}") < 2:
            raise OSError("still locked")

    timers = RoundTimers(time.time, deadline, retry, first_retry_s=0.01, max_retry_s=0.02)
    timers.arm("g", 3, time.time())
    await notes.reach(3)
    await asyncio.sleep(0.1)  # longer than any further retry would wait
    assert notes.ran == ["deadline g 3", "retry g 3", "retry g 3"]
    assert not timers.armed("g")


async def test_retries_stop_after_the_last_try_and_a_new_round_cancels_them() -> None:
    notes = Notes()

    async def failing(game: str, number: int) -> None:
        await notes.note(str(number))
        raise OSError("down")

    timers = RoundTimers(time.time, failing, failing, first_retry_s=0.01, tries=3)
    timers.arm("g", 1, time.time())
    await notes.reach(3)
    await asyncio.sleep(0.1)  # longer than a fourth try would wait
    assert notes.ran == ["1", "1", "1"]  # the deadline and two retries, then it gives up
    assert not timers.armed("g")

    slow = RoundTimers(time.time, failing, failing, first_retry_s=5.0)
    slow.retry_soon("g", 1)
    await turns()
    (retry,) = slow._timers._running
    assert slow.armed("g") and not retry.done()  # waiting for its retry
    slow.arm("g", 2, time.time() + 3600)  # the game went on: its own timer replaces the retry
    await turns()
    assert notes.ran == ["1", "1", "1"] and retry.cancelled()
    slow.close()
