"""Docker backend: warm, hardened php-cli containers, one worker each, driven through the SDK.

For a JavaScript Set the same containers run node's worker from the node image
(`program`: evaluator/sandbox/program.py), under the same limits but a pids
limit of node's own threads, set once node runs (`_tighten_pids`).

A cold `docker run` costs hundreds of milliseconds; a container that stays up
answers a formula over its attach socket in a fraction of one. So each worker is
one long-running container running the same worker.php as the local backend:
requests go in on its stdin, answers come back on its stderr, and the attach
stream's frame headers keep them apart from what PHP prints on stdout.

The attach socket is handed to asyncio streams: bytes are read only inside
the pool's `await receive(...)` while a batch is in flight, never by an idle
task (simcord must see none).
The blocking SDK is used only to create, start and remove containers, always
through `asyncio.to_thread`.

Containers are created with `stdin_once` and `auto_remove`: if this process
dies, the attach connection closes, the worker reads EOF and exits, and the
engine deletes the container. `cleanup()` catches whatever still slips through.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import struct
import time
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any

import docker  # type: ignore[import-untyped]
from docker import errors as docker_errors

from evaluator.sandbox import images
from evaluator.sandbox._docker_config import (
    OWNER_LABEL,
    RESPONSE_FD,
    SANDBOX_LABEL,
    container_config,
    is_orphan,
    owner_token,
    worker_command,
)
from evaluator.sandbox.base import WorkerDied
from evaluator.sandbox.program import PHP, WorkerProgram
from evaluator.sandbox.protocol import MAX_RESPONSE_BYTES

if TYPE_CHECKING:
    from evaluator.settings import EvaluatorSettings

log = logging.getLogger(__name__)

_HEADER = struct.Struct(">BxxxL")
_STDOUT, _STDERR = 1, 2
_RESPONSE_STREAM = {1: _STDOUT, 2: _STDERR}[RESPONSE_FD]
_MAX_FRAME = 1 << 20
_OTHER_TAIL = 2000


class DockerUnavailable(RuntimeError):
    """No engine, no image, or a transport the attach socket cannot use."""


def _client(timeout: int = 30, pool_size: int = 10) -> Any:
    try:
        return docker.from_env(timeout=timeout, max_pool_size=pool_size)
    except docker_errors.DockerException as exc:
        raise DockerUnavailable(f"no Docker engine reachable: {exc}") from exc


def _attachable(base_url: str) -> bool:
    """asyncio can only take over a plain socket: a unix socket or unencrypted tcp."""
    return base_url.startswith(("http+docker://localhost", "http+docker://localunix", "http://"))


def docker_available(settings: EvaluatorSettings, program: WorkerProgram = PHP) -> tuple[bool, str]:
    """Can the Docker backend run `program` here? (answer, the reason a human can act on)."""
    tag = program.image(settings)
    try:
        client = _client(timeout=5)
    except DockerUnavailable as exc:
        return False, str(exc)
    try:
        try:
            version = client.version().get("Version", "?")
        except docker_errors.DockerException as exc:
            return False, f"no Docker engine reachable: {exc}"
        if not _attachable(client.api.base_url):
            return False, (
                f"the engine at {client.api.base_url} is not a unix socket: the attach stream "
                "needs DOCKER_HOST=unix://... (mount /var/run/docker.sock)"
            )
        try:
            image = client.images.get(tag)
        except docker_errors.ImageNotFound:
            return False, (
                f"Docker {version} is up but the image {tag} is missing: "
                f"run `formula-darts sandbox {program.build_command}`"
            )
        except docker_errors.DockerException as exc:
            return False, f"cannot inspect {tag}: {exc}"
        return _image_verdict(tag, image.labels or {}, version, program.source)
    finally:
        client.close()


def _image_verdict(
    tag: str, labels: dict[str, str], version: str, source: Path = images.WORKER_SOURCE
) -> tuple[bool, str]:
    built_for = labels.get(images.WORKER_SHA_LABEL, "")
    php = labels.get(images.PHP_VERSION_LABEL, "")
    about = f"Docker {version}, image {tag}" + (f" (PHP {php})" if php else "")
    if not built_for or built_for == "unknown":
        return True, f"{about}; the image does not say which worker it carries"
    if source.exists() and built_for != images.worker_sha256(source):
        return False, (
            f"{about} carries an older {source.name}: run `formula-darts sandbox build` again"
        )
    return True, about


def _tighten_pids(api: Any, container_id: str, pids: int) -> None:
    """Lower a started container's pids limit to its worker's own (node's threads).

    Under node's 4 from the start, runc's init (Go) now and then could not start a thread
    while it waited to become node ("runtime/cgo: pthread_create failed"; the engine then
    fails the start: "cannot start a stopped process"): 1 in 1,000 starts beside two CPU
    burners, none in 1,500 under 16. The SDK's `update_container` has no pids limit; the
    engine's update endpoint does (API 1.40+)."""
    response = api.post(
        api._url("/containers/{0}/update", container_id),
        json={"PidsLimit": pids},
    )
    api._raise_for_status(response)


REMOVAL_WAIT_S = 30
"""How long `_remove` waits for a removal the engine already has in progress."""


def _remove(api: Any, container_id: str) -> None:
    """Kill and delete. A container the engine is already removing (auto_remove after the
    worker exited: 409) is waited for until it is gone: returning at once left it listed,
    and a loaded run's `test_close_leaves_no_container` found it after the pool's close."""
    try:
        api.remove_container(container_id, force=True)
    except docker_errors.NotFound:
        pass
    except docker_errors.APIError as exc:
        if exc.status_code != 409:
            raise
        try:
            api.wait(container_id, timeout=REMOVAL_WAIT_S, condition="removed")
        except docker_errors.NotFound:
            pass  # gone before the wait began
        except OSError as late:  # requests' ReadTimeout, a dropped connection
            log.warning("%s is still being removed: %s", container_id[:12], late)


def _own_socket(raw: Any) -> socket.socket:
    """Take the hijacked attach connection away from the SDK as a socket we own."""
    inner = getattr(raw, "_sock", raw)
    if not isinstance(inner, socket.socket):
        raise DockerUnavailable("the attach stream is not a plain socket (use a unix DOCKER_HOST)")
    sock = socket.socket(fileno=os.dup(inner.fileno()))
    with contextlib.suppress(OSError):
        raw.close()
        inner.close()
    return sock


class DockerWorker:
    """One container; one batch at a time, as the pool guarantees."""

    def __init__(
        self,
        factory: DockerWorkerFactory,
        container_id: str,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
    ) -> None:
        self.container_id = container_id
        self._factory = factory
        self._reader = reader
        self._writer = writer
        self._response = bytearray()
        self._other = b""
        self._dead = False
        self._removed = False

    def __repr__(self) -> str:
        return f"<DockerWorker {self.container_id[:12]} alive={self.alive}>"

    @property
    def alive(self) -> bool:
        return not (self._dead or self._reader.at_eof() or self._writer.is_closing())

    async def send(self, data: bytes) -> None:
        if not self.alive:
            raise self._died("is not running")
        try:
            self._writer.write(data)
            await self._writer.drain()
        except (ConnectionError, OSError) as exc:
            self._dead = True
            raise self._died("took no request") from exc

    async def receive(self, deadline: float) -> bytes:
        try:
            async with asyncio.timeout_at(deadline):
                return await self._read_line()
        except TimeoutError:
            self._dead = True
            raise
        except (asyncio.IncompleteReadError, ConnectionError, OSError) as exc:
            self._dead = True
            raise self._died("stopped mid-request") from exc

    def ready_line(self) -> bytes | None:
        """None: a line is cut from the attach stream only inside `receive`."""
        return None

    def settle(self) -> None:
        """Nothing to stop: bytes are read only inside `receive`."""

    async def request(self, line: bytes, timeout: float) -> bytes:
        """One request, one answer (tools and tests; the pool sends batches)."""
        await self.send(line)
        return await self.receive(asyncio.get_running_loop().time() + timeout)

    async def _read_line(self) -> bytes:
        """Demultiplex the attach stream (8-byte frame headers) up to one response line."""
        while True:
            end = self._response.find(b"\n")
            if end >= 0:
                line = bytes(self._response[:end])
                del self._response[: end + 1]
                return line
            if len(self._response) > MAX_RESPONSE_BYTES:
                self._dead = True
                raise self._died(f"sent over {MAX_RESPONSE_BYTES} bytes")
            kind, size = _HEADER.unpack(await self._reader.readexactly(_HEADER.size))
            if size > _MAX_FRAME or kind not in (_STDOUT, _STDERR):
                self._dead = True
                raise self._died("sent a malformed attach frame")
            payload = await self._reader.readexactly(size)
            if kind == _RESPONSE_STREAM:
                self._response += payload
            else:
                self._other = (self._other + payload)[-_OTHER_TAIL:]

    def _died(self, what: str) -> WorkerDied:
        """WorkerDied with the tail of the container's stdout: PHP's fatal error, if any."""
        message = f"sandbox container {self.container_id[:12]} {what}"
        tail = self._other.decode(errors="replace").strip()
        return WorkerDied(f"{message}: {tail[-300:]}" if tail else message, tail)

    async def kill(self) -> None:
        self._dead = True
        self._writer.close()
        if self._removed:
            return
        self._removed = True
        try:
            await asyncio.to_thread(_remove, self._factory.api(), self.container_id)
        except docker_errors.DockerException as exc:
            log.warning("could not remove %s: %s", self.container_id[:12], exc)


class DockerWorkerFactory:
    """Starts hardened worker containers and removes the ones nobody owns any more."""

    name = "docker"

    def __init__(
        self,
        settings: EvaluatorSettings,
        *,
        command: list[str] | None = None,
        program: WorkerProgram = PHP,
    ) -> None:
        self.settings = settings
        self.program = program
        self.token = owner_token()
        self.command = command if command is not None else worker_command(settings, program)
        self._api: Any = None
        self._swept: asyncio.Future[None] | None = None

    def api(self) -> Any:
        if self._api is None:
            self._api = _client(pool_size=max(10, self.settings.pool_size * 2)).api
        return self._api

    def config(self, command: list[str] | None = None) -> dict[str, Any]:
        """The `create_container` arguments: every hardening option in one place.

        The container starts under the settings' pids limit even for a program with a
        tighter one (node): runc sets the limit while its own init (Go, several threads)
        still waits to become the worker, and a thread that init starts then fails under
        a limit it already exceeds. `_start` tightens it once the worker runs, before any
        formula is sent."""
        api = self.api()
        config = container_config(
            self.settings,
            command or self.command,
            self.token,
            image=self.program.image(self.settings),
        )
        host = config.pop("host_config")
        return {**config, "host_config": api.create_host_config(**host)}

    async def spawn(self) -> DockerWorker:
        await self._sweep_once()
        return await self.spawn_with(self.command)

    async def _sweep_once(self) -> None:
        """Before the first container, remove what an earlier crashed run left behind."""
        if self._swept is None:
            self._swept = asyncio.ensure_future(self.cleanup())
        try:
            await asyncio.shield(self._swept)
        except docker_errors.DockerException as exc:
            log.warning("could not remove leftover sandbox containers: %s", exc)

    async def spawn_with(self, command: list[str]) -> DockerWorker:
        """A container under exactly the pool's limits running `command` (tests, `info`).

        A start the engine itself fails (a 5xx: a loaded run got "cannot start a stopped
        process") is tried once more with a new container; `_start` removed the first."""
        try:
            container_id, sock = await asyncio.to_thread(self._start, command)
        except docker_errors.APIError as exc:
            if not exc.is_server_error():
                raise
            log.warning("the engine failed a sandbox container (%s); one more, new", exc)
            container_id, sock = await asyncio.to_thread(self._start, command)
        try:
            reader, writer = await asyncio.open_connection(sock=sock)
        except BaseException:
            sock.close()
            await asyncio.to_thread(_remove, self.api(), container_id)
            raise
        return DockerWorker(self, container_id, reader, writer)

    def _start(self, command: list[str]) -> tuple[str, socket.socket]:
        """Create, attach, then start, so not a byte of the worker's output is missed."""
        api = self.api()
        try:
            container_id: str = api.create_container(
                name=f"formula-darts-sandbox-{uuid.uuid4().hex[:12]}", **self.config(command)
            )["Id"]
        except docker_errors.ImageNotFound as exc:
            raise DockerUnavailable(
                f"image {self.program.image(self.settings)} is missing: "
                "run `formula-darts sandbox build`"
            ) from exc
        try:
            raw = api.attach_socket(
                container_id, params={"stdin": 1, "stdout": 1, "stderr": 1, "stream": 1}
            )
            sock = _own_socket(raw)
            try:
                api.start(container_id)
                if self.program.docker_pids is not None:
                    _tighten_pids(api, container_id, self.program.docker_pids)
            except BaseException:
                sock.close()
                raise
        except BaseException:
            _remove(api, container_id)
            raise
        return container_id, sock

    async def cleanup(self) -> None:
        """Remove this factory's containers and those whose owning process is gone."""
        await asyncio.to_thread(self._cleanup)

    def _cleanup(self) -> None:
        api = self.api()
        now = time.time()
        for found in api.containers(all=True, filters={"label": SANDBOX_LABEL}):
            owner = (found.get("Labels") or {}).get(OWNER_LABEL, "")
            if owner == self.token or is_orphan(
                owner, found.get("State", ""), now - found["Created"]
            ):
                log.info("removing sandbox container %s (owner %r)", found["Id"][:12], owner)
                _remove(api, found["Id"])

    def close(self) -> None:
        """Release the SDK's connection pool (the pool calls kill() on each worker first)."""
        if self._api is not None:
            self._api.close()
            self._api = None
