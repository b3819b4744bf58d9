"""The service's collaborators, each alone: timers, their retries, answers in PHP, seats."""

from __future__ import annotations

import asyncio
import gc
import time

import pytest

from bot.play._active import ActiveGames
from bot.play._in_flight import AnswersInFlight
from bot.play._refusals import Refusal
from bot.play._seats import Seats
from bot.play._types import GameError
from tests.bot.storage.builders import record as stored
from tests.bot.storage.builders import single

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def turns(count: int = 10) -> None:
    """Let the loop run `count` times: what is due now has run, and no clock moved."""
    for _ in range(count):
        await asyncio.sleep(0)


async def test_one_formula_per_player_per_round_and_the_deadline_waits_for_it() -> None:
    in_flight = AnswersInFlight()
    with in_flight.checking("g", 1, 1, received=100.0):
        with pytest.raises(GameError) as refused, in_flight.checking("g", 1, 1, received=100.5):
            pass
        assert refused.value.code == "answer_in_flight"
        with in_flight.checking("g", 2, 1, received=100.5):  # the other player may
            waiting = asyncio.create_task(in_flight.wait("g", 1, deadline=101.0, grace=5.0))
            await turns()
            assert not waiting.done()
        await turns()
        assert not waiting.done()  # player 1's formula is still in PHP
    await asyncio.wait_for(waiting, 1)
    assert not in_flight


async def test_the_deadline_waits_for_php_only_so_long_and_not_for_late_formulas() -> None:
    in_flight = AnswersInFlight()
    with in_flight.checking("g", 1, 1, received=200.0):  # received after the deadline
        await asyncio.wait_for(in_flight.wait("g", 1, deadline=150.0, grace=5.0), 1)
    with in_flight.checking("g", 1, 1, received=100.0):
        await asyncio.wait_for(in_flight.wait("g", 1, deadline=150.0, grace=0.02), 1)


async def test_a_player_is_held_while_a_game_opens(store) -> None:
    seats = Seats(store, time.time)
    async with seats.reserve(1, [100, 200]):
        with pytest.raises(GameError) as refused:
            async with seats.reserve(1, [200]):
                pass
        assert refused.value.code == "busy"
        async with seats.reserve(2, [200]):  # another server is another seat
            pass
    async with seats.reserve(1, [200]):
        pass
    await seats.ensure_free(1, 100, Refusal.BUSY)


async def test_active_games_know_their_channel_and_forget_it_with_the_game() -> None:
    active = ActiveGames()
    record = stored(single("g", 100, [1]))
    active.remember(record)
    assert active.in_channel(record.channel_id) is record and record.state.id in active
    lock = active.lock(record.state.id)
    assert active.lock(record.state.id) is lock
    active.forget(record)
    assert active.in_channel(record.channel_id) is None and len(active) == 0


async def test_a_game_keeps_its_lock_only_while_someone_holds_or_awaits_it() -> None:
    """Issue 28: a running game between steps holds no lock object; a held one is the
    same for every step that comes meanwhile, so its steps still go one at a time."""
    active = ActiveGames()
    order: list[str] = []

    async def step(name: str) -> None:
        async with active.lock("g"):
            order.append(f"{name} in")
            await turns(3)
            order.append(f"{name} out")

    await asyncio.gather(step("a"), step("b"))
    assert order == ["a in", "a out", "b in", "b out"]
    gc.collect()
    assert len(active._locks) == 0  # idle: nothing kept for the game


async def test_the_rest_budget_stays_below_its_share_of_the_global_limit() -> None:
    """A fake clock that sleeping moves: 200 calls take the time the rate allows."""
    from bot.games._discord import GLOBAL_LIMIT_PER_S, SHARE_OF_GLOBAL, RestBudget

    now = [1000.0]

    async def sleep(seconds: float) -> None:
        now[0] += seconds

    one = RestBudget(lambda: now[0], burst=10, sleep=sleep)
    for _ in range(200):
        await one.take()
    rate = GLOBAL_LIMIT_PER_S * SHARE_OF_GLOBAL
    assert now[0] - 1000.0 == pytest.approx((200 - 10) / rate)
    now[0] = 5000.0
    half = RestBudget(lambda: now[0], processes=2, burst=10, sleep=sleep)  # two processes share
    for _ in range(110):
        await half.take()
    assert now[0] - 5000.0 == pytest.approx(100 / (rate / 2))
