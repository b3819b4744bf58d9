"""`formula-darts sandbox build --language javascript` against the real engine."""

from __future__ import annotations

import pytest

from bot.cli import main
from tests.evaluator.js.conftest import _node_docker_problem

pytestmark = pytest.mark.docker


def test_build_the_node_image_from_this_host(capsys: pytest.CaptureFixture[str]) -> None:
    if _node_docker_problem() is not None:
        pytest.skip(f"node Docker backend unavailable: {_node_docker_problem()}")
    import docker  # type: ignore[import-untyped]

    tag = "formula-darts-node-sandbox:cli-test"
    client = docker.from_env(timeout=120)
    try:
        assert main(["sandbox", "build", "--language", "javascript", "--tag", tag]) == 0
        assert "from-host, node v" in capsys.readouterr().out
        labels = client.images.get(tag).labels
        assert labels["formula-darts.source"] == "from-host"
        out = client.containers.run(
            tag, ["node", "-p", "023+08"], remove=True, network_mode="none", user="65534:65534"
        )
        assert out.strip() == b"27"
    finally:
        client.images.remove(tag, force=True)
        client.close()
