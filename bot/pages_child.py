"""The servers' web pages in a child process of the bot (`formula-darts run` with WEB_PORT).

Served in the bot's own process, a flood of page requests shared its event loop and GIL
with the games: the reveals' p99 moved 1.74x under one (docs/BENCHMARKS.md, web-flood).
So the bot starts `formula-darts web --child` (the same code as the command alone, which
loads no discord) and supervises it: started with the bot's settings (the database URL in
its environment, never on its command line; no Discord token), started again with a
growing pause when it dies (one log line each time), stopped at shutdown (SIGTERM, then
SIGKILL after a grace). Its stdin is the bot's pipe: the bot writes on it when it changed
a server's settings, so `/config web off` takes effect in the pages within `relay_s`
(not the 5 s another process waits), and when the bot dies, even by SIGKILL, the pipe
closes and the child stops: no orphan keeps the port.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

log = logging.getLogger(__name__)

SETTINGS_CHANGED = b"settings\n"
"""What the bot writes on the child's stdin when it changed a server's settings
(`/config web off`): the child forgets the page keys it trusted (`PageKeys.forget`)."""
NICENESS = 10
"""How much lower the child's niceness is than the bot's (it lowers it itself,
`formula-darts web --child`, with `step_aside`); where the platform refuses SCHED_IDLE,
the only thing that keeps its pages behind the games."""
AUTOGROUP_NICE = 19
"""The niceness of the child's own autogroup while it serves (`_set_autogroup_nice`)."""
FIRST_PAUSE_S = 1.0
"""The pause before the first restart; doubled at each death in a row, up to `MAX_PAUSE_S`."""
MAX_PAUSE_S = 30.0
STEADY_S = 60.0
"""A child that served this long before it died is restarted after `FIRST_PAUSE_S` again."""
GRACE_S = 10.0
"""How long a stopping child may close its chart worker and store before it is killed
(well inside compose's stop_grace_period of 30 s). At SCHED_IDLE (`step_aside`) on cores
other work keeps busy it may need longer (9.7 s was seen at load 16) and is killed: no
harm, it only reads the database, and its chart worker ends as its pipe closes."""
RELAY_S = 0.5
"""How often the bot's count of its settings changes is looked at."""


def step_aside() -> int:
    """Put this process (the pages' child, before it starts any thread or process, which
    inherit it) behind the games on the CPU, and say under which policy it now runs.

    Niceness alone did not do it: at nice +10 the child still has 1/10 of a nice-0 task's
    weight and its wake-ups may preempt the solver, and on 2 cores a flood's page work
    slowed the reveals (docs/BENCHMARKS.md, web-flood: reveals' p99 3.9x of quiet).
    SCHED_IDLE (which any process may choose for itself, no privilege needed) runs it only
    on a core no other task wants, at a weight of 3 against a nice-0 task's 1,024 (nice 19
    is 15), and never lets its wake-up preempt one: the solver, PHP and the bot's loop run
    first, the pages' readers wait when the cores are short. The nice value stays too: it
    is what is left where the policy is refused (a seccomp filter). Both weigh only against
    tasks of the same autogroup (a session, where the kernel groups by session), and the
    child leads a session of its own: it lowers that session's autogroup to nice 19 too."""
    os.nice(NICENESS)
    with contextlib.suppress(OSError):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    if os.getsid(0) == os.getpid():  # its own autogroup: never lower a session it joined
        _set_autogroup_nice("self", AUTOGROUP_NICE)
    return os.sched_getscheduler(0)


def _set_autogroup_nice(process: int | str, nice: int) -> None:
    """Set the niceness of the autogroup of `process` (a pid, or "self"). Where the kernel
    groups tasks by session (`kernel.sched_autogroup_enabled`, tasks in the root cgroup), a
    process leading its own session is its own autogroup, and the scheduler first shares a
    core between autogroups by their own weight: SCHED_IDLE inside one still took ~3/4 of a
    core from a nice-0 task in another (measured: a pinned spinner pair). So the child
    lowers its autogroup to `AUTOGROUP_NICE`, and the bot sets it back to 0 when it stops
    it, so that it gets a core's share to close and exit in. Any user may move its own
    processes' autogroups between 0 and 19; nothing where the kernel has no autogroups."""
    with contextlib.suppress(OSError):
        Path(f"/proc/{process}/autogroup").write_text(str(nice))


@dataclass(frozen=True, slots=True)
class PagesCommand:
    """How the child is started: `formula-darts web` on the bot's database and address."""

    database_url: str
    host: str
    port: int
    log_level: str = "INFO"

    def argv(self) -> list[str]:
        return [
            sys.executable, "-m", "bot.cli", "web", "--child",
            "--host", self.host, "--port", str(self.port), "--log-level", self.log_level,
        ]  # fmt: skip

    def environment(self) -> dict[str, str]:
        """The bot's environment (LOG_FORMAT, .env's place), its database URL (which may
        hold a password: `ps` shows a command line to anyone), without the token."""
        env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
        env["DATABASE_URL"] = self.database_url
        return env


class PagesChild:
    """`async with PagesChild(command):` the pages' process runs, and is started again
    whenever it dies, until the block ends; `changes` is the bot's count of its settings
    changes (`Store.servers.changes`), relayed to the child."""

    def __init__(
        self,
        command: PagesCommand,
        changes: Callable[[], int] | None = None,
        *,
        first_pause_s: float = FIRST_PAUSE_S,
        max_pause_s: float = MAX_PAUSE_S,
        steady_s: float = STEADY_S,
        grace_s: float = GRACE_S,
        relay_s: float = RELAY_S,
    ) -> None:
        self.command = command
        self.changes = changes
        self.first_pause_s = first_pause_s
        self.max_pause_s = max_pause_s
        self.steady_s = steady_s
        self.grace_s = grace_s
        self.relay_s = relay_s
        self.process: asyncio.subprocess.Process | None = None
        self.starts = 0
        """How many times the child was started (1 + its restarts)."""
        self._tasks: list[asyncio.Task[None]] = []

    async def __aenter__(self) -> PagesChild:
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._supervise(), name="web-pages-child")]
        if self.changes is not None:
            self._tasks.append(loop.create_task(self._relay(self.changes), name="web-relay"))
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self._stop()

    async def _supervise(self) -> None:
        pause = self.first_pause_s
        while True:
            began = time.monotonic()
            try:
                self.process = await asyncio.create_subprocess_exec(
                    *self.command.argv(),
                    env=self.command.environment(),
                    stdin=asyncio.subprocess.PIPE,
                    # A session of its own: a terminal's Ctrl-C reaches the bot alone, and
                    # where the kernel groups by session the child is an autogroup of its
                    # own, which it lowers to nice 19 (`step_aside`) and the bot raises back
                    # to 0 when it stops it (`_stop`): SCHED_IDLE in the bot's own group
                    # starved its very exit beside busy cores (minutes to die once killed).
                    start_new_session=True,
                )
                self.starts += 1
                code = await self.process.wait()
                why = f"exited with code {code}"
            except OSError as exc:  # no python, too many processes: try again later
                why = f"could not start ({exc})"
            if time.monotonic() - began >= self.steady_s:
                pause = self.first_pause_s
            log.warning("the web pages' process %s; starting it again in %g s", why, pause)
            await asyncio.sleep(pause)
            pause = min(pause * 2, self.max_pause_s)

    async def _relay(self, changes: Callable[[], int]) -> None:
        """Tell the child each time the bot's settings changes moved."""
        told = changes()
        while True:
            await asyncio.sleep(self.relay_s)
            now, process = changes(), self.process
            if now == told or process is None or process.stdin is None:
                continue
            told = now
            with contextlib.suppress(ConnectionError):  # it died: the next one asks anew
                process.stdin.write(SETTINGS_CHANGED)
                await process.stdin.drain()

    async def _stop(self) -> None:
        """SIGTERM (the child closes its chart worker and store), SIGKILL after the grace."""
        process = self.process
        if process is None or process.returncode is not None:
            return
        _set_autogroup_nice(process.pid, 0)
        with contextlib.suppress(ProcessLookupError):
            process.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(process.wait(), self.grace_s)
        except TimeoutError:
            log.warning("the web pages' process did not stop in %.0f s; killed", self.grace_s)
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()
