"""The attach stream's framing, without an engine: 8-byte headers, stdout vs stderr."""

from __future__ import annotations

import asyncio
import socket
import struct
from typing import Any

import pytest
from docker import errors as docker_errors  # type: ignore[import-untyped]

from evaluator.sandbox.base import WorkerDied
from evaluator.sandbox.docker import REMOVAL_WAIT_S, DockerWorker, _remove


def requests_timeout() -> Exception:
    """What the SDK's `wait` raises when its timeout passes (requests' ReadTimeout)."""
    from requests.exceptions import ReadTimeout

    return ReadTimeout("read timed out")


def frame(stream: int, payload: bytes) -> bytes:
    return struct.pack(">BxxxL", stream, len(payload)) + payload


@pytest.fixture
async def pair() -> Any:
    ours, theirs = socket.socketpair()
    reader, writer = await asyncio.open_connection(sock=ours)
    worker = DockerWorker(object(), "f" * 64, reader, writer)  # type: ignore[arg-type]
    yield worker, theirs
    writer.close()
    theirs.close()


async def test_response_is_taken_from_stderr_frames_split_anywhere(pair: Any) -> None:
    worker, engine = pair
    engine.sendall(
        frame(1, b"php noise on stdout\n")
        + frame(2, b'{"ok":true,')
        + frame(2, b'"t":"int","v":1}\n{"ok":')
        + frame(2, b'true,"t":"int","v":2}\n')
    )
    assert await worker.request(b"a\n", 2) == b'{"ok":true,"t":"int","v":1}'
    assert await worker.request(b"b\n", 2) == b'{"ok":true,"t":"int","v":2}'
    assert engine.recv(100) == b"a\nb\n"


async def test_end_of_stream_is_a_dead_worker_with_its_last_words(pair: Any) -> None:
    worker, engine = pair
    engine.sendall(frame(1, b"Segmentation fault\n") + frame(2, b'{"ok":'))
    engine.shutdown(socket.SHUT_WR)
    with pytest.raises(WorkerDied, match="Segmentation fault"):
        await worker.request(b"x\n", 2)
    assert not worker.alive


async def test_garbage_frame_kills_the_worker(pair: Any) -> None:
    worker, engine = pair
    engine.sendall(b"\x07\x00\x00\x00\x00\x00\x00\x01x")
    with pytest.raises(WorkerDied, match="malformed"):
        await worker.request(b"x\n", 2)
    assert not worker.alive


async def test_silence_is_a_timeout(pair: Any) -> None:
    worker, _engine = pair
    with pytest.raises(TimeoutError):
        await worker.request(b"x\n", 0.2)
    assert not worker.alive


def test_orphan_rules() -> None:
    from evaluator.sandbox._docker_config import is_orphan, owner_token

    live = owner_token()
    host = live.split(":")[0]
    assert not is_orphan(live, "running", 5)
    assert not is_orphan(live, "created", 500), "a live owner may be starting it right now"
    assert is_orphan(f"{host}:999999999:1:x", "running", 5), "its process is gone"
    assert is_orphan("", "running", 5), "labelled ours but no owner: an old run's"
    assert not is_orphan("elsewhere:1:1:x", "running", 5)
    assert not is_orphan("elsewhere:1:1:x", "created", 5)
    assert is_orphan("elsewhere:1:1:x", "created", 500)
    assert is_orphan("elsewhere:1:1:x", "exited", 5)


def test_stale_image_is_refused() -> None:
    from evaluator.sandbox import images
    from evaluator.sandbox.docker import _image_verdict

    current = {images.WORKER_SHA_LABEL: images.worker_sha256(), images.PHP_VERSION_LABEL: "8.2.1"}
    assert _image_verdict("img", current, "20.10") == (True, "Docker 20.10, image img (PHP 8.2.1)")
    ok, why = _image_verdict("img", {images.WORKER_SHA_LABEL: "0" * 64}, "20.10")
    assert not ok
    assert "sandbox build" in why
    assert _image_verdict("img", {}, "20.10")[0], "an unlabelled (compose-built) image is usable"


def test_every_container_gets_the_hardening() -> None:
    from evaluator.sandbox._docker_config import container_config, worker_command
    from evaluator.settings import EvaluatorSettings

    settings = EvaluatorSettings(docker_memory_mb=96, docker_pids=12, docker_cpus=0.5)
    config = container_config(settings, worker_command(settings), "h:1:2:3")
    host = config["host_config"]
    assert config["user"] == "65534:65534"
    assert config["stdin_open"] and not config["detach"] and not config["tty"]
    assert host["network_mode"] == "none"
    assert host["read_only"] and host["cap_drop"] == ["ALL"]
    assert host["security_opt"] == ["no-new-privileges"]
    assert host["mem_limit"] == host["memswap_limit"] == "96m"
    assert host["pids_limit"] == 12
    assert host["nano_cpus"] == 500_000_000
    assert config["command"][:2] == ["php", "-n"]
    assert config["command"][-1] == "/sandbox/worker.php"


class _Removing:
    """An engine that has a container's auto-removal in progress: remove answers 409."""

    def __init__(self, wait_answer: Exception | None = None) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.wait_answer = wait_answer

    def remove_container(self, container_id: str, **kwargs: Any) -> None:
        self.calls.append(("remove", kwargs))
        response = type("Response", (), {"status_code": 409, "reason": "Conflict"})()
        raise docker_errors.APIError("removal in progress", response=response)

    def wait(self, container_id: str, **kwargs: Any) -> dict[str, int]:
        self.calls.append(("wait", kwargs))
        if self.wait_answer is not None:
            raise self.wait_answer
        return {"StatusCode": 0}


def test_a_removal_in_progress_is_waited_for_until_the_container_is_gone() -> None:
    engine = _Removing()
    _remove(engine, "c" * 64)
    assert engine.calls == [
        ("remove", {"force": True}),
        ("wait", {"timeout": REMOVAL_WAIT_S, "condition": "removed"}),
    ]


@pytest.mark.parametrize(
    "answer", [docker_errors.NotFound("gone"), requests_timeout()], ids=["gone", "timeout"]
)
def test_a_removal_wait_that_fails_is_no_error(answer: Exception) -> None:
    engine = _Removing(answer)
    _remove(engine, "c" * 64)  # returns: the engine finishes the removal on its own
    assert [name for name, _ in engine.calls] == ["remove", "wait"]
