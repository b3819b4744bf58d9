"""Pool fixtures over every backend: each sandbox must pass the same tests.

`backend` is "local" (bubblewrap) or "docker". Docker skips with the reason
when the engine or image is missing, unless REQUIRE_DOCKER=1 (CI), where a
missing engine is a failure.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import AsyncIterator
from typing import Any

import pytest

from evaluator.sandbox.base import WorkerFactory
from evaluator.sandbox.local import LocalWorkerFactory
from evaluator.sandbox.pool import WorkerPool
from evaluator.service import make_pool
from evaluator.settings import EvaluatorSettings

REQUIRE_DOCKER = os.environ.get("REQUIRE_DOCKER") == "1"
TIMEOUT_S = 1.0

_docker_state: dict[str, Any] = {}


def test_settings(backend: str, **overrides: Any) -> EvaluatorSettings:
    values: dict[str, Any] = {
        "evaluator": backend,
        "pool_size": 2,
        "timeout_s": TIMEOUT_S,
        "queue_limit": 32,
    }
    values.update(overrides)
    return EvaluatorSettings(**values)


test_settings.__test__ = False  # type: ignore[attr-defined]  # not a test, despite the name


def _docker_problem() -> str | None:
    """Why the Docker backend cannot run here, or None; asked once per session."""
    if "problem" not in _docker_state:
        problem: str | None = None
        try:
            docker = importlib.import_module("evaluator.sandbox.docker")
            settings = EvaluatorSettings()
            ok, why = docker.docker_available(settings)
            if not ok:
                try:  # the engine may be there without the image: build it from this host
                    images = importlib.import_module("evaluator.sandbox.images")
                    images.ensure_image(settings.docker_image, from_host=True)
                    ok, why = docker.docker_available(settings)
                except Exception as exc:  # any failure means "unavailable"
                    why = f"{why}; building the image failed: {exc}"
            problem = None if ok else why
        except Exception as exc:
            problem = f"the Docker backend cannot load: {type(exc).__name__}: {exc}"
        _docker_state["problem"] = problem
    return _docker_state["problem"]  # type: ignore[no-any-return]


def factory_for(backend: str, settings: EvaluatorSettings) -> WorkerFactory:
    if backend == "local":
        return LocalWorkerFactory(settings)
    docker = importlib.import_module("evaluator.sandbox.docker")
    factory: WorkerFactory = docker.DockerWorkerFactory(settings)
    return factory


@pytest.fixture(params=["local", pytest.param("docker", marks=pytest.mark.docker)])
def backend(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    if name == "docker":
        problem = _docker_problem()
        if problem is not None:
            if REQUIRE_DOCKER:
                pytest.fail(f"REQUIRE_DOCKER=1 but {problem}", pytrace=False)
            pytest.skip(f"Docker backend unavailable: {problem}")
    return name


async def open_pool(backend: str, **overrides: Any) -> WorkerPool:
    settings = test_settings(backend, **overrides)
    pool = make_pool(factory_for(backend, settings), settings)
    await pool.start()
    return pool


@pytest.fixture
async def pool(backend: str) -> AsyncIterator[WorkerPool]:
    opened = await open_pool(backend)
    try:
        yield opened
    finally:
        await opened.close()
