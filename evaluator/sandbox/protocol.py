"""The line protocol between the pool and `evaluator/worker.php`, and PHP's flags.

Shared by every backend: the worker script and the way php-cli is started are
the same whether the process lives under bubblewrap or in a container, so a
formula gets the same verdict everywhere. Requests and responses are one JSON
object per line; floats travel as JSON numbers printed by PHP with
`serialize_precision=-1` (shortest text that reads back to the same double).

Channels: requests on the worker's stdin, answers on its stderr, and
everything PHP prints by itself (echo, fatal errors) on stdout, which the pool
keeps only as a dead worker's last words. A batch is several request lines
written at once, the first saying how many ("n"); the worker reads them all
before it runs any, and the pool writes nothing more until every one is
answered (see `DEFENCES` for why). PHP's worker writes a batch's answers
together at its end (or every millisecond of a long batch): one wake-up of the
pool per batch.
"""

from __future__ import annotations

import json
import re
import secrets
from dataclasses import dataclass
from json.encoder import encode_basestring_ascii
from pathlib import Path
from typing import Any, Final, NamedTuple

from evaluator.result import ErrorCode, EvalError, Evaluation, Verdict, evaluation

WORKER_SCRIPT: Final = Path(__file__).resolve().parent.parent / "worker.php"

SANDBOX_TMP: Final = "/tmp"  # noqa: S108 - inside the sandbox: a private, small tmpfs
MAX_REQUEST_BYTES: Final = 64 * 1024
MAX_RESPONSE_BYTES: Final = 64 * 1024
MAX_BATCH: Final = 256  # the worker's FD_MAX_BATCH
RESPONSE_FD: Final = 2  # answers on stderr; stdout carries PHP's own output


@dataclass(frozen=True, slots=True)
class Defence:
    """Something code that got past the checker could do to change what later
    requests see, and what stops it; `functions` are disabled in every worker."""

    threat: str
    defence: str
    functions: tuple[str, ...] = ()


DEFENCES: Final = (
    Defence(
        "A stream filter on the worker's stdin or stderr (stream_filter_append/prepend, or a "
        "php_user_filter registered with stream_filter_register) rewrites the requests or "
        "answers that pass after it, nonces intact: later players get forged results.",
        "No stream filter can be attached at all; the worker's channels stay unfiltered.",
        ("stream_filter_append", "stream_filter_prepend", "stream_filter_register",
         "stream_filter_remove"),
    ),
    Defence(
        "The worker's channels are STDIN and STDERR, reachable by evaluated code: "
        "stream_set_blocking(STDIN, false) (O_NONBLOCK is shared by every copy of the fd), "
        "a timeout, a buffer size or fclose breaks the next batch's reads or answers, which "
        "would then be blamed on an innocent request; wrappers and the default context "
        "would change how later streams open.",
        "Nothing that changes a stream's mode, buffers, wrapper or lifetime can be called.",
        ("stream_set_blocking", "socket_set_blocking", "stream_set_timeout",
         "socket_set_timeout", "stream_set_read_buffer", "stream_set_write_buffer",
         "set_file_buffer", "stream_set_chunk_size", "stream_socket_shutdown", "fclose",
         "stream_wrapper_register", "stream_register_wrapper", "stream_wrapper_unregister",
         "stream_wrapper_restore", "stream_context_set_default"),
    ),
    Defence(
        "define('pow', 1000) makes a later formula's `pow` mean 1000.",
        "define is off. A `const` statement inside eval can still declare a constant, but "
        "no formula can name one: the checker refuses a function name that is not called.",
        ("define",),
    ),
    Defence(
        "A handler runs later, inside another player's request: set_error_handler turns a "
        "later warning or deprecation (octdec(89)) into an exception; exception, tick, "
        "shutdown, output-buffer (ob_start), header, autoload, session and XML-entity "
        "callbacks run whenever PHP next calls them.",
        "No handler or callback can be installed. The worker needs none: PHP's own output "
        "goes to stdout (never the answer channel) instead of a discarding buffer, and a "
        "fatal error is reported by PHP on stdout instead of by a shutdown function.",
        ("set_error_handler", "restore_error_handler", "set_exception_handler",
         "restore_exception_handler", "register_tick_function", "unregister_tick_function",
         "register_shutdown_function", "ob_start", "ob_implicit_flush",
         "output_add_rewrite_var", "output_reset_rewrite_vars", "header_register_callback",
         "spl_autoload_register", "spl_autoload_unregister", "spl_autoload_extensions",
         "spl_autoload", "session_set_save_handler", "session_register_shutdown",
         "session_start", "libxml_set_external_entity_loader"),
    ),
    Defence(
        "Process-wide settings outlive the request that changes them: the locale, error "
        "reporting, ini values (precision would change how every later float is printed), "
        "the include path, the time zone, assertions, the cycle collector, random seeds.",
        "None of them can be changed.",
        ("setlocale", "error_reporting", "ini_set", "ini_alter", "ini_restore",
         "set_include_path", "assert_options", "date_default_timezone_set", "gc_disable",
         "gc_enable", "mt_srand", "srand", "putenv", "set_time_limit", "ignore_user_abort"),
    ),
    Defence(
        "Globals, objects with destructors, garbage cycles and memory left behind act "
        "later: a destructor run by the cycle collector inside another request could "
        "write into the answer channel; memory held back makes a later request fail.",
        "After each request and before its answer, the worker collects cycles and removes "
        "the globals it created (their destructors run in that request's own time); a "
        "worker then holding a quarter of memory_limit retires and is replaced.",
    ),
    Defence(
        "Evaluated code reads stdin (fgets(STDIN), stream_get_contents, "
        "new SplFileObject('php://stdin'), php://fd/0) to learn the requests queued "
        "behind it, nonces included, and answers them itself.",
        "A worker reads its whole batch before running any of it and the pool writes "
        "nothing while a batch is in flight, so stdin is empty whenever evaluated code "
        "runs: a read blocks until that request's timeout.",
    ),
    Defence(
        "debug_backtrace or an exception's trace reaches the request loop's locals.",
        "Requests, nonces and the batch's answers not yet written are locals of the loop, "
        "never arguments of a call made while evaluated code runs; a trace shows arguments "
        "only.",
    ),
    Defence(
        "Beyond the sandbox: processes, files, sockets and the environment.",
        "The OS sandbox contains them; these functions are off as well (pcntl is the only "
        "process extension php -n loads).",
        ("exec", "shell_exec", "system", "passthru", "proc_open", "proc_close",
         "proc_get_status", "proc_nice", "proc_terminate", "popen", "pclose", "fsockopen",
         "pfsockopen", "stream_socket_client", "stream_socket_server", "stream_socket_pair",
         "stream_context_create", "socket_create", "socket_connect", "socket_bind",
         "socket_listen", "curl_init", "curl_exec", "curl_multi_exec", "file_put_contents",
         "fopen", "fwrite", "fputs", "tmpfile", "tempnam", "file_get_contents", "file",
         "readfile", "copy", "rename", "unlink", "mkdir", "rmdir", "touch", "chmod", "chown",
         "chgrp", "symlink", "link", "mail", "getenv", "dl", "phpinfo", "highlight_file",
         "show_source", "posix_kill", "posix_setuid", "posix_mkfifo", "opcache_get_status",
         "error_log",
         "pcntl_alarm", "pcntl_async_signals", "pcntl_errno", "pcntl_exec", "pcntl_fork",
         "pcntl_get_last_error", "pcntl_getpriority", "pcntl_setpriority", "pcntl_signal",
         "pcntl_signal_dispatch", "pcntl_signal_get_handler", "pcntl_sigprocmask",
         "pcntl_sigtimedwait", "pcntl_sigwaitinfo", "pcntl_strerror", "pcntl_unshare",
         "pcntl_wait", "pcntl_waitpid", "pcntl_wexitstatus", "pcntl_wifcontinued",
         "pcntl_wifexited", "pcntl_wifsignaled", "pcntl_wifstopped", "pcntl_wstopsig",
         "pcntl_wtermsig"),
    ),
)  # fmt: skip
"""Each way a request could reach the next one, and the defence. Classes stay enabled:
PHP 8.2's disable_classes leaves an object that crashes the worker when used."""

DISABLED_FUNCTIONS: Final = tuple(f for d in DEFENCES for f in d.functions)

# Only fatal errors are reported (E_ERROR | E_CORE_ERROR | E_COMPILE_ERROR |
# E_USER_ERROR | E_PARSE | E_RECOVERABLE_ERROR): they are a dead worker's last
# words on stdout; a warning changes no result and would only cost time.
_FATAL_LEVELS: Final = 1 | 16 | 64 | 256 | 4 | 4096


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
        "display_errors": "1",
        "display_startup_errors": "0",
        "log_errors": "0",
        "html_errors": "0",
        "error_reporting": str(_FATAL_LEVELS),
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
    }
    args = ["-n"]
    for key, value in settings.items():
        args += ["-d", f"{key}={value}"]
    return args


_FATAL = re.compile(r"Fatal error: +(.*) in [^\n]*? on line \d+$", re.MULTILINE)


def fatal_verdict(last_words: str) -> EvalError | None:
    """PHP's own fatal error among a dead worker's last words, as the verdict it means."""
    found = _FATAL.findall(last_words)
    if not found:
        return None
    message = found[-1]
    if "Maximum execution time" in message:
        return EvalError(ErrorCode.TIMEOUT, message, error_class="FatalError")
    return EvalError(ErrorCode.PHP, message, error_class="FatalError")


class ProtocolError(Exception):
    """The worker answered something that is not a response: discard it."""


class Request(NamedTuple):
    """One request line and the nonce its response must echo.

    The nonce is fresh per request and never visible to the evaluated code, so
    a line that code manages to write into the answer channel cannot pass for
    the worker's answer: the pool sees the mismatch and discards the worker
    instead of drifting one answer behind for every later caller.
    """

    line: bytes
    nonce: str


_NONCES: list[str] = []
"""Fresh random nonces from the OS, fetched 256 at a time (one syscall, not one each)."""


def _fetch_nonces() -> str:
    block = secrets.token_hex(8 * 256)
    _NONCES.extend(block[k : k + 16] for k in range(0, len(block), 16))
    return _NONCES.pop()


def request_line(code: str, *, raw: bool = False) -> tuple[bytes, str]:
    """One request line and its nonce (see `Request`), as a plain tuple: the pool makes one
    per formula, and even a NamedTuple's `__new__` is a Python call (a third of the
    cost here). JSON escapes newlines (and everything not ASCII), so any code fits
    on one line; ValueError past MAX_REQUEST_BYTES."""
    try:
        nonce = _NONCES.pop()
    except IndexError:
        nonce = _fetch_nonces()
    mode = "r" if raw else "e"
    data = f'{{"m":"{mode}","c":{encode_basestring_ascii(code)},"i":"{nonce}"}}\n'.encode()
    if len(data) > MAX_REQUEST_BYTES:
        raise ValueError(f"request of {len(data)} bytes exceeds {MAX_REQUEST_BYTES}")
    return data, nonce


def encode_request(code: str, *, raw: bool = False) -> Request:
    """One request line, as a `Request`."""
    return Request(*request_line(code, raw=raw))


def encode_batch(lines: list[bytes]) -> bytes:
    """Request lines as one write; the first says how many follow it (worker: "n")."""
    if len(lines) == 1:
        return lines[0]
    first = lines[0][:-2] + b',"n":%d}\n' % len(lines)
    return b"".join([first, *lines[1:]])


_CODES: Final = {
    "syntax": ErrorCode.SYNTAX,
    "php": ErrorCode.PHP,
    "not_finite": ErrorCode.NOT_FINITE,
    "sandbox": ErrorCode.SANDBOX,
}


# The worker's exact bytes for a plain number (json_encode, keys in this order), read
# without building a dict, the common case by far: `{"ok":true,"t":"int","v":` (or
# `"float"`), the number, then `,"i":"` + the request's 16-character nonce + `"}`.
_INT_HEAD: Final = b'{"ok":true,"t":"int","v":'
_FLOAT_HEAD: Final = b'{"ok":true,"t":"float","v":'
_NONCE_TAIL: Final = b',"i":"'
_INT_AT: Final = len(_INT_HEAD)
_FLOAT_AT: Final = len(_FLOAT_HEAD)
_NUMBER_END: Final = -(len(_NONCE_TAIL) + 16 + 2)
_FLOAT_CHARS: Final = b"0123456789.eE+-"


def answer_object(line: bytes, nonce: str) -> dict[str, Any]:
    """A worker's answer line as the object that answers this request (its nonce), else
    ProtocolError: every language's worker answers in this envelope."""
    try:
        data = json.loads(line)
    except (ValueError, UnicodeDecodeError) as exc:
        raise ProtocolError(f"unreadable response: {line[:80]!r}") from exc
    if not isinstance(data, dict):
        raise ProtocolError(f"response is not an object: {line[:80]!r}")
    if data.get("i") != nonce:
        raise ProtocolError(f"response does not answer this request: {line[:80]!r}")
    return data


def decode_response(line: bytes, formula: str, nonce: str) -> tuple[Verdict, bool]:
    """Parse one response line into a verdict and whether the worker is exiting.

    Raises ProtocolError on anything malformed: the pool then kills the worker,
    because a channel that carried garbage once cannot be trusted again.
    """
    if line[-2:] == b'"}' and line[-18:-2] == nonce.encode() and line[-24:-18] == _NONCE_TAIL:
        # Slices and `startswith`, no regex: the match and its groups were over a third of
        # this function's time (int answers 1.14 -> 0.69 µs, floats 1.68 -> 1.06). The
        # number is what the pattern `-?[0-9]+` (int) or `-?[0-9][0-9.eE+-]*` (float) takes
        # whole, and what `int`/`float` then read: anything else, shorter lines included
        # (their number slice is empty), is the full parse's
        # (tests/evaluator/test_protocol_answers.py holds it to the pattern).
        if line.startswith(_INT_HEAD):
            number = line[_INT_AT:_NUMBER_END]
            if number.isdigit() or (number[:1] == b"-" and number[1:].isdigit()):
                return evaluation(formula, int(number)), False  # bytes' isdigit: ASCII only
        elif line.startswith(_FLOAT_HEAD):
            number = line[_FLOAT_AT:_NUMBER_END]
            if (number[:1].isdigit() or (number[:1] == b"-" and number[1:2].isdigit())) and not (
                number.strip(_FLOAT_CHARS)  # every byte one of them
            ):
                try:
                    return evaluation(formula, float(number)), False
                except ValueError:
                    pass  # not a float's text: the full parse says why
    return full_response(line, formula, nonce)


def full_response(line: bytes, formula: str, nonce: str) -> tuple[Verdict, bool]:
    """`decode_response` the slow way, for every answer: the whole line read as JSON."""
    data = answer_object(line, nonce)
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
        code, message, error_class=php_class if isinstance(php_class, str) else None
    ), bye
