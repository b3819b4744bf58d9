"""WEB_PORT: the bot's process wiring (`bot.process.serve_pages`) serves the pages from a
real child process (`formula-darts web --child`), never on its own loop; the child is
started again when it dies, stopped with the bot, and stops by itself when the bot is
killed (its pipe closes), leaving no orphan on the port."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import socket
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.pages_child import NICENESS, SETTINGS_CHANGED, PagesChild, PagesCommand
from bot.process import serve_pages
from bot.settings import BotSettings
from bot.storage import Store, open_store
from bot.web import create_app, forget_servers
from bot.web._keys import PAGES_ON
from tests.bot.web.pages_site import GUILD, populate

WAIT_S = 300.0
"""A generous bound for a child to start or stop on a loaded machine (at SCHED_IDLE it
runs on cores other work leaves idle): tests wait for the work itself; this only ends a
test that would hang."""


def _settings(tmp_path: Path, port: int | None) -> BotSettings:
    url = f"sqlite+aiosqlite:///{tmp_path}/web.sqlite3"
    return BotSettings(discord_token=None, database_url=url, web_port=port)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _listening_inode(port: int) -> str | None:
    """The socket inode listening on 127.0.0.1:port (/proc/net/tcp: state 0A)."""
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        if fields[1].endswith(f":{port:04X}") and fields[3] == "0A":
            return fields[9]
    return None


def _sockets(pid: int | str) -> set[str]:
    found = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        target = os.readlink(fd) if fd.exists() else ""
        if target.startswith("socket:["):
            found.add(target[len("socket:[") : -1])
    return found


def _descendants(pid: int) -> set[int]:
    """The process's children, and theirs (its chart worker)."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            found |= {int(child), *_descendants(int(child))}
    return found


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except FileNotFoundError:
        return False


def _nice(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])


def _policies(pids: set[int]) -> set[int]:
    """The scheduling policy of every thread of these processes (/proc's stat field 41)."""
    found = set()
    for pid in pids:
        for task in Path(f"/proc/{pid}/task").iterdir():
            found.add(int((task / "stat").read_text().rsplit(")", 1)[1].split()[38]))
    return found


def _living(pids: set[int]) -> list[int]:
    return [pid for pid in pids if _alive(pid)]


async def _page(url: str, status: int = 200) -> str:
    """The page once it answers `status` (the child is starting meanwhile)."""
    async with aiohttp.ClientSession() as http:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + WAIT_S
        while True:
            try:
                async with http.get(url) as page:
                    if page.status == status:
                        return await page.text()
            except aiohttp.ClientConnectionError:
                pass
            assert loop.time() < deadline, f"{url} never answered {status}"
            await asyncio.sleep(0.1)


async def _until(check: Callable[[], object], what: str) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT_S
    while not check():
        assert loop.time() < deadline, what
        await asyncio.sleep(0.05)


async def _populated(tmp_path: Path) -> tuple[Store, str]:
    store = await open_store(_settings(tmp_path, None).database_url)
    return store, await populate(store)


async def test_without_web_port_the_bot_starts_no_pages(tmp_path: Path) -> None:
    store, _ = await _populated(tmp_path)
    try:
        async with serve_pages(_settings(tmp_path, None), store) as nothing:
            assert nothing is None
    finally:
        await store.close()


async def test_the_bots_child_serves_the_pages_is_restarted_and_stopped(tmp_path: Path) -> None:
    store, key = await _populated(tmp_path)
    port = _free_port()
    url = f"http://127.0.0.1:{port}/s/{key}/?period=all"
    try:
        # the child runs only on idle cores (SCHED_IDLE): on a busy machine its clean
        # stop takes the bot's grace and more, so this test gives it the generous bound
        async with serve_pages(_settings(tmp_path, port), store, grace_s=WAIT_S) as child:
            assert isinstance(child, PagesChild)
            assert "Alice" in await _page(url)  # the names the bot kept in the store
            first = child.process
            assert first is not None and child.starts == 1
            listening = _listening_inode(port)
            assert listening in _sockets(first.pid)
            assert listening not in _sockets("self")  # not on the bot's own loop
            assert _nice(first.pid) == _nice(os.getpid()) + NICENESS  # the games come first
            # its own session (Ctrl-C at a terminal: the bot's alone), whose autogroup it
            # lowered: at nice 0 the kernel shared a core with it as with the bot's session
            assert os.getsid(first.pid) == first.pid
            assert _autogroup(first.pid).endswith(" nice 19")
            assert _autogroup(os.getpid()) != _autogroup(first.pid)

            killed = {first.pid, *_descendants(first.pid)}
            os.kill(first.pid, signal.SIGKILL)
            await _until(lambda: child.starts == 2, "the child was not started again")
            await _until(lambda: not _living(killed), "the killed child's chart worker lived on")
            assert "Alice" in await _page(url)
            second = child.process
            assert second is not None and second.pid != first.pid
            family = {second.pid, *_descendants(second.pid)}
            assert len(family) >= 2  # the child and its chart worker
            # every thread of the child and of its chart worker runs only on a core the
            # games (this process, the solver, PHP) leave idle
            assert _policies(family) == {os.SCHED_IDLE}
            assert os.sched_getscheduler(0) == os.SCHED_OTHER  # the bot itself is not

            # the bot turns the pages off: the child is told, and forgets the page key
            await store.servers.set_web(GUILD, False, 0.0)
            await _page(url, 404)
        assert second.returncode == 0  # SIGTERM: it stopped cleanly
        # its chart worker and multiprocessing's tracker end as their pipes close
        await _until(lambda: not _living(family), "an orphan outlived the bot's shutdown")
        assert _listening_inode(port) is None
    finally:
        await store.close()


BOT = """
import asyncio, sys
from bot.pages_child import PagesChild, PagesCommand

async def main() -> None:
    async with PagesChild(PagesCommand(sys.argv[1], "127.0.0.1", int(sys.argv[2]))) as child:
        while child.process is None:
            await asyncio.sleep(0.01)
        print(child.process.pid, flush=True)
        await asyncio.Event().wait()

asyncio.run(main())
"""


STEP_ASIDE = """
import os
from bot.pages_child import step_aside
if os.geteuid() == 0:  # an ordinary user's rights (root's capabilities go with its uid)
    os.setgroups([])
    os.setresgid(65534, 65534, 65534)
    os.setresuid(65534, 65534, 65534)
print(step_aside(), os.nice(0))
"""


def _autogroup(pid: int | str) -> str:
    """The autogroup a process is scheduled in ("/autogroup-12 nice 0")."""
    return Path(f"/proc/{pid}/autogroup").read_text().strip()


AUTOGROUP = """
import ctypes, os
from bot.pages_child import step_aside
if os.geteuid() == 0:  # an ordinary user's rights, as in STEP_ASIDE
    os.setgroups([])
    os.setresgid(65534, 65534, 65534)
    os.setresuid(65534, 65534, 65534)
    ctypes.CDLL(None).prctl(4, 1, 0, 0, 0)  # PR_SET_DUMPABLE: /proc/self its own, as after exec
step_aside()
print(open("/proc/self/autogroup").read().strip())
"""


@pytest.mark.skipif(not Path("/proc/self/autogroup").exists(), reason="a kernel without autogroups")
async def test_a_child_leading_its_own_session_lowers_its_autogroup() -> None:
    """Started apart from the bot in a session of its own (as `setsid` or a supervisor may),
    the child is its own autogroup: `step_aside` lowers that group to nice 19, as an
    ordinary user; in the session it was started in it leaves the autogroup alone."""
    apart = await asyncio.create_subprocess_exec(
        sys.executable, "-c", AUTOGROUP, stdout=asyncio.subprocess.PIPE, start_new_session=True
    )
    out, _ = await apart.communicate()
    assert apart.returncode == 0
    assert out.decode().strip().endswith(" nice 19"), out
    ours = _autogroup("self")
    inside = await asyncio.create_subprocess_exec(
        sys.executable, "-c", AUTOGROUP, stdout=asyncio.subprocess.PIPE, process_group=0
    )
    out, _ = await inside.communicate()
    assert inside.returncode == 0
    assert out.decode().strip() == ours  # the bot's session's autogroup, not lowered


async def test_an_unprivileged_child_steps_aside_to_sched_idle() -> None:
    """`step_aside` needs no privilege: as an ordinary user (nobody, when the tests run as
    root) the policy is SCHED_IDLE and the niceness NICENESS above the parent's."""
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-c", STEP_ASIDE, stdout=asyncio.subprocess.PIPE
    )
    out, _ = await child.communicate()
    assert child.returncode == 0
    policy, nice = map(int, out.split())
    assert policy == os.SCHED_IDLE
    assert nice == min(os.nice(0) + NICENESS, 19)


async def test_a_killed_bot_leaves_no_pages_process(tmp_path: Path) -> None:
    """SIGKILL leaves the bot no time to stop its child: the child sees its pipe close."""
    store, key = await _populated(tmp_path)
    await store.close()
    port = _free_port()
    bot = await asyncio.create_subprocess_exec(
        sys.executable, "-c", BOT, _settings(tmp_path, None).database_url, str(port),
        stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        assert bot.stdout is not None
        pid = int(await bot.stdout.readline())
        await _page(f"http://127.0.0.1:{port}/s/{key}/?period=all")
        family = {pid, *_descendants(pid)}
        bot.kill()
        await bot.wait()
        await _until(lambda: not _living(family), "the child outlived the bot")
        assert _listening_inode(port) is None
    finally:
        if bot.returncode is None:
            bot.kill()
            await bot.wait()


@dataclass(frozen=True)
class _Script(PagesCommand):
    """A stand-in child: `code` run by python, in the environment the bot would give."""

    code: str = ""

    def argv(self) -> list[str]:
        return [sys.executable, "-c", self.code]


def _script(code: str) -> _Script:
    return _Script("sqlite+aiosqlite:///unused", "127.0.0.1", 0, code=code)


async def test_a_dying_child_is_started_again_each_time_later(caplog: Any) -> None:
    """One log line per death, the pause doubling up to its cap."""
    child = PagesChild(_script("raise SystemExit(3)"), first_pause_s=0.01, max_pause_s=0.04)
    with caplog.at_level(logging.WARNING, logger="bot.pages_child"):
        async with child:
            await _until(lambda: child.starts >= 5, "the child was not started again")
    lines = [r.getMessage() for r in caplog.records if r.name == "bot.pages_child"]
    assert lines[:4] == [
        f"the web pages' process exited with code 3; starting it again in {pause} s"
        for pause in ("0.01", "0.02", "0.04", "0.04")
    ]


async def test_the_bots_settings_changes_are_told_to_the_child(
    tmp_path: Path, monkeypatch: Any
) -> None:
    """What the bot writes on the child's stdin when `Store.servers.changes` moves (the
    child's side, `forget_servers`, is what makes the page 404 above)."""
    told = tmp_path / "told"
    copy = f"import sys\nfor line in sys.stdin:\n    open({str(told)!r}, 'ab').write(line.encode())"
    changes = [0]
    async with PagesChild(_script(copy), lambda: changes[0], relay_s=0.01) as child:
        await _until(lambda: child.process is not None, "the child did not start")
        changes[0] += 1
        await _until(told.exists, "the child was not told")
        assert told.read_bytes() == SETTINGS_CHANGED
        monkeypatch.setenv("DISCORD_TOKEN", "the bot's own")
        env = _script(copy).environment()
        assert "DISCORD_TOKEN" not in env and env["DATABASE_URL"].startswith("sqlite")


async def test_the_childs_side_forgets_the_page_keys_it_trusted(tmp_path: Path) -> None:
    """`forget_servers`: what the child does on the bot's line (`formula-darts web --child`)."""
    store, key = await _populated(tmp_path)
    try:
        app = create_app(store, charts=NoCharts())
        settings = await store.servers.settings(GUILD)
        app[PAGES_ON].put(key, settings, 100.0, changes=0)
        assert app[PAGES_ON].get(key, 100.0, 0) is settings
        forget_servers(app)
        assert app[PAGES_ON].get(key, 100.0, 0) is None
    finally:
        await store.close()


class NoCharts:
    """No chart worker: this test draws nothing."""

    async def render(self, chart: Callable[..., bytes], *args: object) -> bytes | None:
        del chart, args
        return None
