"""`/healthz` over real HTTP: 200 only when every check passes, 503 naming the one that
failed, raised or hung, never a hang itself; off when METRICS_PORT is unset; a taken
port is one line from the CLI. The readiness checks ask the real store and PHP pool."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import discord
import pytest

from bot.cli import _run
from bot.observability import (
    HealthServer,
    Metrics,
    MetricsPortUnavailable,
    evaluator_answers,
    readiness_checks,
    serve_observability,
    store_answers,
)
from bot.settings import BotSettings
from bot.storage import open_store
from tests.support.observability import healthz

SHORT = 0.05
"""A check's time limit in these tests; nothing asserts how long anything took."""


def passing() -> bool:
    return True


async def passing_async() -> bool:
    await asyncio.sleep(0)
    return True


class LoggedIn:
    def __init__(self, ready: bool = True) -> None:
        self.ready = ready

    def is_ready(self) -> bool:
        return self.ready

    def is_closed(self) -> bool:
        return False


async def test_ready_when_every_check_passes() -> None:
    checks = {"discord": passing, "store": passing_async, "evaluator": passing_async}
    async with HealthServer(Metrics(), checks) as server:  # type: ignore[arg-type]
        status, body = await healthz(server)
    assert status == 200
    assert body == {
        "status": "ok",
        "failing": [],
        "checks": {"discord": "ok", "store": "ok", "evaluator": "ok"},
    }


async def test_a_check_saying_no_is_named_in_a_503() -> None:
    async def store_down() -> bool:
        return False

    checks = {"discord": passing, "store": store_down, "evaluator": passing_async}
    async with HealthServer(Metrics(), checks) as server:  # type: ignore[arg-type]
        status, body = await healthz(server)
    assert status == 503
    assert body["status"] == "unavailable"
    assert body["failing"] == ["store"]
    assert body["checks"] == {"discord": "ok", "store": "failed", "evaluator": "ok"}


async def test_a_check_that_raises_is_an_error_not_a_500() -> None:
    async def evaluator_broken() -> bool:
        raise RuntimeError("the pool is closed")

    def discord_broken() -> bool:
        raise AttributeError("no websocket")

    checks = {"discord": discord_broken, "evaluator": evaluator_broken}
    async with HealthServer(Metrics(), checks) as server:  # type: ignore[arg-type]
        status, body = await healthz(server)
    assert status == 503
    assert body["checks"] == {"discord": "error", "evaluator": "error"}


async def test_a_check_that_hangs_is_a_timeout_503() -> None:
    async def store_stuck() -> bool:
        await asyncio.Event().wait()
        return True

    checks = {"discord": passing, "store": store_stuck}
    async with HealthServer(Metrics(), checks, check_timeout_s=SHORT) as server:  # type: ignore[arg-type]
        status, body = await asyncio.wait_for(healthz(server), timeout=30)
    assert status == 503
    assert body["failing"] == ["store"]
    assert body["checks"] == {"discord": "ok", "store": "timeout"}


async def test_a_hung_check_that_ignores_cancellation_does_not_hold_the_answer() -> None:
    """`asyncio.wait_for` would wait for this one to give up; the server must not."""
    release = asyncio.Event()

    async def stubborn() -> bool:
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            await release.wait()  # swallows the cancellation until the test lets go
        return True

    server = HealthServer(Metrics(), {"store": stubborn}, check_timeout_s=SHORT)
    async with server:
        try:
            status, body = await asyncio.wait_for(healthz(server), timeout=30)
        finally:
            release.set()
    assert status == 503
    assert body["checks"] == {"store": "timeout"}


async def test_each_probe_runs_the_checks_afresh() -> None:
    state = {"ready": False}
    async with HealthServer(Metrics(), {"discord": lambda: state["ready"]}) as server:
        assert (await healthz(server))[0] == 503
        state["ready"] = True
        assert (await healthz(server))[0] == 200


async def test_nothing_listens_when_metrics_port_is_unset(tmp_path: Path) -> None:
    settings = BotSettings(database_url=f"sqlite+aiosqlite:///{tmp_path}/x.sqlite3")
    assert settings.metrics_port is None
    async with serve_observability(settings, Metrics(), {}) as server:
        assert server is None


async def test_metrics_port_from_settings_serves(tmp_path: Path) -> None:
    settings = BotSettings(database_url=f"sqlite+aiosqlite:///{tmp_path}/x.sqlite3", metrics_port=0)
    async with serve_observability(settings, Metrics(), {"discord": passing}) as server:
        assert server is not None
        assert (await healthz(server))[0] == 200


async def test_a_taken_port_is_a_clear_error() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(MetricsPortUnavailable, match=f"127.0.0.1:{port}.*METRICS_PORT"):
            async with HealthServer(Metrics(), {}, port=port):
                pass


def test_the_cli_says_a_taken_port_in_one_line(capsys) -> None:
    async def main() -> None:
        raise MetricsPortUnavailable("cannot serve metrics on 0.0.0.0:9464: Address in use")

    assert _run.run_bot(main) == 1
    err = capsys.readouterr().err
    assert "9464" in err and "Traceback" not in err and err.count("\n") == 1


# ----------------------------------------------------- the real parts' checks


@pytest.mark.asyncio(loop_scope="session")
async def test_ready_with_the_real_store_and_php_pool(store, evaluator) -> None:
    checks = readiness_checks(LoggedIn(), store.games, evaluator)
    async with HealthServer(Metrics(), checks) as server:
        status, body = await healthz(server)
    assert (status, body["checks"]) == (200, {"discord": "ok", "store": "ok", "evaluator": "ok"})


@pytest.mark.asyncio(loop_scope="session")
async def test_a_client_that_has_not_logged_in_is_not_ready(store, evaluator) -> None:
    client = discord.Client(intents=discord.Intents.none())
    checks = readiness_checks(client, store.games, evaluator)
    async with HealthServer(Metrics(), checks) as server:
        status, body = await healthz(server)
    assert status == 503
    assert body["failing"] == ["discord"]


@pytest.mark.asyncio(loop_scope="session")
async def test_a_store_whose_database_is_garbage_fails_its_check(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    store = await open_store(f"sqlite+aiosqlite:///{path}")
    try:
        assert await store_answers(store.games)() is True  # type: ignore[misc]
        await store.close()  # drops the pooled connections; the next read opens the file
        path.write_bytes(b"this is not a database" * 512)
        async with HealthServer(Metrics(), {"store": store_answers(store.games)}) as server:
            status, body = await healthz(server)
    finally:
        await store.close()
    assert status == 503
    assert body["checks"] == {"store": "error"}


@pytest.mark.asyncio(loop_scope="session")
async def test_the_evaluator_check_needs_php_to_compute_the_answer(evaluator) -> None:
    class WrongPhp:
        async def evaluate(self, formula, digits, functions):
            return await evaluator.evaluate("1+2+3-4", digits, functions)  # 2, not 10

    assert await evaluator_answers(evaluator)() is True  # type: ignore[misc]
    assert await evaluator_answers(WrongPhp())() is False  # type: ignore[misc]
