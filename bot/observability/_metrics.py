"""The bot's Prometheus metrics, in a registry of their own.

Events (an answer handled, a formula in PHP, a REST error) are recorded as they
happen by typed methods. State another part owns (the pool, the active games, the
shards' heartbeats) is read when Prometheus scrapes, from callables bound once, so
nothing has to remember to push a gauge and a scrape always shows the present.

A registry per `Metrics`, never prometheus-client's global one: tests and several
bots in one process each count their own.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator, Mapping
from enum import StrEnum
from typing import Any, Protocol, TypeVar

from prometheus_client import (
    CollectorRegistry,
    Counter,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from evaluator.result import ErrorCode
from rules import Mode

log = logging.getLogger(__name__)

T = TypeVar("T")

PREFIX = "formula_darts"

ANSWER_BUCKETS = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.5, 5.0)
"""1 ms to 1 s in 1-2-5 steps (the p99 target is 50 ms), then past PHP's 2 s timeout."""

PHP_BUCKETS = (
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0,
)  # fmt: skip
"""A warm worker answers in about 0.2 ms; the tail reaches the sandbox's timeout."""


class AnswerOutcome(StrEnum):
    """How an answer ended: judged by PHP, refused by PHP or the checker, or by the game."""

    OK = "ok"
    ERROR = "error"
    REFUSED = "refused"


class PoolStats(Protocol):
    """What the PHP pool tells about itself; read at every scrape, so it must be cheap.

    `restarts` counts workers replaced since the pool started, by reason (a
    cumulative count, exported as a counter).
    """

    @property
    def queue_depth(self) -> int: ...

    @property
    def live_workers(self) -> int: ...

    @property
    def idle_workers(self) -> int: ...

    @property
    def restarts(self) -> Mapping[Any, int]:
        """By reason: str or a StrEnum of reasons (the label is its text)."""
        ...


class RestStats(Protocol):
    """What the bot-token budget tells about itself (`bot.games.RestBudget.stats`), by
    lane ("games", "optional") where it says so; counts are cumulative."""

    @property
    def queued(self) -> Mapping[str, int]: ...

    @property
    def backlog_s(self) -> Mapping[str, float]: ...

    @property
    def wait_p99_s(self) -> Mapping[str, float]: ...

    @property
    def refused_calls(self) -> Mapping[str, int]: ...

    @property
    def refused_starts(self) -> int: ...

    @property
    def pauses(self) -> Mapping[str, int]: ...

    @property
    def paused_s(self) -> float: ...

    @property
    def invalid_recent(self) -> int: ...

    @property
    def optional_allowed(self) -> bool: ...

    @property
    def banned(self) -> bool: ...

    @property
    def ban_refused(self) -> int: ...


PoolSource = Callable[[], PoolStats]
RestSource = Callable[[], RestStats]
GamesSource = Callable[[], Mapping[str, int]]
"""Active games by mode (a `rules.Mode` is a str); modes left out count 0."""
ShardsSource = Callable[[], Mapping[int, float]]
"""Heartbeat latency in seconds by shard id (`dict(bot.latencies)` for an AutoShardedBot)."""


class Metrics:
    """Everything the bot exports; `registry` is what `/metrics` serves."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self._answers = Counter(
            f"{PREFIX}_answers",
            "Answers handled, by outcome and code (ok, an evaluator ErrorCode, a refusal's code).",
            ["outcome", "code"],
            registry=self.registry,
        )
        self._answer_seconds = Histogram(
            f"{PREFIX}_answer_seconds",
            "Time the bot spent handling one answer, by outcome.",
            ["outcome"],
            buckets=ANSWER_BUCKETS,
            registry=self.registry,
        )
        self._php_seconds = Histogram(
            f"{PREFIX}_php_seconds",
            "Time one formula took in the checker and the PHP pool.",
            buckets=PHP_BUCKETS,
            registry=self.registry,
        )
        self._rest_errors = Counter(
            f"{PREFIX}_discord_rest_errors",
            "Discord REST requests that failed, by HTTP status.",
            ["status"],
            registry=self.registry,
        )
        self._scrape_errors = Counter(
            f"{PREFIX}_scrape_errors",
            "Bound sources that raised while being read for a scrape, by source.",
            ["source"],
            registry=None,
        )
        self._live = _LiveState(self._scrape_errors)
        self.registry.register(self._live)
        self.registry.register(self._scrape_errors)  # after the sources: counts this scrape's
        ProcessCollector(registry=self.registry)
        PlatformCollector(registry=self.registry)
        GCCollector(registry=self.registry)
        self._answers.labels(AnswerOutcome.OK, AnswerOutcome.OK)
        for code in ErrorCode:
            self._answers.labels(AnswerOutcome.ERROR, code)
        for outcome in AnswerOutcome:
            self._answer_seconds.labels(outcome)

    # ------------------------------------------------------------- events

    def answer_ok(self, seconds: float) -> None:
        """An answer PHP judged (points applied, or a bust): `seconds` of the bot's work."""
        self._answer(AnswerOutcome.OK, AnswerOutcome.OK, seconds)

    def answer_error(self, code: ErrorCode, seconds: float) -> None:
        """A formula the checker or PHP refused (`EvalError.code`)."""
        self._answer(AnswerOutcome.ERROR, code, seconds)

    def answer_refused(self, code: str, seconds: float) -> None:
        """An answer the game refused before PHP (`GameError.code`: round_over, ...)."""
        self._answer(AnswerOutcome.REFUSED, code, seconds)

    def _answer(self, outcome: AnswerOutcome, code: str, seconds: float) -> None:
        self._answers.labels(outcome, code).inc()
        self._answer_seconds.labels(outcome).observe(seconds)

    def php(self, seconds: float) -> None:
        """One formula's trip through `Evaluator.evaluate`."""
        self._php_seconds.observe(seconds)

    def rest_error(self, status: int) -> None:
        """A failed Discord REST request (`discord.HTTPException.status`)."""
        self._rest_errors.labels(str(status)).inc()

    # ------------------------------------------------- read at scrape time

    def bind_pool(self, stats: PoolSource) -> None:
        self._live.pool = stats

    def bind_games(self, counts: GamesSource) -> None:
        self._live.games = counts

    def bind_shards(self, latencies: ShardsSource) -> None:
        self._live.shards = latencies

    def bind_rest(self, stats: RestSource) -> None:
        self._live.rest = stats


class _LiveState(Collector):
    """Gauges (and the pool's restart counter) computed from the bound sources per scrape.

    A source that raises costs its own samples only: the scrape goes on, the
    failure is logged and counted in `scrape_errors`.
    """

    def __init__(self, errors: Counter) -> None:
        self.pool: PoolSource | None = None
        self.games: GamesSource | None = None
        self.shards: ShardsSource | None = None
        self.rest: RestSource | None = None
        self._errors = errors

    def describe(self) -> Iterable[Metric]:
        return [*_pool_families(), _games_family(), _shards_family(), *_rest_families()]

    def collect(self) -> Iterable[Metric]:
        yield from self._read("pool", self.pool, _pool_metrics)
        yield from self._read("games", self.games, _games_metrics)
        yield from self._read("shards", self.shards, _shards_metrics)
        yield from self._read("rest", self.rest, _rest_metrics)

    def _read(
        self, name: str, source: Callable[[], T] | None, render: Callable[[T], list[Metric]]
    ) -> Iterator[Metric]:
        if source is None:
            return
        try:
            families = render(source())
        except Exception:
            log.exception("the %s metrics source failed during a scrape", name)
            self._errors.labels(name).inc()
            return
        yield from families


def _pool_families() -> tuple[
    GaugeMetricFamily, GaugeMetricFamily, GaugeMetricFamily, CounterMetricFamily
]:
    return (
        GaugeMetricFamily(f"{PREFIX}_pool_queue_depth", "Formulas waiting for a PHP worker."),
        GaugeMetricFamily(f"{PREFIX}_pool_workers_live", "PHP workers running."),
        GaugeMetricFamily(f"{PREFIX}_pool_workers_idle", "PHP workers waiting for a formula."),
        CounterMetricFamily(
            f"{PREFIX}_pool_worker_restarts",
            "PHP workers replaced since the pool started, by reason.",
            labels=["reason"],
        ),
    )


def _pool_metrics(stats: PoolStats) -> list[Metric]:
    queue, live, idle, restarts = _pool_families()
    queue.add_metric([], stats.queue_depth)
    live.add_metric([], stats.live_workers)
    idle.add_metric([], stats.idle_workers)
    for reason, count in sorted(stats.restarts.items()):
        restarts.add_metric([reason], count)
    return [queue, live, idle, restarts]


def _games_family() -> GaugeMetricFamily:
    return GaugeMetricFamily(
        f"{PREFIX}_active_games", "Games this process runs, by mode.", labels=["mode"]
    )


def _games_metrics(counts: Mapping[str, int]) -> list[Metric]:
    family = _games_family()
    for mode in sorted({*Mode, *counts}):
        family.add_metric([str(mode)], counts.get(mode, 0))
    return [family]


def _shards_family() -> GaugeMetricFamily:
    return GaugeMetricFamily(
        f"{PREFIX}_shard_latency_seconds",
        "Gateway heartbeat latency by shard (+Inf or NaN before the first heartbeat).",
        labels=["shard"],
    )


def _shards_metrics(latencies: Mapping[int, float]) -> list[Metric]:
    family = _shards_family()
    for shard, seconds in sorted(latencies.items()):
        family.add_metric([str(shard)], seconds)
    return [family]


def _rest_families() -> list[GaugeMetricFamily | CounterMetricFamily]:
    def gauge(name: str, text: str, labels: list[str] | None = None) -> GaugeMetricFamily:
        return GaugeMetricFamily(f"{PREFIX}_rest_{name}", text, labels=labels)

    def counter(name: str, text: str, labels: list[str] | None = None) -> CounterMetricFamily:
        return CounterMetricFamily(f"{PREFIX}_rest_{name}", text, labels=labels)

    return [
        gauge("queued", "Bot-token calls waiting for the budget, by lane.", ["lane"]),
        gauge("backlog_seconds", "How long a bot-token call taken now would wait.", ["lane"]),
        gauge("wait_p99_seconds", "p99 of the last bot-token calls' waits.", ["lane"]),
        counter("refused_calls", "Bot-token calls the budget refused, by lane.", ["lane"]),
        counter("refused_starts", "Game starts refused as busy (first round past 10 s)."),
        counter("pauses", "Pauses of every bot-token call for a 429, by kind.", ["kind"]),
        counter("paused_seconds", "Seconds bot-token calls were paused for 429s."),
        gauge("invalid_requests_10m", "401, 403 and 429 responses in the last 10 minutes."),
        gauge("optional_allowed", "1 while optional traffic may go, 0 once it is stopped."),
        gauge("banned", "1 while a Cloudflare ban stops every Discord call, else 0."),
        counter("ban_refused_calls", "Discord calls refused unsent during a Cloudflare ban."),
    ]


def _rest_metrics(stats: RestStats) -> list[Metric]:
    families = _rest_families()
    by_lane = (stats.queued, stats.backlog_s, stats.wait_p99_s, stats.refused_calls)
    for family, values in zip(families[:4], by_lane, strict=True):
        for lane, value in sorted(values.items()):
            family.add_metric([str(lane)], value)
    families[4].add_metric([], stats.refused_starts)
    for kind, count in sorted(stats.pauses.items()):
        families[5].add_metric([str(kind)], count)
    families[6].add_metric([], stats.paused_s)
    families[7].add_metric([], stats.invalid_recent)
    families[8].add_metric([], 1.0 if stats.optional_allowed else 0.0)
    families[9].add_metric([], 1.0 if stats.banned else 0.0)
    families[10].add_metric([], stats.ban_refused)
    return [*families]
