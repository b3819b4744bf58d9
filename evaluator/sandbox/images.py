"""Building the sandbox image: the production Dockerfile, or the host's php packed from scratch.

Production builds `evaluator/docker/Dockerfile` on an official php-cli image. A
machine that can pull nothing (this one, CI) still needs the Docker backend
tested for real, so the from-host build copies the host's php binary, exactly
the shared libraries `ldd` says it links, and the worker into an image `FROM
scratch`: no shell, no package manager, nothing a formula could use.

Every image gets the sha256 of the worker it carries as a label, so a worker
edited after the build is detected instead of silently answering with old code.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import tarfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import docker  # type: ignore[import-untyped]
from docker import errors as docker_errors

WORKER_SOURCE = Path(__file__).resolve().parent.parent / "worker.php"
DOCKERFILE = Path(__file__).resolve().parent.parent / "docker" / "Dockerfile"
WORKER_IN_IMAGE = "/sandbox/worker.php"

IMAGE_LABEL = "formula-darts.sandbox-image"
SOURCE_LABEL = "formula-darts.source"
WORKER_SHA_LABEL = "formula-darts.worker-sha256"
PHP_VERSION_LABEL = "formula-darts.php-version"

_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
# Debian's php reads time zones from the system database; without it every start warns.
_ZONEINFO = ("/usr/share/zoneinfo/UTC", "/usr/share/zoneinfo/Etc/UTC")
_PASSWD = b"nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n"
_GROUP = b"nogroup:x:65534:\n"
_LDD_PATH = re.compile(r"(/\S+)\s+\(0x")


class ImageBuildError(RuntimeError):
    """The sandbox image could not be built; the message says what to do."""


@dataclass(frozen=True, slots=True)
class BuiltImage:
    tag: str
    image_id: str
    source: str  # "dockerfile" or "from-host"
    php_version: str


def worker_sha256(path: Path = WORKER_SOURCE) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def production_base_image(dockerfile: Path = DOCKERFILE) -> str:
    """The pinned `PHP_IMAGE` default of the production Dockerfile."""
    try:
        text = dockerfile.read_text()
    except OSError as exc:
        raise ImageBuildError(f"no production Dockerfile here ({exc}): use --from-host") from exc
    match = re.search(r"^ARG\s+PHP_IMAGE=(\S+)", text, re.M)
    if match is None:
        raise ImageBuildError(f"{dockerfile} has no `ARG PHP_IMAGE=...` line")
    return match.group(1)


def host_php_files(php: str | None = None) -> dict[str, str]:
    """Map of path-in-image → host file for php and every library it links."""
    binary = php or shutil.which("php")
    if binary is None:
        raise ImageBuildError("no php on this host: install php-cli (apt-get install php-cli)")
    return host_files(binary, "/usr/bin/php")


def host_files(binary: str, target: str) -> dict[str, str]:
    """Map of path-in-image → host file for `binary` (at `target`) and every library it links."""
    real = os.path.realpath(binary)
    out = subprocess.run(["ldd", real], capture_output=True, text=True, check=False)
    if out.returncode != 0:
        raise ImageBuildError(f"ldd {real} failed: {out.stderr.strip() or out.stdout.strip()}")
    files = {target: real}
    for line in out.stdout.splitlines():
        if "not found" in line:
            raise ImageBuildError(f"{binary} links a missing library: {line.strip()}")
        match = _LDD_PATH.search(line)
        if match:
            files[match.group(1)] = os.path.realpath(match.group(1))
    for zone in _ZONEINFO:
        if os.path.exists(zone):
            files[zone] = os.path.realpath(zone)
    return files


def _add_bytes(tar: tarfile.TarFile, name: str, data: bytes, mode: int = 0o644) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mode = mode
    tar.addfile(info, io.BytesIO(data))


def _add_dirs(tar: tarfile.TarFile, paths: list[str]) -> None:
    dirs: set[str] = set()
    for path in paths:
        parent = Path(path).parent
        while str(parent) != "/":
            dirs.add(str(parent))
            parent = parent.parent
    for directory in sorted(dirs):
        info = tarfile.TarInfo("rootfs" + directory)
        info.type = tarfile.DIRTYPE
        info.mode = 0o755
        tar.addfile(info)


def from_host_context(
    worker: Path = WORKER_SOURCE,
    php: str | None = None,
    *,
    files: dict[str, str] | None = None,
    worker_in_image: str = WORKER_IN_IMAGE,
    cmd: tuple[str, ...] = ("php", "-n", WORKER_IN_IMAGE),
) -> io.BytesIO:
    """A build context tarball: rootfs/ with php (or `files`: another runtime), its
    libraries, the worker; a Dockerfile."""
    files = files if files is not None else host_php_files(php)
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        _add_dirs(tar, [*files, "/etc/passwd", worker_in_image])
        for target, source in sorted(files.items()):
            with open(source, "rb") as handle:
                _add_bytes(tar, "rootfs" + target, handle.read(), 0o755)
        _add_bytes(tar, "rootfs/etc/passwd", _PASSWD)
        _add_bytes(tar, "rootfs/etc/group", _GROUP)
        _add_bytes(tar, "rootfs" + worker_in_image, worker.read_bytes(), 0o444)
        tmp = tarfile.TarInfo("rootfs/tmp")
        tmp.type = tarfile.DIRTYPE
        tmp.mode = 0o1777
        tar.addfile(tmp)
        dockerfile = (
            "FROM scratch\n"
            "COPY rootfs/ /\n"
            f"ENV PATH={_PATH}\n"
            "USER 65534:65534\n"
            "WORKDIR /tmp\n"
            f"CMD {json.dumps(list(cmd))}\n"
        )
        _add_bytes(tar, "Dockerfile", dockerfile.encode())
    buf.seek(0)
    return buf


def dockerfile_context(worker: Path = WORKER_SOURCE, dockerfile: Path = DOCKERFILE) -> io.BytesIO:
    """The production build context: the same layout docker-compose uses (evaluator/)."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        _add_bytes(tar, "docker/Dockerfile", dockerfile.read_bytes())
        _add_bytes(tar, "worker.php", worker.read_bytes(), 0o444)
    buf.seek(0)
    return buf


def host_php_version(php: str | None = None) -> str:
    binary = php or shutil.which("php") or "php"
    out = subprocess.run(
        [binary, "-n", "-r", "echo PHP_VERSION;"], capture_output=True, text=True, check=False
    )
    return out.stdout.strip() or "unknown"


def base_image_present(client: Any, base: str) -> bool:
    try:
        client.images.get(base)
    except docker_errors.ImageNotFound:
        return False
    return True


def _build(
    client: Any,
    context: io.BytesIO,
    tag: str,
    labels: dict[str, str],
    *,
    dockerfile: str = "Dockerfile",
    buildargs: dict[str, str] | None = None,
) -> Any:
    """Build a local context (never pulling); every engine failure is one ImageBuildError
    with the end of the build's log."""
    try:
        image, _ = client.images.build(
            fileobj=context,
            custom_context=True,
            dockerfile=dockerfile,
            tag=tag,
            labels=labels,
            buildargs=buildargs or {},
            pull=False,
            rm=True,
            forcerm=True,
        )
    except docker_errors.BuildError as exc:
        log = "".join(str(chunk.get("stream", chunk)) for chunk in exc.build_log)
        raise ImageBuildError(f"building {tag} failed: {exc.msg}\n{log[-2000:]}") from exc
    except docker_errors.APIError as exc:
        raise ImageBuildError(f"building {tag} failed: {exc.explanation or exc}") from exc
    return image


def build_image(
    tag: str,
    *,
    from_host: bool | None = None,
    client: Any = None,
    worker: Path = WORKER_SOURCE,
    base: str | None = None,
) -> BuiltImage:
    """Build the sandbox image as `tag`.

    `from_host=None` picks the production Dockerfile when its pinned base image is
    already in the engine (nothing is pulled), else the from-host build. `base`
    overrides the Dockerfile's PHP_IMAGE (tests build on a local image).
    """
    if not worker.exists():
        raise ImageBuildError(f"the worker {worker} does not exist")
    own_client = client is None
    client = client or docker.from_env(timeout=300)
    try:
        if from_host is None:
            try:
                from_host = not base_image_present(client, production_base_image())
            except ImageBuildError:
                from_host = True
        sha = worker_sha256(worker)
        labels = {IMAGE_LABEL: "1", WORKER_SHA_LABEL: sha}
        if from_host:
            labels |= {SOURCE_LABEL: "from-host", PHP_VERSION_LABEL: host_php_version()}
            context, dockerfile, buildargs = from_host_context(worker), "Dockerfile", {}
        else:
            labels[SOURCE_LABEL] = "dockerfile"
            context, dockerfile = dockerfile_context(worker), "docker/Dockerfile"
            buildargs = {"WORKER_SHA256": sha} | ({"PHP_IMAGE": base} if base else {})
        image = _build(client, context, tag, labels, dockerfile=dockerfile, buildargs=buildargs)
        version = image.labels.get(PHP_VERSION_LABEL) or image_php_version(client, tag)
        return BuiltImage(tag, image.id, "from-host" if from_host else "dockerfile", version)
    finally:
        if own_client:
            client.close()


def image_php_version(client: Any, tag: str) -> str:
    """Run `php` once in the image, without network, to read its version."""
    out = client.containers.run(
        tag,
        ["php", "-n", "-r", "echo PHP_VERSION;"],
        remove=True,
        network_mode="none",
        read_only=True,
        cap_drop=["ALL"],
        security_opt=["no-new-privileges"],
        user="65534:65534",
        stdout=True,
        stderr=False,
    )
    return bytes(out).decode(errors="replace").strip() or "unknown"


def ensure_image(
    tag: str, *, from_host: bool | None = None, client: Any = None
) -> BuiltImage | None:
    """Build `tag` (choosing the source as `build_image` does) unless it carries this worker.

    Returns the new image, or None when the existing one is current. Tests and CI
    call it so the Docker backend is always exercised with the worker in the tree.
    """
    own_client = client is None
    client = client or docker.from_env(timeout=300)
    try:
        if _carries(client, tag, WORKER_SOURCE):
            return None
        return build_image(tag, from_host=from_host, client=client)
    finally:
        if own_client:
            client.close()


def _carries(client: Any, tag: str, worker: Path) -> bool:
    """`tag` exists and was built with this `worker` (its sha256 label)."""
    try:
        labels = client.images.get(tag).labels or {}
    except docker_errors.ImageNotFound:
        return False
    return bool(labels.get(WORKER_SHA_LABEL) == worker_sha256(worker))


NODE_WORKER_SOURCE = WORKER_SOURCE.parent / "worker.js"
NODE_WORKER_IN_IMAGE = "/sandbox/worker.js"
NODE_VERSION_LABEL = "formula-darts.node-version"


def host_node_version(node: str | None = None) -> str:
    binary = node or shutil.which("node") or "node"
    out = subprocess.run([binary, "--version"], capture_output=True, text=True, check=False)
    return out.stdout.strip() or "unknown"


def build_node_image(tag: str, *, client: Any = None, node: str | None = None) -> BuiltImage:
    """The JavaScript sandbox image: this host's node (its own `nodejs` package) and
    the libraries it links, with worker.js, FROM scratch. Nothing is pulled."""
    binary = node or shutil.which("node")
    if binary is None:
        raise ImageBuildError("no node on this host: install nodejs (apt-get install nodejs)")
    if not NODE_WORKER_SOURCE.exists():
        raise ImageBuildError(f"the worker {NODE_WORKER_SOURCE} does not exist")
    own_client = client is None
    client = client or docker.from_env(timeout=300)
    version = host_node_version(binary)
    labels = {
        IMAGE_LABEL: "1",
        WORKER_SHA_LABEL: worker_sha256(NODE_WORKER_SOURCE),
        SOURCE_LABEL: "from-host",
        NODE_VERSION_LABEL: version,
    }
    context = from_host_context(
        NODE_WORKER_SOURCE,
        files=host_files(binary, "/usr/bin/node"),
        worker_in_image=NODE_WORKER_IN_IMAGE,
        cmd=("node", NODE_WORKER_IN_IMAGE),
    )
    try:
        image = _build(client, context, tag, labels)
    finally:
        if own_client:
            client.close()
    return BuiltImage(tag, image.id, "from-host", version)


def ensure_node_image(tag: str, *, client: Any = None) -> BuiltImage | None:
    """Build the node image unless `tag` already carries this worker.js (as `ensure_image`)."""
    own_client = client is None
    client = client or docker.from_env(timeout=300)
    try:
        if _carries(client, tag, NODE_WORKER_SOURCE):
            return None
        return build_node_image(tag, client=client)
    finally:
        if own_client:
            client.close()
