"""Node pools over every backend, as tests/evaluator/conftest.py has PHP's.

`js_backend` is "local" (bubblewrap) or "docker"; Docker builds the node image
from this host's node when it does not carry the worker.js in the tree, and
skips with the reason when the engine is missing (fails with REQUIRE_DOCKER=1).
"""

from __future__ import annotations

import importlib
from collections.abc import AsyncIterator
from typing import Any

import pytest

from evaluator.sandbox.base import WorkerFactory
from evaluator.sandbox.local import LocalWorkerFactory
from evaluator.sandbox.pool import WorkerPool
from evaluator.sandbox.program import NODE
from evaluator.service import make_pool
from evaluator.settings import EvaluatorSettings
from tests.evaluator.conftest import REQUIRE_DOCKER, test_settings

_state: dict[str, str | None] = {}


def _node_docker_problem() -> str | None:
    """Why node cannot run in Docker here, or None; asked once per session."""
    if "problem" not in _state:
        problem: str | None = None
        try:
            docker = importlib.import_module("evaluator.sandbox.docker")
            images = importlib.import_module("evaluator.sandbox.images")
            settings = EvaluatorSettings()
            images.ensure_node_image(settings.node_docker_image)
            ok, why = docker.docker_available(settings, NODE)
            problem = None if ok else why
        except Exception as exc:  # any failure means "unavailable"
            problem = f"the node Docker backend cannot run: {type(exc).__name__}: {exc}"
        _state["problem"] = problem
    return _state["problem"]


def node_factory(backend: str, settings: EvaluatorSettings) -> WorkerFactory:
    if backend == "local":
        return LocalWorkerFactory(settings, program=NODE)
    docker = importlib.import_module("evaluator.sandbox.docker")
    factory: WorkerFactory = docker.DockerWorkerFactory(settings, program=NODE)
    return factory


@pytest.fixture(params=["local", pytest.param("docker", marks=pytest.mark.docker)])
def js_backend(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    if name == "docker":
        require_node_docker()
    return name


def require_node_docker() -> None:
    """Skip (fail with REQUIRE_DOCKER=1) when node cannot run in Docker here."""
    problem = _node_docker_problem()
    if problem is not None:
        if REQUIRE_DOCKER:
            pytest.fail(f"REQUIRE_DOCKER=1 but {problem}", pytrace=False)
        pytest.skip(f"node Docker backend unavailable: {problem}")


async def open_node_pool(backend: str, **overrides: Any) -> WorkerPool:
    settings = test_settings(backend, **overrides)
    pool = make_pool(node_factory(backend, settings), settings, program=NODE)
    await pool.start()
    return pool


@pytest.fixture
async def js_pool(js_backend: str) -> AsyncIterator[WorkerPool]:
    opened = await open_node_pool(js_backend)
    try:
        yield opened
    finally:
        await opened.close()
