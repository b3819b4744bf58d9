"""`GET /metrics` and `GET /healthz` on `METRICS_PORT`, served by aiohttp on the bot's loop.

`/healthz` is readiness: 200 only when every check passes. Checks run together,
each within `check_timeout_s`; one that does not answer in time is reported as
`timeout` and left behind (cancelled, never awaited), so a stuck database gives
503 at once instead of a probe that hangs until the orchestrator kills it.

The port must not be the thing that exhausts the bot: a client that connects
and never finishes its request's headers is closed after `header_timeout_s`,
and at most `max_connections` are open at once (`bot.common.serving`, as the
web pages' port: 2,000 half-open connections were all held, for an hour each).
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
from collections.abc import Awaitable, Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from enum import StrEnum
from types import TracebackType
from typing import Protocol

from aiohttp import web
from prometheus_client.aiohttp import make_aiohttp_handler

from bot.common.serving import HEADER_TIMEOUT_S, CappedSite
from bot.observability._metrics import Metrics
from bot.settings import BotSettings

log = logging.getLogger(__name__)

CHECK_TIMEOUT_S = 3.0
"""Under the compose healthcheck's 5 s, above a warm pool's worst queueing in normal load."""
MAX_CONNECTIONS = 64
"""Connections open at once: Prometheus and a probe or two need a handful."""


class HealthCheck(Protocol):
    """True when the part answers. Sync checks must not block (no I/O); raising is failing."""

    def __call__(self) -> Awaitable[bool] | bool: ...


class CheckStatus(StrEnum):
    OK = "ok"
    FAILED = "failed"
    ERROR = "error"
    TIMEOUT = "timeout"


@dataclass(frozen=True, slots=True)
class Readiness:
    """Each check's status by name; ready when all are ok (no checks: ready)."""

    checks: Mapping[str, CheckStatus]

    @property
    def ready(self) -> bool:
        return all(status is CheckStatus.OK for status in self.checks.values())

    @property
    def failing(self) -> list[str]:
        return [name for name, status in self.checks.items() if status is not CheckStatus.OK]

    def as_json(self) -> dict[str, object]:
        return {
            "status": "ok" if self.ready else "unavailable",
            "failing": self.failing,
            "checks": {name: str(status) for name, status in self.checks.items()},
        }


class MetricsPortUnavailable(RuntimeError):
    """`METRICS_PORT` cannot be listened on (taken, or a host that is not ours)."""


async def _passes(check: HealthCheck) -> bool:
    answer = check()
    if inspect.isawaitable(answer):
        answer = await answer
    return answer is True


class HealthServer:
    """The HTTP side of observability; start and stop it with `async with`.

    `port=0` takes any free port (tests); `port` tells which one it got.
    """

    def __init__(
        self,
        metrics: Metrics,
        checks: Mapping[str, HealthCheck],
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        check_timeout_s: float = CHECK_TIMEOUT_S,
        header_timeout_s: float = HEADER_TIMEOUT_S,
        max_connections: int = MAX_CONNECTIONS,
    ) -> None:
        self.metrics = metrics
        self.checks = dict(checks)
        self.host = host
        self.check_timeout_s = check_timeout_s
        self.header_timeout_s = header_timeout_s
        self.max_connections = max_connections
        self._site: CappedSite | None = None
        self._port = port
        self._runner: web.AppRunner | None = None
        self._left_behind: set[asyncio.Task[bool]] = set()

    @property
    def port(self) -> int:
        return self._port

    @property
    def open_connections(self) -> int:
        """Connections accepted and not yet closed (0 when not serving)."""
        gate = self._site.gate if self._site is not None else None
        return gate.open if gate is not None else 0

    async def readiness(self) -> Readiness:
        """Run every check at once; whatever is still running after the timeout is cut loose."""
        tasks = {name: asyncio.create_task(_passes(check)) for name, check in self.checks.items()}
        if tasks:
            await asyncio.wait(tasks.values(), timeout=self.check_timeout_s)
        statuses: dict[str, CheckStatus] = {}
        for name, task in tasks.items():
            statuses[name] = self._status(name, task)
        return Readiness(statuses)

    def _status(self, name: str, task: asyncio.Task[bool]) -> CheckStatus:
        if not task.done():
            task.cancel()
            self._left_behind.add(task)
            task.add_done_callback(self._forget)
            log.warning("health check %s did not answer in %.1f s", name, self.check_timeout_s)
            return CheckStatus.TIMEOUT
        error = task.exception()
        if error is not None:
            log.warning("health check %s failed", name, exc_info=error)
            return CheckStatus.ERROR
        if not task.result():
            log.warning("health check %s says not ready", name)
            return CheckStatus.FAILED
        return CheckStatus.OK

    def _forget(self, task: asyncio.Task[bool]) -> None:
        self._left_behind.discard(task)
        if not task.cancelled():
            task.exception()  # retrieved, so asyncio does not log it as forgotten

    async def _healthz(self, request: web.Request) -> web.Response:
        del request
        readiness = await self.readiness()
        return web.json_response(
            readiness.as_json(),
            status=200 if readiness.ready else 503,
            headers={"Cache-Control": "no-store"},
        )

    async def __aenter__(self) -> HealthServer:
        app = web.Application()
        app.router.add_get("/metrics", make_aiohttp_handler(self.metrics.registry))
        app.router.add_get("/healthz", self._healthz)
        runner = web.AppRunner(app, access_log=None, keepalive_timeout=self.header_timeout_s)
        await runner.setup()
        try:
            site = CappedSite(runner, self.host, self._port, self.max_connections)
            await site.start()
        except OSError as exc:
            await runner.cleanup()
            raise MetricsPortUnavailable(
                f"cannot serve metrics on {self.host}:{self._port}: {exc.strerror or exc}; "
                "choose another METRICS_PORT (or unset it)"
            ) from exc
        self._runner = runner
        self._site = site
        self._port = int(runner.addresses[0][1])
        log.info("metrics and health on http://%s:%d (/metrics, /healthz)", self.host, self._port)
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
            self._site = None
        stragglers = list(self._left_behind)
        for task in stragglers:
            task.cancel()
        if stragglers:
            await asyncio.wait(stragglers, timeout=self.check_timeout_s)


def serve_observability(
    settings: BotSettings, metrics: Metrics, checks: Mapping[str, HealthCheck]
) -> AbstractAsyncContextManager[HealthServer | None]:
    """The health server on `METRICS_PORT`, or nothing at all when it is unset."""
    if settings.metrics_port is None:
        return contextlib.nullcontext(None)
    return HealthServer(metrics, checks, host=settings.metrics_host, port=settings.metrics_port)
