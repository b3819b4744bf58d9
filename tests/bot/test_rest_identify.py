"""Shards of several processes identify one per gateway bucket per window, through
the database (`IdentifyGate`): two stores (two clients of one real PostgreSQL)
racing for the same buckets never get the same window. And how the bot wires the
gate and the budget into discord.py."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.app import create_bot
from bot.settings import BotSettings
from bot.sharding import IdentifyGate
from bot.storage import Store, open_store
from evaluator import Evaluator

pytestmark = pytest.mark.asyncio(loop_scope="function")

WINDOW_S = 0.2


async def test_two_processes_never_identify_a_bucket_in_one_window(postgres_url: str) -> None:
    async with await open_store(postgres_url) as one, await open_store(postgres_url) as two:
        stores = (one, two, one, two)  # four processes, two database clients
        gates = [IdentifyGate(store.install, window_s=WINDOW_S) for store in stores]
        turns: list[tuple[int, int, float]] = []  # (bucket, window, when it returned)

        async def process(gate: IdentifyGate, shards: range) -> None:
            """A process launches its shards one after another, as discord.py does."""
            for shard_id in shards:
                window = await gate.wait_turn(shard_id, max_concurrency=2)
                turns.append((shard_id % 2, window, time.time()))

        plans = (range(4), range(4, 8), range(8, 12), range(12, 16))
        await asyncio.wait_for(
            asyncio.gather(*(process(g, p) for g, p in zip(gates, plans, strict=True))), 60
        )
        assert len(turns) == 16
        for bucket in (0, 1):
            windows = [w for b, w, _ in turns if b == bucket]
            assert len(set(windows)) == len(windows) == 8, "two identifies in one window"
        assert all(at >= window * WINDOW_S - 0.01 for _, window, at in turns)
        left = [await one.install.get_state(f"identify:{b}:{w}") for b, w, _ in turns]
        assert sum(1 for row in left if row is not None) == len(gates)  # each its last


async def test_the_bot_asks_the_gate_before_each_identify(
    settings: BotSettings, store: Store, evaluator: Evaluator
) -> None:
    """`before_identify_hook` goes through the gate with the gateway's max_concurrency."""
    asked: list[tuple[int, int]] = []

    class Gate(IdentifyGate):
        async def wait_turn(self, shard_id: int, max_concurrency: int = 1) -> int:
            asked.append((shard_id, max_concurrency))
            return 0

    class Limits:
        max_concurrency = 4

    async def limits() -> Limits:
        return Limits()

    bot = create_bot(settings, store=store, evaluator=evaluator, identify_gate=Gate(store.install))
    bot.fetch_session_start_limits = limits  # type: ignore[method-assign,assignment]
    await bot.before_identify_hook(3, initial=True)
    await bot.before_identify_hook(5)
    assert asked == [(3, 4), (5, 4)]


async def test_the_bot_wires_its_budget_into_discord_py(
    settings: BotSettings, store: Store, evaluator: Evaluator
) -> None:
    """discord.py's session carries the budget's trace, waits out 429s up to 30 s (what it
    makes of anything lower), and the budget is scraped with the bot's metrics."""
    from prometheus_client import generate_latest

    bot = create_bot(settings, store=store, evaluator=evaluator)
    assert bot.http.http_trace is not None
    assert bot.http.max_ratelimit_timeout == 30.0
    bot.budget.saw_status(401)
    text = generate_latest(bot.metrics.registry).decode()
    assert "formula_darts_rest_invalid_requests_10m 1.0" in text


async def test_a_window_claimed_after_its_moment_passed_is_not_used() -> None:
    """A process that read the clock before another process dropped a past window's row,
    and claimed that row after the window's moment, identified at once: in the same window
    as the other (a loaded CI run saw two identifies in one window). A stale claim is
    given back and the next window taken."""
    now = [0.95]  # window 1 of 1 s, read before the claim lands

    class LateClaims:
        """The database, where each claim lands 0.35 s after the clock was read."""

        def __init__(self) -> None:
            self.rows: dict[str, str] = {}

        async def claim_state(self, name: str, value: str) -> bool:
            now[0] += 0.35
            if name in self.rows:
                return False
            self.rows[name] = value
            return True

        async def drop_state(self, name: str) -> None:
            self.rows.pop(name, None)

    async def sleep(seconds: float) -> None:
        now[0] += seconds

    claims = LateClaims()
    gate = IdentifyGate(claims, window_s=1.0, clock=lambda: now[0], sleep=sleep)
    window = await gate.wait_turn(0)
    assert window == 2 and now[0] == pytest.approx(2.0)  # identified at its window's moment
    assert list(claims.rows) == ["identify:0:2"]  # the stale claim given back
