"""docker-compose.yml, as Compose itself resolves it (`config`: no image is pulled or
built): each profile starts the services it should with the settings they need, the two
never share a bot, and the bots' healthcheck command, run as written, passes on a ready
`/healthz` and fails on a 503 or on nothing listening.

With REQUIRE_DOCKER=1 (CI) a missing Compose is a failure, not a skip.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from bot.observability import HealthServer, Metrics

ROOT = Path(__file__).resolve().parents[1]
COMPOSE_FILE = str(ROOT / "docker-compose.yml")
BOTS = {"bot", "shard-0", "shard-1"}

pytestmark = pytest.mark.docker


def _compose() -> list[str]:
    docker = shutil.which("docker")
    if docker:
        plugin = subprocess.run([docker, "compose", "version"], capture_output=True, check=False)
        if plugin.returncode == 0:
            return [docker, "compose"]
    legacy = shutil.which("docker-compose")
    if legacy:
        return [legacy]
    if os.environ.get("REQUIRE_DOCKER") == "1":
        pytest.fail("REQUIRE_DOCKER=1 but neither `docker compose` nor docker-compose is installed")
    pytest.skip("no docker compose here")
    raise AssertionError


def resolved(tmp_path: Path, *profiles: str) -> dict[str, dict[str, Any]]:
    """The services `docker compose --profile ... up` would start, fully interpolated.

    docker-compose 1.x prints every service whatever the profile, so the profile
    rule is applied here too (a service without profiles always starts).
    """
    empty_env = tmp_path / "empty.env"  # a developer's .env must not change the answer
    empty_env.write_text("")
    flags = [arg for profile in profiles for arg in ("--profile", profile)]
    out = subprocess.run(
        [*_compose(), "--env-file", str(empty_env), "-f", COMPOSE_FILE, *flags, "config"],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        env={k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "DOCKER_HOST"}},
    )
    assert out.returncode == 0, out.stderr
    services: dict[str, dict[str, Any]] = yaml.safe_load(out.stdout)["services"]
    return {
        name: spec
        for name, spec in services.items()
        if not spec.get("profiles") or set(spec["profiles"]) & set(profiles)
    }


def healthcheck(spec: dict[str, Any]) -> list[str]:
    test = spec["healthcheck"]["test"]
    assert test[0] == "CMD", "run without a shell: the image has python, not curl"
    return list(test[1:])


IMAGES = {"sandbox-image", "node-sandbox-image"}
"""PHP's and node's sandbox images: the global Sets are judged by both."""


def test_without_a_profile_only_the_sandbox_images_are_built(tmp_path) -> None:
    assert set(resolved(tmp_path)) == IMAGES


def test_single_keeps_one_bot_on_sqlite(tmp_path) -> None:
    services = resolved(tmp_path, "single")
    assert set(services) == IMAGES | {"bot"}
    env = services["bot"]["environment"]
    assert env["DATABASE_URL"] == "sqlite+aiosqlite:///data/formula-darts.sqlite3"
    assert "SHARD_COUNT" not in env and "SHARD_IDS" not in env
    assert env["METRICS_PORT"] == "9464"
    assert env["EVALUATOR"] == "docker"
    assert any(v.startswith("bot-data:/app/data") for v in services["bot"]["volumes"])
    for image in IMAGES:
        assert services["bot"]["depends_on"][image]["condition"] == (
            "service_completed_successfully"
        )
    assert env["NODE_DOCKER_IMAGE"] == "formula-darts-node-sandbox:latest"


def test_single_with_postgres_adds_the_database(tmp_path) -> None:
    assert set(resolved(tmp_path, "single", "postgres")) == IMAGES | {"bot", "postgres"}


def test_shards_run_two_processes_over_postgres(tmp_path) -> None:
    services = resolved(tmp_path, "shards")
    assert set(services) == IMAGES | {"shard-0", "shard-1", "postgres", "web"}
    for shard in ("0", "1"):
        spec = services[f"shard-{shard}"]
        env = spec["environment"]
        assert env["SHARD_COUNT"] == "2"
        assert env["SHARD_IDS"] == shard
        assert env["DATABASE_URL"] == "postgresql+asyncpg://formula:formula@postgres/formula"
        assert env["METRICS_PORT"] == "9464" and env["METRICS_HOST"] == "0.0.0.0"
        assert spec["depends_on"]["postgres"]["condition"] == "service_healthy"
        for image in IMAGES:
            assert spec["depends_on"][image]["condition"] == "service_completed_successfully"
    assert services["postgres"]["healthcheck"]["test"][0] == "CMD-SHELL"


def _port(spec: str | dict[str, Any]) -> tuple[str, str, str]:
    """(host ip, published, target) of a port, as Compose v2 (a mapping) or 1.x
    ("127.0.0.1:8080:8080/tcp") prints it."""
    if isinstance(spec, dict):
        return (str(spec.get("host_ip", "")), str(spec["published"]), str(spec["target"]))
    ip, published, target = spec.split("/")[0].split(":")
    return (ip, published, target)


def test_the_web_pages_are_served_once_on_the_hosts_loopback(tmp_path) -> None:
    """single: the bot serves them (WEB_PORT, from its pages' child process, under an init
    that reaps what a killed child leaves); shards: `formula-darts web` alone, once."""
    bot = resolved(tmp_path, "single")["bot"]
    assert bot["init"] is True
    assert bot["environment"]["WEB_PORT"] == "8080" and bot["environment"]["WEB_HOST"] == "0.0.0.0"
    assert [_port(p) for p in bot["ports"]] == [("127.0.0.1", "8080", "8080")]
    shards = resolved(tmp_path, "shards")
    assert all("WEB_PORT" not in shards[f"shard-{n}"]["environment"] for n in "01")
    web = shards["web"]
    assert web["command"][:2] == ["formula-darts", "web"]
    assert web["environment"]["DATABASE_URL"].startswith("postgresql+asyncpg://")
    assert [_port(p)[0] for p in web["ports"]] == ["127.0.0.1"]


def test_the_profiles_never_run_a_bot_twice(tmp_path) -> None:
    single = set(resolved(tmp_path, "single")) & BOTS
    shards = set(resolved(tmp_path, "shards")) & BOTS
    assert single == {"bot"} and shards == {"shard-0", "shard-1"}


def test_every_bot_checks_healthz_on_its_metrics_port(tmp_path) -> None:
    services = {**resolved(tmp_path, "single"), **resolved(tmp_path, "shards")}
    for name in BOTS:
        command = healthcheck(services[name])
        assert command[0] == "python"
        assert "/healthz" in command[-1] and "METRICS_PORT" in command[-1]
        assert "METRICS_PORT" in services[name]["environment"]


async def _exit_code(command: list[str], port: int) -> int:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        *command[1:],
        env={"METRICS_PORT": str(port), "PATH": os.environ.get("PATH", "")},
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )
    return await process.wait()


async def test_the_healthcheck_command_follows_healthz(tmp_path) -> None:
    command = healthcheck(resolved(tmp_path, "single")["bot"])
    ready = {"value": True}
    async with HealthServer(Metrics(), {"discord": lambda: ready["value"]}) as server:
        port = server.port
        assert await _exit_code(command, port) == 0
        ready["value"] = False
        assert await _exit_code(command, port) != 0
    assert await _exit_code(command, port) != 0, "nothing listening is unhealthy too"
