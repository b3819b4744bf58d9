"""A real Docker engine and a current sandbox image, or a skip that says why.

The image is the from-host build (this machine can pull nothing), made once per
session and only when the tagged image does not carry the worker in the tree.
With REQUIRE_DOCKER=1 (CI) a missing engine or image is a failure, not a skip.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from typing import Any, NoReturn

import pytest

from evaluator.settings import EvaluatorSettings

REQUIRED = os.environ.get("REQUIRE_DOCKER") == "1"


def unavailable(reason: str) -> NoReturn:
    if REQUIRED:
        pytest.fail(f"REQUIRE_DOCKER=1 but {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def docker_client() -> Iterator[Any]:
    try:
        import docker  # type: ignore[import-untyped]

        client = docker.from_env(timeout=120)
        client.ping()
    except Exception as exc:  # any failure here means "no engine"
        unavailable(f"no Docker engine reachable: {exc}")
    yield client
    client.close()


@pytest.fixture(scope="session")
def sandbox_image(docker_client: Any) -> str:
    from evaluator.sandbox.images import ImageBuildError, ensure_image

    tag = EvaluatorSettings().docker_image
    try:
        ensure_image(tag, from_host=True, client=docker_client)
    except ImageBuildError as exc:
        unavailable(f"cannot build the sandbox image: {exc}")
    return tag


@pytest.fixture
def docker_settings(sandbox_image: str) -> EvaluatorSettings:
    return EvaluatorSettings(docker_image=sandbox_image, pool_size=2, timeout_s=2.0, docker_pids=16)


@pytest.fixture
async def factory(docker_settings: EvaluatorSettings) -> AsyncIterator[Any]:
    from evaluator.sandbox.docker import DockerWorkerFactory

    made = DockerWorkerFactory(docker_settings)
    await made.cleanup()
    yield made
    await made.cleanup()
    made.close()
