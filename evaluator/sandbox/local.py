"""Warm php-cli workers (or node's, for JavaScript: `program`) under bubblewrap on this machine.

Each worker is `bwrap … php -n worker.php`: no network, own pid/ipc/uts/
mount namespaces, a filesystem of a read-only /usr plus an empty 4 MiB tmpfs /tmp (the
only writable place: /dev and /dev/shm are read-only),
dies with its parent, rlimits on memory, CPU, files and processes, and PHP's
dangerous functions disabled on top. Workers are SCHED_BATCH tasks: waking one with a
batch never takes the bot's core from it. Three pipes: requests into stdin,
answers out of stderr, and stdout for whatever PHP prints by itself (echo,
a fatal error), of which only the last 2 KiB are kept, as last words.
What differs for node is its `WorkerProgram` (evaluator/sandbox/program.py):
its flags, an address space V8 can start in (RLIMIT_DATA still bounds what
it writes), and exactly as many tasks as node's own threads, so not one child.

The pipes are watched with `loop.add_reader` only while a batch is in flight
(`receive` until `settle`): no task or reader waits on an idle worker.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import resource
import shutil
import signal
import subprocess
from collections import deque
from collections.abc import Callable
from pathlib import Path

from evaluator.sandbox.base import WorkerDied
from evaluator.sandbox.program import PHP, RuntimeLimits, WorkerProgram
from evaluator.sandbox.protocol import DISABLED_FUNCTIONS, MAX_RESPONSE_BYTES, SANDBOX_TMP
from evaluator.settings import EvaluatorSettings

log = logging.getLogger(__name__)

SANDBOX_SCRIPT = PHP.in_sandbox
MAX_PROCESSES = PHP.max_processes
FILE_SIZE_LIMIT = 1 << 20
TMP_SIZE = 4 << 20
OPEN_FILES_LIMIT = 32
_UID_RANGE = (1 << 28, 1 << 29)  # unused-by-anyone ids for root's workers
_CHUNK = 1 << 16
_LAST_WORDS = 2048


class SandboxUnavailable(RuntimeError):
    """The configured sandbox cannot run here; the message says how to fix it."""


class LocalWorker:
    """One worker process (php or node); implements the `Worker` protocol."""

    def __init__(
        self, proc: subprocess.Popen[bytes], requests: int, responses: int, output: int
    ) -> None:
        self._proc = proc
        self._requests = requests
        self._responses = responses
        self._output = output
        self._lines: deque[bytes] = deque()
        self._partial = b""
        self._tail = b""
        self._gone: str | None = None  # why no more answers can come
        self._waiter: asyncio.Future[None] | None = None
        self._timer: asyncio.TimerHandle | None = None  # one a busy spell (`_on_deadline`)
        self._deadline = 0.0  # the waiter's
        self._loop: asyncio.AbstractEventLoop | None = None  # while its pipes are watched
        self._closed = False

    @property
    def alive(self) -> bool:
        return not self._closed and self._gone is None and self._proc.poll() is None

    @property
    def watching(self) -> bool:
        """Whether readers are on its pipes (a batch in flight, or batches back to back)."""
        return self._loop is not None

    @property
    def pid(self) -> int:
        return self._proc.pid

    async def send(self, data: bytes) -> None:
        if self._closed:
            raise WorkerDied("worker is closed")
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(self._requests, view) :]
        except OSError as exc:
            raise self._died(f"cannot write request: {exc}") from None

    async def receive(self, deadline: float) -> bytes:
        if not self._lines:
            await self._wait_for_line(deadline)
        return self._lines.popleft()

    def ready_line(self) -> bytes | None:
        return self._lines.popleft() if self._lines else None

    async def request(self, line: bytes, timeout: float) -> bytes:
        """One request, one answer (tools and tests; the pool sends batches)."""
        await self.send(line)
        try:
            return await self.receive(asyncio.get_running_loop().time() + timeout)
        finally:
            self.settle()

    async def _wait_for_line(self, deadline: float) -> None:
        if self._closed:
            raise WorkerDied("worker is closed")
        loop = self._loop
        if loop is None:  # not watched: asked of asyncio once per busy spell (a getpid())
            loop = self._loop = asyncio.get_running_loop()
            loop.add_reader(self._responses, self._on_responses)
            loop.add_reader(self._output, self._on_output)
            self._read_responses()
        # Watched already (batch after batch): whatever came is read by `_on_responses`
        # in the loop's next turn (the pipe stays readable until read), so no read is
        # tried here, where the answers of a batch just sent cannot be yet (a syscall
        # and a BlockingIOError a batch).
        if not self._lines and self._gone is None:
            waiter = self._waiter = loop.create_future()
            self._deadline = deadline
            timer = self._timer
            if timer is None or timer.when() > deadline:  # else it fires first, and moves on
                if timer is not None:
                    timer.cancel()
                self._timer = loop.call_at(deadline, self._on_deadline)
            try:
                await waiter
            finally:
                self._waiter = None
        if not self._lines:
            raise self._died(self._gone or "no answer")

    def _on_deadline(self) -> None:
        """The busy spell's one timer (none armed and cancelled a batch): it expires the
        waiter whose deadline it reached, or moves on to its later one; `settle` ends it."""
        timer, self._timer, waiter = self._timer, None, self._waiter
        if timer is None or waiter is None or waiter.done() or self._loop is None:
            return
        if self._deadline <= timer.when():
            waiter.set_exception(TimeoutError())
        else:
            self._timer = self._loop.call_at(self._deadline, self._on_deadline)

    def settle(self) -> None:
        loop, self._loop = self._loop, None
        timer, self._timer = self._timer, None
        if timer is not None:
            timer.cancel()
        if loop is not None:
            loop.remove_reader(self._responses)
            loop.remove_reader(self._output)

    def _on_responses(self) -> None:
        self._read_responses()
        if self._gone is not None and self._loop is not None:
            self._loop.remove_reader(self._responses)  # EOF stays readable
        waiter = self._waiter
        if waiter is not None and not waiter.done() and (self._lines or self._gone):
            waiter.set_result(None)

    def _read_responses(self) -> None:
        while self._gone is None:
            try:
                chunk = os.read(self._responses, _CHUNK)
            except BlockingIOError:
                return
            except OSError as exc:
                self._gone = f"read failed: {exc}"
                return
            if not chunk:
                self._gone = "the worker exited"
                return
            *lines, self._partial = (self._partial + chunk).split(b"\n")
            self._lines.extend(lines)
            if len(self._partial) > MAX_RESPONSE_BYTES:
                self._gone = "response too long"
            if len(chunk) < _CHUNK:
                return

    def _on_output(self) -> None:
        if not self._read_output():
            asyncio.get_running_loop().remove_reader(self._output)

    def _read_output(self) -> bool:
        """Keep the tail of what PHP printed; False at end of file."""
        while True:
            try:
                chunk = os.read(self._output, _CHUNK)
            except BlockingIOError:
                return True
            except OSError:
                return False
            if not chunk:
                return False
            self._tail = (self._tail + chunk)[-_LAST_WORDS:]

    def _died(self, what: str) -> WorkerDied:
        """A WorkerDied with the exit status and the worker's last words: PHP's fatal
        error on stdout, or bwrap's complaint left unfinished on the answer pipe."""
        if self._gone == "the worker exited" or "cannot write" in what:
            with contextlib.suppress(Exception):
                self._proc.wait(timeout=0.2)  # it is on its way out: its status says how
        self._read_output()
        last = self._tail.decode("utf-8", "replace").strip()
        detail = last or self._partial.decode("utf-8", "replace").strip()
        message = f"{what} (exit status {self._proc.returncode})"
        return WorkerDied(message + (f": {detail[-300:]}" if detail else ""), last)

    async def kill(self) -> None:
        self.close()

    def close(self) -> None:
        """Kill synchronously: SIGKILL to bwrap takes its whole pid namespace down."""
        if self._closed:
            return
        self._closed = True
        with contextlib.suppress(RuntimeError):  # no running loop: nothing was watched
            self.settle()
        if self._proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                self._proc.send_signal(signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self._proc.wait(timeout=2)
        for fd in (self._requests, self._responses, self._output):
            with contextlib.suppress(OSError):
                os.close(fd)


def bwrap_missing_message(path: str) -> str:
    return (
        f"bubblewrap (`{path}`) was not found, and the evaluator will not run PHP "
        "unsandboxed. Install it with `apt-get install bubblewrap` (Debian/Ubuntu) or "
        "`dnf install bubblewrap`, or set ALLOW_UNSANDBOXED=true for a trusted "
        "development machine only."
    )


class LocalWorkerFactory:
    """Starts sandboxed workers of one `program` (PHP's by default); a `WorkerFactory`."""

    def __init__(
        self,
        settings: EvaluatorSettings | None = None,
        *,
        program: WorkerProgram = PHP,
        disabled_functions: tuple[str, ...] = DISABLED_FUNCTIONS,
        php_memory_limit_mb: int | None = None,
        open_basedir: str | None = None,
    ) -> None:
        """The keyword arguments loosen PHP's own limits only in tests that prove an
        OS limit holds by itself (RLIMIT_NPROC with pcntl_fork callable, RLIMIT_AS
        with memory_limit above it, the mount namespace without open_basedir)."""
        self.settings = settings or EvaluatorSettings()
        self.program = program
        self.disabled_functions = disabled_functions
        self.php_memory_limit_mb = (
            php_memory_limit_mb or program.limits(self.settings).memory_limit_mb
        )
        self.open_basedir = open_basedir
        path = program.binary(self.settings)
        php = shutil.which(path)
        if php is None:
            raise SandboxUnavailable(program.missing(path))
        self.php = os.path.realpath(php)  # the runtime's binary (php or node)
        bwrap = shutil.which(self.settings.bwrap_path)
        if bwrap is None and not self.settings.allow_unsandboxed:
            raise SandboxUnavailable(bwrap_missing_message(self.settings.bwrap_path))
        self.bwrap = bwrap
        self.sandboxed = bwrap is not None
        self.name = "local" if self.sandboxed else "local-unsandboxed"
        self._prlimit = shutil.which("prlimit", path="/usr/bin:/bin")
        if self.sandboxed and self._prlimit is None:
            log.warning("prlimit not found: workers run without a process-count limit")
        if not self.sandboxed:
            log.warning("running %s WITHOUT a sandbox (ALLOW_UNSANDBOXED=true)", program.name)

    def command(self, script: str, script_fd: int | None) -> list[str]:
        """The argv of one worker; public so tests and docs can show the exact flags."""
        limits = RuntimeLimits(
            self.php_memory_limit_mb,
            self.settings.cpu_budget_s,
            open_basedir=self.open_basedir
            if self.open_basedir is not None
            else (SANDBOX_TMP if self.sandboxed else "/nonexistent"),
            disabled_functions=self.disabled_functions,
        )
        php = self.program.argv(self.php, script, limits)
        if not self.sandboxed:
            return php
        assert self.bwrap is not None
        args = [
            self.bwrap,
            "--unshare-all",  # pid, net, ipc, uts, cgroup: no network at all
            "--unshare-user",  # "-try" in --unshare-all; required by --disable-userns
            "--die-with-parent",
            "--new-session",
            "--disable-userns",
            "--cap-drop", "ALL",
            "--clearenv",
            "--setenv", "PATH", "/usr/bin:/bin",
            "--setenv", "LC_ALL", "C",
            "--hostname", "sandbox",
            "--ro-bind", "/usr", "/usr",
        ]  # fmt: skip
        for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"):
            path = Path(top)
            if path.is_symlink():
                args += ["--symlink", os.readlink(path), top]
            elif path.is_dir():
                args += ["--ro-bind", top, top]
        if Path("/etc/ld.so.cache").is_file():
            args += ["--ro-bind", "/etc/ld.so.cache", "/etc/ld.so.cache"]
        if not self.php.startswith("/usr/"):
            args += ["--ro-bind", self.php, self.php]
        if script_fd is not None:
            args += ["--ro-bind-data", str(script_fd), script]
        args += [
            "--dev", "/dev",  # a tmpfs of the host's memory, /dev/shm in it: read-only
            "--remount-ro", "/dev",
            "--size", str(TMP_SIZE), "--tmpfs", SANDBOX_TMP,
            "--remount-ro", "/",
            "--chdir", SANDBOX_TMP,
        ]  # fmt: skip
        if self._prlimit is not None:
            args += [self._prlimit, f"--nproc={self.program.max_processes}", "--"]
        return [*args, *php]

    def _preexec(self) -> Callable[[], None]:
        memory = self.settings.memory_mb << 20
        address_space = self.program.address_space_mb(self.settings) << 20
        cpu = self.settings.cpu_budget_s
        # Root's workers get an unprivileged uid of their own: the kernel does not
        # enforce RLIMIT_NPROC for root, and a unique uid keeps counts per worker.
        uid = random.randrange(*_UID_RANGE) if os.geteuid() == 0 and self.sandboxed else None

        def preexec() -> None:
            resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
            resource.setrlimit(resource.RLIMIT_DATA, (memory, memory))
            resource.setrlimit(resource.RLIMIT_CPU, (cpu + 5, cpu + 10))
            resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_SIZE_LIMIT, FILE_SIZE_LIMIT))
            resource.setrlimit(resource.RLIMIT_NOFILE, (OPEN_FILES_LIMIT, OPEN_FILES_LIMIT))
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            # SCHED_BATCH: a worker woken by a batch written into its stdin does not preempt
            # the bot on its core (the kernel's wake-up preemption skips batch tasks); it
            # runs on a free core at once, else when the bot's loop waits. Without it the
            # bot lost its core inside os.write for 70-130 us a batch on a loaded 2-core
            # machine (24-34 us with it), answers of the other worker waiting meanwhile.
            # A hint only: a host that forbids it (a seccomp filter) still gets workers.
            with contextlib.suppress(OSError):
                os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))
            if uid is not None:
                os.setgroups([])
                os.setresgid(uid, uid, uid)
                os.setresuid(uid, uid, uid)

        return preexec

    async def spawn(self) -> LocalWorker:
        """Start one worker. Synchronous inside (fork+exec takes about a millisecond):
        it must run on the loop's thread anyway, because --die-with-parent ties
        the worker to the thread that forked it."""
        return self.spawn_sync()

    def spawn_sync(self) -> LocalWorker:
        req_r, req_w = os.pipe()
        resp_r, resp_w = os.pipe()
        out_r, out_w = os.pipe()
        source = self.program.source
        script_fd = os.open(source, os.O_RDONLY) if self.sandboxed else None
        script = self.program.in_sandbox if self.sandboxed else str(source)
        keep = () if script_fd is None else (script_fd,)
        try:
            proc = subprocess.Popen(
                self.command(script, script_fd),
                stdin=req_r,
                stdout=out_w,
                stderr=resp_w,
                pass_fds=keep,
                preexec_fn=self._preexec(),  # noqa: PLW1509 - rlimits must be set pre-exec
                env={"PATH": "/usr/bin:/bin", "LC_ALL": "C"},
                cwd="/",
            )
        except OSError as exc:
            for fd in (req_w, resp_r, out_r):
                os.close(fd)
            raise WorkerDied(f"cannot start a worker: {exc}") from None
        finally:
            for fd in (req_r, resp_w, out_w, *keep):
                os.close(fd)
        os.set_blocking(resp_r, False)
        os.set_blocking(out_r, False)
        return LocalWorker(proc, req_w, resp_r, out_r)

    async def cleanup(self) -> None:
        """Nothing backend-wide: each worker dies with its pool (or this process)."""
