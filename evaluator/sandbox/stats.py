"""What the pool tells an observer (the bot's Prometheus exporter), without a metrics library.

Gauges and counters are read on demand from `WorkerPool.stats()`, a frozen
snapshot; what happens per request (PHP latency) or per event (a worker
replaced) is pushed to an optional `PoolObserver`, so a histogram can be fed
without the pool knowing what a histogram is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Protocol


class RestartReason(StrEnum):
    """Why a worker was replaced."""

    TIMEOUT = "timeout"  # a request ran past the pool's timeout: killed
    DIED = "died"  # it exited or crashed mid-request (fatal error, memory, a signal)
    PROTOCOL = "protocol"  # it answered something that is not the answer asked for
    DIRTY = "dirty"  # it retired itself: a request left memory or a broken destructor behind
    WORN = "worn"  # it served max_requests or max_busy_s
    BACKEND = "backend"  # the backend failed around it (e.g. the Docker API)


class PoolObserver(Protocol):
    def php_latency(self, seconds: float) -> None:
        """One request's time in PHP, from the moment its worker could start it."""
        ...

    def worker_restarted(self, reason: RestartReason) -> None: ...


@dataclass(frozen=True, slots=True)
class PoolStats:
    """A snapshot: gauges (now) and counters (since the pool was made)."""

    backend: str
    size: int
    live_workers: int  # alive or being started
    idle_workers: int
    spawning: int
    queue_depth: int  # requests waiting for a worker
    requests: int  # requests a worker answered (or timed out on)
    batches: int
    retried: int  # requests sent again because a batch neighbour ended the worker
    penalised: int  # requests delayed because their caller keeps ending workers
    busy: int  # requests refused because the queue was full
    spawn_failures: int
    restarts: Mapping[RestartReason, int] = field(default_factory=dict)


@dataclass(slots=True)
class Counters:
    """The pool's running counters (mutable; `PoolStats` is the copy handed out)."""

    requests: int = 0
    batches: int = 0
    retried: int = 0
    penalised: int = 0
    busy: int = 0
    spawn_failures: int = 0
    restarts: dict[RestartReason, int] = field(
        default_factory=lambda: dict.fromkeys(RestartReason, 0)
    )

    def snapshot(
        self, backend: str, size: int, live: int, idle: int, spawning: int, queue_depth: int
    ) -> PoolStats:
        """These counters beside the pool's gauges of now, as the frozen copy handed out."""
        return PoolStats(
            backend=backend,
            size=size,
            live_workers=live,
            idle_workers=idle,
            spawning=spawning,
            queue_depth=queue_depth,
            requests=self.requests,
            batches=self.batches,
            retried=self.retried,
            penalised=self.penalised,
            busy=self.busy,
            spawn_failures=self.spawn_failures,
            restarts=dict(self.restarts),
        )
