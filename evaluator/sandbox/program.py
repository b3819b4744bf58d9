"""What a sandbox runs: the worker program of one language, and how its answers read.

The pool, the bubblewrap backend and the Docker backend are the same for every
language; what differs is this: which binary runs which worker script with
which flags, how much address space and how many threads that runtime needs
to start at all, which image carries it, and how an answer line becomes a
verdict. PHP's program is the default everywhere, so nothing about PHP changes
when a second language is added.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Protocol

from evaluator.result import ErrorCode, EvalError, Evaluation, Verdict
from evaluator.sandbox.protocol import (
    DISABLED_FUNCTIONS,
    SANDBOX_TMP,
    WORKER_SCRIPT,
    ProtocolError,
    answer_object,
    decode_response,
    fatal_verdict,
    php_ini_args,
)
from evaluator.settings import EvaluatorSettings

NODE_WORKER_SCRIPT: Final = Path(__file__).resolve().parent.parent / "worker.js"


@dataclass(frozen=True, slots=True)
class RuntimeLimits:
    """The runtime's own limits; tests loosen them to prove an OS limit holds alone."""

    memory_limit_mb: int
    cpu_budget_s: int
    open_basedir: str = SANDBOX_TMP
    disabled_functions: tuple[str, ...] = DISABLED_FUNCTIONS


class WorkerProgram(Protocol):
    name: str  # "php", "node": the engine's name in messages and logs
    source: Path  # the worker script on this host
    in_sandbox: str  # where the sandbox (bwrap bind, image) puts it
    max_processes: int  # RLIMIT_NPROC under bubblewrap: the runtime's own threads
    image_binary: str  # the runtime's command inside its Docker image
    docker_pids: int | None  # the pids limit once the worker runs (None: the settings')
    build_command: str  # `formula-darts sandbox …` that builds its image
    answers_together: bool
    """Whether the worker holds a batch's answers back to write them together: then a
    request that ends it takes the unwritten answers before it along, and the pool cannot
    tell which of the unanswered requests did it (`_batch.drive` sends each again alone)."""

    def binary(self, settings: EvaluatorSettings) -> str: ...

    def missing(self, path: str) -> str:
        """How to install the runtime when `path` is not found."""
        ...

    def argv(self, binary: str, script: str, limits: RuntimeLimits) -> list[str]: ...

    def limits(self, settings: EvaluatorSettings) -> RuntimeLimits: ...

    def address_space_mb(self, settings: EvaluatorSettings) -> int:
        """RLIMIT_AS of one worker under bubblewrap."""
        ...

    def image(self, settings: EvaluatorSettings) -> str:
        """The Docker image that carries this runtime and worker."""
        ...

    def decode(self, line: bytes, formula: str, nonce: str) -> tuple[Verdict, bool]:
        """A response line as a verdict and whether the worker retires (ProtocolError if bad)."""
        ...

    def fatal(self, last_words: str) -> EvalError | None:
        """The runtime's own fatal error among a dead worker's last words, if any."""
        ...


class PhpProgram:
    """php-cli running worker.php (evaluator/sandbox/protocol.py has its flags)."""

    name = "PHP"
    source = WORKER_SCRIPT
    in_sandbox = "/sandbox/worker.php"
    max_processes = 2  # bwrap's pid 1 and php itself: php may not fork at all
    image_binary = "php"
    docker_pids: int | None = None
    build_command = "build"
    answers_together = True  # worker.php: one write per batch

    def binary(self, settings: EvaluatorSettings) -> str:
        return settings.php_path

    def missing(self, path: str) -> str:
        return f"php (`{path}`) was not found: `apt-get install php-cli`"

    def argv(self, binary: str, script: str, limits: RuntimeLimits) -> list[str]:
        ini = php_ini_args(
            limits.memory_limit_mb,
            limits.cpu_budget_s,
            open_basedir=limits.open_basedir,
            disabled_functions=limits.disabled_functions,
        )
        return [binary, *ini, script]

    def limits(self, settings: EvaluatorSettings) -> RuntimeLimits:
        return RuntimeLimits(settings.php_memory_limit_mb, settings.cpu_budget_s)

    def address_space_mb(self, settings: EvaluatorSettings) -> int:
        return settings.memory_mb

    def image(self, settings: EvaluatorSettings) -> str:
        return settings.docker_image

    decode = staticmethod(decode_response)
    """The protocol's own function, not a method around it: called once per answer."""

    def fatal(self, last_words: str) -> EvalError | None:
        return fatal_verdict(last_words)


_NODE_CODES: Final = {
    "syntax": ErrorCode.SYNTAX,
    "php": ErrorCode.RUNTIME,  # a runtime error of the formula's language (TypeError, ...)
    "not_finite": ErrorCode.NOT_FINITE,
    "sandbox": ErrorCode.SANDBOX,
}


# worker.js's exact bytes for a finite number (`String(value)`, `-0.0` for minus zero):
# read without building a dict, the common case by far.
_NODE_PLAIN: Final = re.compile(
    rb'\{"ok":true,"t":"number","v":(-?[0-9][0-9.e+-]*),"i":"([0-9a-f]{16})"\}'
)


def decode_node_response(line: bytes, formula: str, nonce: str) -> tuple[Verdict, bool]:
    """worker.js's answer: a double (`-0.0` keeps the sign of zero) or a typed error."""
    fast = _NODE_PLAIN.fullmatch(line)
    if fast is not None and fast[2] == nonce.encode():
        try:
            return Evaluation(formula, float(fast[1])), False
        except ValueError:
            pass  # not a number after all: the full parse below says why
    data = answer_object(line, nonce)
    bye = data.get("bye") is True
    if data.get("ok") is True:
        value = data.get("v")
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if data.get("t") == "number" and isinstance(value, int | float) and number:
            return Evaluation(formula, float(value)), bye
        raise ProtocolError(f"bad value in response: {line[:80]!r}")
    code = _NODE_CODES.get(str(data.get("e")))
    message, cls = data.get("m"), data.get("c")
    if code is None or not isinstance(message, str):
        raise ProtocolError(f"bad error in response: {line[:80]!r}")
    return EvalError(code, message, error_class=cls if isinstance(cls, str) else None), bye


class NodeProgram:
    """node running worker.js: formulas that can only compute in one kept vm context
    holding a frozen Math, any other in a fresh one (worker.js says why that is safe)."""

    name = "node"
    source = NODE_WORKER_SCRIPT
    in_sandbox = "/sandbox/worker.js"
    max_processes = 5  # bwrap, node and its 3 threads (--v8-pool-size=1): not one more
    image_binary = "node"
    docker_pids: int | None = 4  # node and its threads: a child process has no pid left
    # (set once node runs: the container starts under the settings' limit, see docker.py)
    build_command = "build --language javascript"
    answers_together = True  # worker.js: one write per batch, as worker.php

    def binary(self, settings: EvaluatorSettings) -> str:
        return settings.node_path

    def missing(self, path: str) -> str:
        return f"node (`{path}`) was not found: `apt-get install nodejs`"

    def argv(self, binary: str, script: str, limits: RuntimeLimits) -> list[str]:
        return [
            binary,
            f"--max-old-space-size={limits.memory_limit_mb}",
            "--max-semi-space-size=2",
            "--v8-pool-size=1",
            "--stack-size=900",
            "--no-warnings",
            script,
        ]

    def limits(self, settings: EvaluatorSettings) -> RuntimeLimits:
        return RuntimeLimits(settings.php_memory_limit_mb, settings.cpu_budget_s)

    def address_space_mb(self, settings: EvaluatorSettings) -> int:
        return settings.node_address_space_mb

    def image(self, settings: EvaluatorSettings) -> str:
        return settings.node_docker_image

    decode = staticmethod(decode_node_response)
    """The function itself, not a method around it: called once per answer."""

    def fatal(self, last_words: str) -> EvalError | None:
        if "heap out of memory" in last_words or "out of memory" in last_words:
            return EvalError(ErrorCode.SANDBOX, "node ran out of memory", error_class="FatalError")
        return None


PHP: Final[WorkerProgram] = PhpProgram()
NODE: Final[WorkerProgram] = NodeProgram()
