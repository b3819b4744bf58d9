"""The Docker worker and factory against the real engine: answers, limits, deaths, cleanup."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import time
from typing import Any

import docker  # type: ignore[import-untyped]
import pytest

from evaluator.result import Evaluation
from evaluator.sandbox.base import WorkerDied
from evaluator.sandbox.protocol import decode_response, encode_request

pytestmark = pytest.mark.docker


async def ask(worker: Any, code: str, *, raw: bool = False) -> Any:
    request = encode_request(code, raw=raw)
    verdict, _ = decode_response(await worker.request(request.line, 5.0), code, request.nonce)
    return verdict


def gone(client: Any, container_id: str, within: float = 10.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            client.containers.get(container_id)
        except docker.errors.NotFound:
            return True
        time.sleep(0.1)
    return False


async def test_real_php_answers(factory: Any) -> None:
    worker = await factory.spawn()
    try:
        assert await ask(worker, "34+89") == Evaluation("34+89", 123)
        assert await ask(worker, "7/2") == Evaluation("7/2", 3.5)
        assert await ask(worker, "023") == Evaluation("023", 19)
        assert await ask(worker, "1<<64") == Evaluation("1<<64", 0)
        assert (await ask(worker, "1/0")).error_class == "DivisionByZeroError"
        assert (await ask(worker, "08")).code == "syntax"
        noisy = await ask(worker, "echo str_repeat('x', 100000); return 5;", raw=True)
        assert noisy == Evaluation("echo str_repeat('x', 100000); return 5;", 5)
    finally:
        await worker.kill()


async def test_hardening_is_in_the_host_config(factory: Any, docker_client: Any) -> None:
    worker = await factory.spawn()
    try:
        attrs = docker_client.api.inspect_container(worker.container_id)
        host, config = attrs["HostConfig"], attrs["Config"]
        settings = factory.settings
        assert host["NetworkMode"] == "none"
        assert host["ReadonlyRootfs"] is True
        assert host["CapDrop"] == ["ALL"]
        assert "no-new-privileges" in host["SecurityOpt"]
        assert host["Memory"] == settings.docker_memory_mb << 20
        assert host["MemorySwap"] == host["Memory"]
        assert host["PidsLimit"] == settings.docker_pids
        assert host["NanoCpus"] == int(settings.docker_cpus * 1e9)
        limits = {u["Name"]: u["Hard"] for u in host["Ulimits"]}
        assert limits["nofile"] <= 64
        assert limits["fsize"] <= 1 << 20
        assert limits["nproc"] <= 256
        assert "size=1m" in host["Tmpfs"]["/tmp"]
        assert host["LogConfig"]["Type"] == "none"
        assert config["User"] == "65534:65534"
        assert config["Labels"]["formula-darts.sandbox"] == "1"
        assert config["Labels"]["formula-darts.owner"] == factory.token
        assert attrs["State"]["Running"] is True
    finally:
        await worker.kill()


_PROBE = r"""
$st = file_get_contents('/proc/self/status');
preg_match('/^Uid:\s+(\d+)/m', $st, $uid);
preg_match('/^CapEff:\s+(\S+)/m', $st, $cap);
preg_match('/^NoNewPrivs:\s+(\d)/m', $st, $nnp);
$lines = array_slice(explode("\n", trim(file_get_contents('/proc/net/dev'))), 2);
$r = [
    'uid' => (int) $uid[1],
    'cap_eff' => $cap[1],
    'no_new_privs' => (int) $nnp[1],
    'write_root' => @file_put_contents('/evil', 'x') !== false,
    'write_tmp' => @file_put_contents('/tmp/small', 'x') === 1,
    'write_tmp_big' => @file_put_contents('/tmp/big', str_repeat('x', 4 << 20)) !== false,
    'connect' => @fsockopen('192.0.2.1', 80, $errno, $errstr, 1) !== false,
    'interfaces' => array_map(fn ($l) => trim(explode(':', $l)[0]), $lines),
];
fwrite(STDERR, json_encode($r) . "\n");
fgets(STDIN);
"""


async def probe(factory: Any, code: str) -> Any:
    """Run `code` with plain `php -n` under the pool's exact container limits."""
    worker = await factory.spawn_with(["php", "-n", "-r", code])
    try:
        return json.loads(await worker.request(b"\n", 15.0))
    finally:
        await worker.kill()


async def test_contained_inside_the_container(factory: Any) -> None:
    seen = await probe(factory, _PROBE)
    assert seen["uid"] == 65534
    assert int(seen["cap_eff"], 16) == 0
    assert seen["no_new_privs"] == 1
    assert seen["write_root"] is False
    assert seen["write_tmp"] is True
    assert seen["write_tmp_big"] is False
    assert seen["connect"] is False
    assert seen["interfaces"] == ["lo"]


async def test_fork_bomb_stops_at_the_pids_limit(factory: Any) -> None:
    bomb = r"""
    $n = 0;
    while ($n < 500) {
        $pid = pcntl_fork();
        if ($pid === -1) { break; }
        if ($pid === 0) { sleep(60); exit(0); }
        $n++;
    }
    fwrite(STDERR, json_encode(['forked' => $n]) . "\n");
    fgets(STDIN);
    """
    seen = await probe(factory, bomb)
    assert 0 < seen["forked"] < factory.settings.docker_pids


async def test_memory_bomb_is_killed_by_the_cgroup(factory: Any) -> None:
    hog = "$a = []; while (true) { $a[] = str_repeat('x', 1 << 20); }"
    worker = await factory.spawn_with(["php", "-n", "-d", "memory_limit=-1", "-r", hog])
    try:
        with pytest.raises(WorkerDied):  # the bound only guards a hang: a bomb starved of
            await worker.request(b"\n", 120.0)  # CPU by other work took more than 20 s
    finally:
        await worker.kill()


async def test_timeout_then_kill_removes_the_container(factory: Any, docker_client: Any) -> None:
    worker = await factory.spawn()
    with pytest.raises(TimeoutError):
        await worker.request(encode_request("while (true) {}", raw=True).line, 0.5)
    assert not worker.alive
    await worker.kill()
    assert await asyncio.to_thread(gone, docker_client, worker.container_id)


async def test_docker_kill_mid_request_is_noticed_at_once(factory: Any, docker_client: Any) -> None:
    worker = await factory.spawn()
    pending = asyncio.create_task(
        worker.request(encode_request("while (true) {}", raw=True).line, 30)
    )
    await asyncio.sleep(0.3)
    await asyncio.to_thread(docker_client.api.kill, worker.container_id)
    with pytest.raises(WorkerDied, match="sandbox container"):  # not the timeout's error
        await pending
    assert not worker.alive
    await worker.kill()
    fresh = await factory.spawn()
    try:
        assert await ask(fresh, "34+89") == Evaluation("34+89", 123)
    finally:
        await fresh.kill()


async def test_container_goes_away_when_its_owner_disconnects(
    factory: Any, docker_client: Any
) -> None:
    """What a crash of this process looks like to the engine: the attach socket closes."""
    worker = await factory.spawn()
    worker._writer.close()
    assert await asyncio.to_thread(gone, docker_client, worker.container_id, 15)


async def test_cleanup_removes_orphans_only(factory: Any, docker_client: Any) -> None:
    from evaluator.sandbox._docker_config import owner_token

    def start(labels: dict[str, str]) -> str:
        container = docker_client.containers.run(
            factory.settings.docker_image,
            ["php", "-n", "-r", "sleep(120);"],
            detach=True,
            network_mode="none",
            labels=labels,
        )
        return str(container.id)

    dead_owner = f"{owner_token().split(':')[0]}:999999999:1:deadbeef"
    no_owner = start({"formula-darts.sandbox": "1"})
    crashed = start({"formula-darts.sandbox": "1", "formula-darts.owner": dead_owner})
    live_peer = start({"formula-darts.sandbox": "1", "formula-darts.owner": owner_token()})
    stranger = start({"someone-else": "1"})
    try:
        await factory.cleanup()
        remaining = {c.id for c in docker_client.containers.list(all=True)}
        assert no_owner not in remaining
        assert crashed not in remaining
        assert live_peer in remaining
        assert stranger in remaining
    finally:
        for cid in (no_owner, crashed, live_peer, stranger):
            with contextlib.suppress(docker.errors.NotFound):
                docker_client.api.remove_container(cid, force=True)


def ours(client: Any, token: str) -> list[Any]:
    return client.containers.list(all=True, filters={"label": f"formula-darts.owner={token}"})


async def test_factory_cleanup_removes_its_own(factory: Any, docker_client: Any) -> None:
    workers = [await factory.spawn() for _ in range(3)]
    assert len(ours(docker_client, factory.token)) == 3
    await factory.cleanup()
    assert ours(docker_client, factory.token) == []
    for worker in workers:
        with pytest.raises(WorkerDied):
            await worker.request(encode_request("1").line, 5)
        await worker.kill()


async def test_production_dockerfile_builds_on_a_php_base(
    docker_client: Any, sandbox_image: str, docker_settings: Any
) -> None:
    """The real Dockerfile, on the from-host image standing in for php:8.2-cli."""
    from evaluator.sandbox.docker import DockerWorkerFactory, docker_available
    from evaluator.sandbox.images import build_image

    tag = "formula-darts-sandbox:dockerfile-test"
    built = await asyncio.to_thread(
        build_image, tag, from_host=False, client=docker_client, base=sandbox_image
    )
    settings = dataclasses.replace(docker_settings, docker_image=tag)
    try:
        assert built.source == "dockerfile"
        assert built.php_version.startswith("8.2.")
        labels = docker_client.images.get(tag).labels
        assert labels["formula-darts.source"] == "dockerfile"
        assert docker_available(settings)[0]
        factory = DockerWorkerFactory(settings)
        worker = await factory.spawn()
        try:
            assert await ask(worker, "2*47+6") == Evaluation("2*47+6", 100)
        finally:
            await worker.kill()
            factory.close()
    finally:
        docker_client.images.remove(tag, force=True)
