"""`formula-darts sandbox build|info` against the real engine."""

from __future__ import annotations

from typing import Any

import pytest

from bot.cli import main

pytestmark = pytest.mark.docker


def test_info_reports_php_inside_the_image(
    sandbox_image: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("EVALUATOR", "auto")
    monkeypatch.setenv("DOCKER_IMAGE", sandbox_image)
    assert main(["sandbox", "info"]) == 0
    out = capsys.readouterr().out
    assert "docker: usable" in out
    assert "php in" in out
    assert "8.2." in out
    assert "EVALUATOR=auto would use: docker" in out


def test_info_says_how_to_fix_a_missing_image(
    docker_client: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DOCKER_IMAGE", "formula-darts-sandbox:does-not-exist")
    assert main(["sandbox", "info"]) == 1
    assert "formula-darts sandbox build" in capsys.readouterr().out


def test_build_from_host(docker_client: Any, capsys: pytest.CaptureFixture[str]) -> None:
    tag = "formula-darts-sandbox:cli-test"
    try:
        assert main(["sandbox", "build", "--from-host", "--tag", tag]) == 0
        assert "from-host, PHP 8.2." in capsys.readouterr().out
        assert docker_client.images.get(tag).labels["formula-darts.source"] == "from-host"
    finally:
        docker_client.images.remove(tag, force=True)
