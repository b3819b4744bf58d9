"""What a sandbox container may do, and whose it is: pure functions, no engine needed.

All hardening lives in `container_config` so the pool, the cold baseline of the
benchmark and the tests create containers with exactly the same limits.
"""

from __future__ import annotations

import os
import socket
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evaluator.sandbox.program import PHP, WorkerProgram
from evaluator.sandbox.protocol import RESPONSE_FD

if TYPE_CHECKING:
    from evaluator.settings import EvaluatorSettings

SANDBOX_LABEL = "formula-darts.sandbox"
OWNER_LABEL = "formula-darts.owner"
SANDBOX_USER = "65534:65534"
TMP = "/tmp"  # noqa: S108 - the container's own small tmpfs, the only writable path
TMPFS_SIZE = "1m"

# The worker answers on stderr (fd 2, protocol.RESPONSE_FD): stdout only carries
# what PHP itself prints, and the two never mix on the wire because the attach
# stream tags each frame with its source.
__all__ = ["RESPONSE_FD", "container_config", "is_orphan", "owner_token", "worker_command"]


def worker_command(settings: EvaluatorSettings, program: WorkerProgram = PHP) -> list[str]:
    """The same runtime flags as the local backend, pointed at the worker inside the image."""
    return program.argv(program.image_binary, program.in_sandbox, program.limits(settings))


def container_config(
    settings: EvaluatorSettings,
    command: list[str],
    owner: str,
    image: str | None = None,
) -> dict[str, Any]:
    """`create_container` arguments; `host_config` holds `create_host_config` keywords.

    nproc counts every process of the uid on the host, across containers, so it is
    a loose backstop; the per-container fork limit is pids_limit.
    """
    memory = f"{settings.docker_memory_mb}m"
    return {
        "image": image or settings.docker_image,
        "command": command,
        "user": SANDBOX_USER,
        "working_dir": TMP,
        "hostname": "sandbox",
        "environment": {"LC_ALL": "C"},
        # Not detached + stdin_open makes the SDK set StdinOnce: when our attach
        # connection closes (this process died), the worker reads EOF and exits.
        "detach": False,
        "stdin_open": True,
        "tty": False,
        "network_disabled": True,
        "labels": {SANDBOX_LABEL: "1", OWNER_LABEL: owner},
        "host_config": {
            "network_mode": "none",
            "read_only": True,
            "cap_drop": ["ALL"],
            "security_opt": ["no-new-privileges"],
            "ipc_mode": "none",
            "mem_limit": memory,
            "memswap_limit": memory,
            "pids_limit": settings.docker_pids,
            "nano_cpus": int(settings.docker_cpus * 1_000_000_000),
            "ulimits": [
                {"Name": "nofile", "Soft": 64, "Hard": 64},
                {"Name": "nproc", "Soft": 256, "Hard": 256},
                {"Name": "fsize", "Soft": 1 << 20, "Hard": 1 << 20},
                {"Name": "core", "Soft": 0, "Hard": 0},
            ],
            "tmpfs": {TMP: f"rw,noexec,nosuid,nodev,size={TMPFS_SIZE}"},
            "log_config": {"type": "none", "config": {}},
            "oom_score_adj": 1000,
            "auto_remove": True,
        },
    }


def _start_time(pid: int) -> str:
    """The kernel's start tick of `pid`: tells a live owner from a reused pid."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return ""
    return stat.rsplit(")", 1)[-1].split()[19]


def owner_token() -> str:
    """host:pid:start:nonce — unique per factory, and checkable from the same host."""
    pid = os.getpid()
    return f"{socket.gethostname()}:{pid}:{_start_time(pid)}:{uuid.uuid4().hex[:8]}"


def owner_is_gone(owner: str) -> bool | None:
    """Is the process that `owner` names gone? None when it lives on another host."""
    parts = owner.split(":")
    if len(parts) != 4 or not parts[1].isdigit():
        return True
    host, pid, start, _ = parts
    if host != socket.gethostname():
        return None
    return _start_time(int(pid)) != start


def is_orphan(owner: str, state: str, age_s: float) -> bool:
    """Should a labelled container be removed by a factory that does not own it?

    A live owner's container is kept in every state (a "created" one is being
    started right now). Another host's owner cannot be checked: its container is
    removed once stopped, or when it has sat unstarted for a minute.
    """
    gone = owner_is_gone(owner)
    if gone is None:
        return state in ("exited", "dead") or (state == "created" and age_s > 60)
    return gone
