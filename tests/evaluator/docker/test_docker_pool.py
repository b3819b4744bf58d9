"""The generic pool and the service on the Docker backend: what a caller actually sees."""

from __future__ import annotations

import asyncio
import dataclasses
import socket
from collections.abc import AsyncIterator
from typing import Any

import pytest

from evaluator.result import ErrorCode, EvalError, Evaluation
from evaluator.sandbox.docker import DockerWorkerFactory
from evaluator.sandbox.pool import WorkerPool
from evaluator.settings import EvaluatorSettings

pytestmark = pytest.mark.docker


def owned(client: Any, factory: DockerWorkerFactory) -> list[Any]:
    label = f"formula-darts.owner={factory.token}"
    return client.containers.list(all=True, filters={"label": label})


@pytest.fixture
async def pool(docker_settings: EvaluatorSettings) -> AsyncIterator[WorkerPool]:
    factory = DockerWorkerFactory(docker_settings)
    made = WorkerPool(factory, size=1, timeout_s=1.0, queue_limit=8)
    await made.start()
    yield made
    await made.close()
    factory.close()


async def test_docker_kill_mid_request_then_the_next_request_works(
    pool: WorkerPool, docker_client: Any
) -> None:
    factory = pool.factory
    assert isinstance(factory, DockerWorkerFactory)
    pool.timeout_s = 30.0
    pending = asyncio.create_task(pool.run_raw("while (true) {}"))
    await asyncio.sleep(0.3)
    [victim] = owned(docker_client, factory)
    await asyncio.to_thread(victim.kill)
    verdict = await pending
    assert isinstance(verdict, EvalError)
    assert verdict.code is ErrorCode.SANDBOX  # the closed stream, not the timeout (TIMEOUT)
    assert "died" in verdict.message
    assert await pool.run("34+89") == Evaluation("34+89", 123)


async def test_timeout_replaces_the_container(pool: WorkerPool, docker_client: Any) -> None:
    factory = pool.factory
    assert isinstance(factory, DockerWorkerFactory)
    [before] = owned(docker_client, factory)
    verdict = await pool.run_raw("while (true) {}")
    assert isinstance(verdict, EvalError)
    assert verdict.code is ErrorCode.TIMEOUT
    assert await pool.run("7/2") == Evaluation("7/2", 3.5)
    [after] = [c for c in owned(docker_client, factory) if c.status == "running"]
    assert after.id != before.id


async def test_close_leaves_no_container(
    docker_settings: EvaluatorSettings, docker_client: Any
) -> None:
    factory = DockerWorkerFactory(docker_settings)
    pool = WorkerPool(factory, size=3, timeout_s=2.0, queue_limit=8)
    await pool.start()
    assert len(owned(docker_client, factory)) == 3
    results = await pool.run_many(["1+2", "3*4", "5-6", "7/2"])
    assert [r.value for r in results if isinstance(r, Evaluation)] == [3, 12, -1, 3.5]
    await pool.close()
    factory.close()
    assert owned(docker_client, factory) == []


async def test_first_spawn_removes_an_earlier_runs_orphans(
    docker_settings: EvaluatorSettings, docker_client: Any
) -> None:
    """An owner on this host whose process is gone: what a crash (e.g. SIGKILL) leaves."""
    dead = f"{socket.gethostname()}:999999999:1:cafe"
    orphan = docker_client.containers.run(
        docker_settings.docker_image,
        ["php", "-n", "-r", "sleep(120);"],
        detach=True,
        network_mode="none",
        labels={"formula-darts.sandbox": "1", "formula-darts.owner": dead},
    )
    factory = DockerWorkerFactory(docker_settings)
    pool = WorkerPool(factory, size=1, timeout_s=2.0, queue_limit=8)
    try:
        await pool.start()
        assert orphan.id not in {c.id for c in docker_client.containers.list(all=True)}
    finally:
        await pool.close()
        factory.close()


async def test_open_evaluator_chooses_docker_when_usable(
    docker_settings: EvaluatorSettings,
) -> None:
    from evaluator.service import open_evaluator

    settings = dataclasses.replace(docker_settings, evaluator="auto")
    async with await open_evaluator(settings) as evaluator:
        assert evaluator.backend == "docker"
        assert await evaluator.evaluate("34+89", "3489", ["pow"]) == Evaluation("34+89", 123)
        bad = await evaluator.evaluate("43+89", "3489", ["pow"])
        assert isinstance(bad, EvalError)
        assert bad.code is ErrorCode.DIGITS


async def test_an_idle_pool_leaves_no_task_behind(pool: WorkerPool) -> None:
    """simcord's settle() needs this: reads happen only inside a caller's await."""
    assert await pool.run("9/3") == Evaluation("9/3", 3)
    await asyncio.sleep(0.05)
    assert asyncio.all_tasks() == {asyncio.current_task()}


async def test_a_container_the_engine_fails_to_start_once_is_made_again(
    docker_settings: EvaluatorSettings, docker_client: Any
) -> None:
    """The engine answered one start 500 "cannot start a stopped process" in a loaded run,
    and the pool's start said the sandbox does not work. A start the engine fails (its
    own 5xx) is tried once more with a new container; the failed one is removed."""
    from docker import errors as docker_errors  # type: ignore[import-untyped]

    factory = DockerWorkerFactory(docker_settings)
    api = factory.api()
    real_start, failed = api.start, list[str]()

    def start_fails_once(container: str, *args: Any, **kwargs: Any) -> Any:
        if not failed:
            failed.append(container)
            response = type(
                "Response", (), {"status_code": 500, "reason": "Server Error", "url": "start"}
            )()
            raise docker_errors.APIError("cannot start a stopped process", response)
        return real_start(container, *args, **kwargs)

    api.start = start_fails_once
    pool = WorkerPool(factory, size=1, timeout_s=2.0, queue_limit=8)
    try:
        await pool.start()
        assert [r.value for r in await pool.run_many(["1+2"]) if isinstance(r, Evaluation)] == [3]
        assert failed and failed[0] not in {c.id for c in owned(docker_client, factory)}
    finally:
        await pool.close()
        factory.close()
