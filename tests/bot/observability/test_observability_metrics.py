"""`/metrics` over real HTTP: recorded answers move the counters and the histograms'
buckets, live state is read at each scrape, a failing source costs only its own samples,
and two `Metrics` in one process count apart."""

from __future__ import annotations

import math
from collections.abc import AsyncIterator
from dataclasses import dataclass, field

import pytest
import pytest_asyncio

from bot.observability import HealthServer, Metrics
from evaluator import ErrorCode
from tests.support.observability import OPENMETRICS, scrape

ANSWERS = "formula_darts_answers_total"
ANSWER_BUCKET = "formula_darts_answer_seconds_bucket"


@dataclass
class FakePoolStats:
    """What the evaluator's stats will look like (the `PoolStats` Protocol)."""

    queue_depth: int = 0
    live_workers: int = 0
    idle_workers: int = 0
    restarts: dict[str, int] = field(default_factory=dict)


@pytest_asyncio.fixture
async def metrics() -> Metrics:
    return Metrics()


@pytest_asyncio.fixture
async def server(metrics: Metrics) -> AsyncIterator[HealthServer]:
    async with HealthServer(metrics, {}, port=0) as running:
        yield running


async def test_every_verdict_code_is_exported_at_zero_before_any_answer(server) -> None:
    seen = await scrape(server)
    assert seen.value(ANSWERS, outcome="ok", code="ok") == 0
    for code in ErrorCode:
        assert seen.value(ANSWERS, outcome="error", code=code.value) == 0


async def test_recorded_answers_move_counters_and_buckets(metrics, server) -> None:
    before = await scrape(server)
    metrics.answer_ok(0.003)
    metrics.answer_ok(0.0035)
    metrics.answer_error(ErrorCode.DIGITS, 0.0015)
    metrics.answer_refused("round_over", 0.0004)
    metrics.php(0.0003)
    metrics.php(0.03)
    after = await scrape(server)

    assert before.value(ANSWERS, outcome="ok", code="ok") == 0
    assert after.value(ANSWERS, outcome="ok", code="ok") == 2
    assert after.value(ANSWERS, outcome="error", code="digits") == 1
    assert after.value(ANSWERS, outcome="refused", code="round_over") == 1
    assert after.value(ANSWER_BUCKET, outcome="ok", le="0.002") == 0
    assert after.value(ANSWER_BUCKET, outcome="ok", le="0.005") == 2
    assert after.value(ANSWER_BUCKET, outcome="error", le="0.001") == 0
    assert after.value(ANSWER_BUCKET, outcome="error", le="0.002") == 1
    assert after.value(ANSWER_BUCKET, outcome="refused", le="0.001") == 1
    assert after.value("formula_darts_answer_seconds_count", outcome="ok") == 2
    assert math.isclose(after.value("formula_darts_answer_seconds_sum", outcome="ok"), 0.0065)
    assert after.value("formula_darts_php_seconds_bucket", le="0.00025") == 0
    assert after.value("formula_darts_php_seconds_bucket", le="0.0005") == 1
    assert after.value("formula_darts_php_seconds_bucket", le="0.05") == 2
    assert after.value("formula_darts_php_seconds_count") == 2


async def test_answer_buckets_resolve_one_millisecond_to_one_second(server) -> None:
    seen = await scrape(server)
    bounds = {float(labels["le"]) for labels in seen.labels_of(ANSWER_BUCKET)}
    assert {0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0} <= bounds


async def test_live_state_is_read_at_each_scrape(metrics, server) -> None:
    pool = FakePoolStats(queue_depth=3, live_workers=4, idle_workers=1, restarts={"timeout": 2})
    games = {"duel": 2}
    shards = {0: 0.041, 1: math.inf}
    metrics.bind_pool(lambda: pool)
    metrics.bind_games(lambda: games)
    metrics.bind_shards(lambda: shards)
    metrics.rest_error(429)
    metrics.rest_error(429)
    metrics.rest_error(503)

    first = await scrape(server)
    assert first.value("formula_darts_pool_queue_depth") == 3
    assert first.value("formula_darts_pool_workers_live") == 4
    assert first.value("formula_darts_pool_workers_idle") == 1
    assert first.value("formula_darts_pool_worker_restarts_total", reason="timeout") == 2
    assert first.value("formula_darts_active_games", mode="duel") == 2
    assert first.value("formula_darts_active_games", mode="training") == 0
    assert first.value("formula_darts_active_games", mode="qualification") == 0
    assert first.value("formula_darts_shard_latency_seconds", shard="0") == 0.041
    assert first.value("formula_darts_shard_latency_seconds", shard="1") == math.inf
    assert first.value("formula_darts_discord_rest_errors_total", status="429") == 2
    assert first.value("formula_darts_discord_rest_errors_total", status="503") == 1

    pool.queue_depth, pool.idle_workers = 0, 4
    pool.restarts["died"] = 1
    games["training"] = 5
    shards[1] = 0.09
    second = await scrape(server)
    assert second.value("formula_darts_pool_queue_depth") == 0
    assert second.value("formula_darts_pool_workers_idle") == 4
    assert second.value("formula_darts_pool_worker_restarts_total", reason="died") == 1
    assert second.value("formula_darts_active_games", mode="training") == 5
    assert second.value("formula_darts_shard_latency_seconds", shard="1") == 0.09


async def test_a_source_that_raises_costs_only_its_own_samples(metrics, server) -> None:
    def broken() -> FakePoolStats:
        raise RuntimeError("the pool is gone")

    metrics.bind_pool(broken)
    metrics.bind_games(lambda: {"training": 1})
    metrics.answer_ok(0.01)
    seen = await scrape(server)
    assert "formula_darts_pool_queue_depth" not in seen.names()
    assert seen.value("formula_darts_active_games", mode="training") == 1
    assert seen.value(ANSWERS, outcome="ok", code="ok") == 1
    assert seen.value("formula_darts_scrape_errors_total", source="pool") == 1


async def test_openmetrics_as_prometheus_asks_for_it_parses_too(metrics, server) -> None:
    metrics.answer_error(ErrorCode.TIMEOUT, 2.1)
    seen = await scrape(server, accept=OPENMETRICS)
    assert seen.content_type.startswith("application/openmetrics-text")
    assert seen.value(ANSWERS, outcome="error", code="timeout") == 1
    assert seen.value(ANSWER_BUCKET, outcome="error", le="2.5") == 1
    assert seen.value(ANSWER_BUCKET, outcome="error", le="1.0") == 0


async def test_two_bots_in_one_process_count_apart() -> None:
    first, second = Metrics(), Metrics()
    first.answer_ok(0.001)
    async with HealthServer(first, {}) as one, HealthServer(second, {}) as two:
        assert (await scrape(one)).value(ANSWERS, outcome="ok", code="ok") == 1
        assert (await scrape(two)).value(ANSWERS, outcome="ok", code="ok") == 0


@pytest.mark.parametrize("unbound", ["pool", "games", "shards"])
async def test_an_unbound_source_exports_nothing_rather_than_zeros(unbound, metrics) -> None:
    binders = {
        "pool": lambda: metrics.bind_pool(lambda: FakePoolStats(live_workers=2)),
        "games": lambda: metrics.bind_games(dict),
        "shards": lambda: metrics.bind_shards(lambda: {0: 0.05}),
    }
    for name, bind in binders.items():
        if name != unbound:
            bind()
    async with HealthServer(metrics, {}) as server:
        names = (await scrape(server)).names()
    expected = {
        "pool": "formula_darts_pool_workers_live",
        "games": "formula_darts_active_games",
        "shards": "formula_darts_shard_latency_seconds",
    }
    for name, metric in expected.items():
        assert (metric in names) is (name != unbound)
