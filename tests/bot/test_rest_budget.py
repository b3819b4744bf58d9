"""`RestBudget` and `with_retry` on a manual clock: lanes, order, admission, pauses, the
invalid-request window, the one retry layer and its deadline, the metrics."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
import pytest
from prometheus_client import generate_latest

from bot.games._discord import (
    BucketBusy,
    Lane,
    PauseKind,
    RestBudget,
    RestBusy,
    posts_in,
    with_retry,
)
from bot.observability import Metrics
from bot.play import Paused

pytestmark = pytest.mark.asyncio(loop_scope="function")


class ManualTime:
    """A clock that moves only when the test says; `sleep` waits for it."""

    def __init__(self) -> None:
        self.now = 1000.0
        self._sleepers: list[tuple[float, asyncio.Future[None]]] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        wake: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._sleepers.append((self.now + seconds, wake))
        await wake

    async def advance(self, seconds: float) -> None:
        target = self.now + seconds
        for _ in range(100_000):  # bounded: every turn wakes a sleeper or ends
            await _settle()
            due = [at for at, wake in self._sleepers if not wake.done()]
            if not due or min(due) > target:
                break
            self.now = max(self.now, min(due))
            for at, wake in self._sleepers:
                if at <= self.now and not wake.done():
                    wake.set_result(None)
            self._sleepers = [(at, w) for at, w in self._sleepers if not w.done()]
        self.now = target
        await _settle()


async def _settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


class _Response:
    def __init__(self, status: int) -> None:
        self.status = status
        self.reason = "test"
        self.headers: dict[str, str] = {}


def _budget(time: ManualTime, **kwargs: Any) -> RestBudget:
    return RestBudget(time, sleep=time.sleep, **kwargs)


async def test_the_games_lane_goes_before_optional_traffic_and_each_lane_in_order() -> None:
    time = ManualTime()
    budget = _budget(time, burst=1)
    budget.pause(1.0, PauseKind.GLOBAL)
    done: list[str] = []

    async def call(lane: Lane, name: str) -> None:
        await budget.take(lane)
        done.append(name)

    tasks = [asyncio.create_task(call(Lane.OPTIONAL, f"daily{i}")) for i in range(2)]
    await _settle()
    tasks += [asyncio.create_task(call(Lane.GAMES, f"round{i}")) for i in range(3)]
    await time.advance(5.0)
    await asyncio.gather(*tasks)
    assert done == ["round0", "round1", "round2", "daily0", "daily1"]


async def test_a_call_that_would_wait_past_its_deadline_is_refused_not_queued() -> None:
    time = ManualTime()
    budget = _budget(time, burst=1)  # 40 calls a second
    waiting = [asyncio.create_task(budget.take()) for _ in range(80)]  # two seconds' worth
    await _settle()
    assert budget.delay_s() == pytest.approx(2.0, abs=0.1)
    with pytest.raises(RestBusy):
        await budget.take(within=1.0)
    assert budget.stats().refused_calls[Lane.GAMES] == 1
    assert budget.stats().queued[Lane.GAMES] == 79  # the first took the token there was
    await time.advance(3.0)
    await asyncio.gather(*waiting)
    assert budget.stats().queued[Lane.GAMES] == 0


async def test_a_new_game_is_refused_when_its_first_round_would_be_late() -> None:
    time = ManualTime()
    budget = _budget(time)
    assert budget.admit_start()
    budget.pause(5.0, PauseKind.CLOUDFLARE)
    assert budget.admit_start()  # 5 s and three calls: the first round within 10 s
    budget.pause(11.0, PauseKind.LONG)
    assert not budget.admit_start()
    assert budget.stats().refused_starts == 1
    assert budget.stats().pauses == {"global": 0, "long": 1, "cloudflare": 1, "bucket": 0}
    assert budget.stats().paused_s == pytest.approx(11.0)


async def test_a_pause_holds_every_call_until_it_ends() -> None:
    time = ManualTime()
    budget = _budget(time)
    budget.pause(3.0, PauseKind.CLOUDFLARE)
    call = asyncio.create_task(budget.take())
    await time.advance(2.9)
    assert not call.done()
    await time.advance(0.2)
    assert call.done()


async def test_a_call_that_may_not_wait_out_a_pause_is_told_how_long_at_once() -> None:
    """Issue 29: a game's announcement must not sleep through a pause inside its voice."""
    time = ManualTime()
    budget = _budget(time)
    budget.pause(3.0, PauseKind.GLOBAL)
    with pytest.raises(Paused) as paused:
        await budget.take(through_pause=False)
    assert paused.value.seconds == pytest.approx(3.0)
    budget.hold(posts_in(7), 5.0)
    await time.advance(3.1)  # the pause is over; the bucket's hold is not
    with pytest.raises(Paused) as held:
        await with_retry(lambda: asyncio.sleep(0), "round", budget, bucket=posts_in(7),
                         through_pause=False)  # fmt: skip
    assert held.value.seconds == pytest.approx(1.9)
    await budget.take(through_pause=False, bucket=posts_in(8))  # nothing holds it: it goes
    assert budget.delay_s() == 0.0  # the refused calls queued nothing
    budget.hold(posts_in(9), 100.0)  # longer than the call may wait: refused, as ever
    with pytest.raises(BucketBusy):
        await budget.take(within=30.0, bucket=posts_in(9), through_pause=False)


async def test_invalid_requests_count_over_a_sliding_ten_minutes(
    caplog: pytest.LogCaptureFixture,
) -> None:
    time = ManualTime()
    budget = _budget(time, invalid_limit=4)
    for status in (401, 403, 404, 500, 200):
        budget.saw_status(status)
    budget.saw_status(429, shared_scope=True)  # Discord does not count a shared 429
    assert budget.invalid_recent() == 2
    time.now += 300
    with caplog.at_level(logging.WARNING):
        budget.saw_status(429)
        budget.saw_status(429)
    assert budget.invalid_recent() == 4
    assert not budget.optional_allowed()
    assert any("optional traffic stops" in r.message for r in caplog.records)
    with pytest.raises(RestBusy):
        await budget.take(Lane.OPTIONAL)
    await budget.take(Lane.GAMES)  # the games go on
    time.now += 301  # the first two are older than ten minutes now
    assert budget.invalid_recent() == 2
    assert budget.optional_allowed()
    await budget.take(Lane.OPTIONAL)


async def test_a_500_discord_py_raised_is_not_tried_again() -> None:
    """discord.py raises a 500 only after its own five tries (old code tried five more)."""
    time = ManualTime()
    budget = _budget(time)
    calls: list[int] = []

    async def call() -> None:
        calls.append(1)
        raise discord.DiscordServerError(_Response(500), "boom")  # type: ignore[arg-type]

    with pytest.raises(discord.DiscordServerError):
        await with_retry(call, "round", budget)
    assert calls == [1]


async def test_a_503_is_retried_within_the_deadline() -> None:
    time = ManualTime()
    budget = _budget(time)
    calls: list[int] = []

    async def call() -> str:
        calls.append(1)
        if len(calls) < 3:
            raise discord.DiscordServerError(_Response(503), "unavailable")  # type: ignore[arg-type]
        return "posted"

    task = asyncio.create_task(with_retry(call, "round", budget))
    await time.advance(5.0)
    assert task.result() == "posted" and len(calls) == 3


async def test_a_long_429_holds_its_bucket_alone_and_is_not_retried() -> None:
    """Issue 28: it paused every bot-token call of the process for 45 s."""
    time = ManualTime()
    budget = _budget(time)
    calls: list[int] = []
    bucket = posts_in(7)

    async def call() -> None:
        calls.append(1)
        raise discord.RateLimited(45.0)

    with pytest.raises(BucketBusy) as busy:
        await with_retry(call, "round", budget, bucket=bucket)
    assert calls == [1]
    assert busy.value.params == {"minutes": 1}
    assert budget.delay_s() == 0.0  # nothing else waits
    assert budget.held_s(bucket) == pytest.approx(45.0, abs=0.1)
    assert budget.held_s(posts_in(8)) == 0.0
    with pytest.raises(BucketBusy):  # told at once, never asked of Discord again
        await with_retry(call, "round", budget, bucket=bucket)
    assert calls == [1]
    await with_retry(lambda: asyncio.sleep(0), "elsewhere", budget, bucket=posts_in(8))
    with pytest.raises(discord.RateLimited):  # no bucket named: raised, nothing paused
        await with_retry(call, "round", budget)
    assert budget.delay_s() == 0.0


async def test_a_call_that_hangs_gives_the_caller_back_at_the_deadline() -> None:
    """The caller is let go at the deadline (a game's lock with it); the try is left to
    end in discord.py, not cancelled."""
    time = ManualTime()
    budget = _budget(time)
    never: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    task = asyncio.create_task(with_retry(lambda: never, "round", budget, deadline_s=5.0))
    await time.advance(4.9)
    assert not task.done()
    await time.advance(0.2)
    with pytest.raises(RestBusy):
        task.result()
    assert not never.cancelled()
    never.set_result(None)


async def test_the_budget_is_scraped_as_metrics() -> None:
    time = ManualTime()
    budget = _budget(time)
    metrics = Metrics()
    metrics.bind_rest(budget.stats)
    budget.pause(30.0, PauseKind.LONG)
    budget.admit_start()
    budget.saw_status(403)
    text = generate_latest(metrics.registry).decode()
    for line in (
        'formula_darts_rest_backlog_seconds{lane="games"} 30.0',
        "formula_darts_rest_refused_starts_total 1.0",
        'formula_darts_rest_pauses_total{kind="long"} 1.0',
        "formula_darts_rest_invalid_requests_10m 1.0",
        "formula_darts_rest_optional_allowed 1.0",
        'formula_darts_rest_wait_p99_seconds{lane="games"} 0.0',
    ):
        assert line in text, line


async def test_new_games_wait_while_the_running_ones_ask_for_the_whole_rate() -> None:
    """Admission by the backlog alone admitted thousands of games in a ramp (each asks
    little at its start, and all of them much later): the games' demand counts too."""
    time = ManualTime()
    budget = _budget(time)  # 40 calls a second
    for _ in range(60 * 30):  # 30 calls/s for a minute: served at once, no backlog
        await budget.take()
        time.now += 1 / 30
    assert budget.delay_s() < 1.0 and budget.admit_start()
    for _ in range(60 * 37):  # 37/s: still no backlog, but 90 % of the rate asked
        await budget.take()
        time.now += 1 / 37
    assert budget.delay_s() < 1.0
    assert not budget.admit_start()
