"""The line protocol between the pool and `evaluator/worker.php`, and PHP's flags.

Shared by every backend: the worker script and the way php-cli is started are
the same whether the process lives under bubblewrap or in a container, so a
formula gets the same verdict everywhere. Requests and responses are one JSON
object per line; floats travel as JSON numbers printed by PHP with
`serialize_precision=-1` (shortest text that reads back to the same double).
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from evaluator.result import ErrorCode, EvalError, Evaluation, Verdict

WORKER_SCRIPT: Final = Path(__file__).resolve().parent.parent / "worker.php"

SANDBOX_TMP: Final = "/tmp"  # noqa: S108 - inside the sandbox: a private, small tmpfs
MAX_REQUEST_BYTES: Final = 64 * 1024
MAX_RESPONSE_BYTES: Final = 64 * 1024

# Defence in depth: the checker already keeps every name but the Set's
# functions away from PHP; these stay unusable even for raw (test) code.
_PCNTL: Final = [
    "pcntl_alarm",
    "pcntl_async_signals",
    "pcntl_errno",
    "pcntl_exec",
    "pcntl_fork",
    "pcntl_get_last_error",
    "pcntl_getpriority",
    "pcntl_setpriority",
    "pcntl_signal",
    "pcntl_signal_dispatch",
    "pcntl_signal_get_handler",
    "pcntl_sigprocmask",
    "pcntl_sigtimedwait",
    "pcntl_sigwaitinfo",
    "pcntl_strerror",
    "pcntl_unshare",
    "pcntl_wait",
    "pcntl_waitpid",
    "pcntl_wexitstatus",
    "pcntl_wifcontinued",
    "pcntl_wifexited",
    "pcntl_wifsignaled",
    "pcntl_wifstopped",
    "pcntl_wstopsig",
    "pcntl_wtermsig",
]
DISABLED_FUNCTIONS: Final = (
    *[
        "exec",
        "shell_exec",
        "system",
        "passthru",
        "proc_open",
        "proc_close",
        "proc_get_status",
        "proc_nice",
        "proc_terminate",
        "popen",
        "pclose",
        "fsockopen",
        "pfsockopen",
        "stream_socket_client",
        "stream_socket_server",
        "stream_socket_pair",
        "stream_context_create",
        "socket_create",
        "socket_connect",
        "socket_bind",
        "socket_listen",
        "curl_init",
        "curl_exec",
        "curl_multi_exec",
        "file_put_contents",
        "fopen",
        "fwrite",
        "fputs",
        "tmpfile",
        "tempnam",
        "file_get_contents",
        "file",
        "readfile",
        "copy",
        "rename",
        "unlink",
        "mkdir",
        "rmdir",
        "touch",
        "chmod",
        "chown",
        "chgrp",
        "symlink",
        "link",
        "mail",
        "putenv",
        "getenv",
        "dl",
        "ini_set",
        "ini_alter",
        "ini_restore",
        "set_time_limit",
        "ignore_user_abort",
        "phpinfo",
        "highlight_file",
        "show_source",
        "posix_kill",
        "posix_setuid",
        "posix_mkfifo",
        "opcache_get_status",
        "error_log",
    ],
    *_PCNTL,
)


def php_ini_args(
    memory_limit_mb: int,
    cpu_budget_s: int,
    open_basedir: str = SANDBOX_TMP,
    disabled_functions: tuple[str, ...] | list[str] = DISABLED_FUNCTIONS,
) -> list[str]:
    """`php -n` plus the only settings the worker runs with (no php.ini is read).

    `max_execution_time` counts this process's CPU time since start, so for a
    warm worker it is a lifetime budget; the pool retires workers long before
    they reach it, and the per-request limit is the pool's own timeout.
    """
    settings = {
        "display_errors": "0",
        "display_startup_errors": "0",
        "log_errors": "0",
        "html_errors": "0",
        "error_reporting": "-1",
        "serialize_precision": "-1",
        "precision": "14",
        "memory_limit": f"{memory_limit_mb}M",
        "max_execution_time": str(cpu_budget_s),
        "open_basedir": open_basedir,
        "allow_url_fopen": "0",
        "allow_url_include": "0",
        "output_buffering": "0",
        "implicit_flush": "0",
        "zend.assertions": "-1",
        "disable_functions": ",".join(disabled_functions),
        "disable_classes": "",
    }
    args = ["-n"]
    for key, value in settings.items():
        args += ["-d", f"{key}={value}"]
    return args


class ProtocolError(Exception):
    """The worker answered something that is not a response: discard it."""


@dataclass(frozen=True, slots=True)
class Request:
    """One request line and the nonce its response must echo.

    The nonce is fresh per request and never visible to the evaluated code, so
    a line that code manages to write into the answer channel cannot pass for
    the worker's answer: the pool sees the mismatch and discards the worker
    instead of drifting one answer behind for every later caller.
    """

    line: bytes
    nonce: str


def encode_request(code: str, *, raw: bool = False) -> Request:
    """One request line. JSON escapes newlines, so any code fits on one line."""
    nonce = secrets.token_hex(8)
    text = json.dumps({"m": "r" if raw else "e", "c": code, "i": nonce}, ensure_ascii=False)
    data = (text + "\n").encode("utf-8", "surrogatepass")
    if len(data) > MAX_REQUEST_BYTES:
        raise ValueError(f"request of {len(data)} bytes exceeds {MAX_REQUEST_BYTES}")
    return Request(data, nonce)


_CODES: Final = {
    "syntax": ErrorCode.SYNTAX,
    "php": ErrorCode.PHP,
    "not_finite": ErrorCode.NOT_FINITE,
    "timeout": ErrorCode.TIMEOUT,
    "sandbox": ErrorCode.SANDBOX,
}


def decode_response(line: bytes, formula: str, nonce: str) -> tuple[Verdict, bool]:
    """Parse one response line into a verdict and whether the worker is exiting.

    Raises ProtocolError on anything malformed: the pool then kills the worker,
    because a channel that carried garbage once cannot be trusted again.
    """
    try:
        data = json.loads(line)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ProtocolError(f"unreadable response: {line[:80]!r}") from exc
    if not isinstance(data, dict):
        raise ProtocolError(f"response is not an object: {line[:80]!r}")
    if data.get("i") != nonce:
        raise ProtocolError(f"response does not answer this request: {line[:80]!r}")
    bye = data.get("bye") is True
    if data.get("ok") is True:
        kind, value = data.get("t"), data.get("v")
        if kind == "int" and type(value) is int:
            return Evaluation(formula, value), bye
        if kind == "float" and isinstance(value, int | float) and not isinstance(value, bool):
            return Evaluation(formula, float(value)), bye
        raise ProtocolError(f"bad value in response: {line[:80]!r}")
    code = _CODES.get(str(data.get("e")))
    message, php_class = data.get("m"), data.get("c")
    if code is None or not isinstance(message, str):
        raise ProtocolError(f"bad error in response: {line[:80]!r}")
    return EvalError(
        code, message, php_class=php_class if isinstance(php_class, str) else None
    ), bye
