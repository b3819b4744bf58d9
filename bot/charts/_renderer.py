"""Charts are drawn in a worker process, off the event loop, and never fail their caller.

A process, not a thread: drawing a figure is Python code holding the GIL for
tens of milliseconds, which a thread would take from the event loop (heartbeats,
other games' answers); bench/bench_charts.py measures both. The worker is
spawned, not forked, so it inherits none of the bot's sockets or threads, and it
imports matplotlib and draws one chart before the first real request.

`render` folds every failure (the chart raised, the worker died, it took too long)
into None and a log line: the summary is then sent without its picture.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVarTuple, Unpack

from rules import FormulaLanguage

log = logging.getLogger(__name__)
Args = TypeVarTuple("Args")

TIMEOUT_S = 10.0
"""Far above a chart's p99 (see docs/BENCHMARKS.md): only a sick worker takes this long."""
PARENT_CHECK_S = 1.0
"""How often a worker looks whether the process that started it is still there."""


def _start_worker(parent: int) -> None:
    """The worker's initializer: watch `parent` (the pool's process, named by itself: a
    parent killed before this runs is then seen too), then warm up."""
    threading.Thread(target=_exit_with, args=(parent,), name="parent-watch", daemon=True).start()
    _warm()


def _exit_with(parent: int) -> None:
    """A parent killed by SIGKILL (a supervisor's last resort on the web pages' child, the
    kernel's OOM killer) closes nothing: the executor's queue keeps its writer open in the
    worker too, so the worker would wait on it forever, an orphan. Its parent's id
    changes when it is reparented: then it exits."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_S)
    os._exit(0)


def _warm() -> None:
    """Import what a chart needs and draw both kinds once (fonts loaded, caches filled),
    so the first real chart pays no start-up."""
    import rules
    from bot.charts._game import game_chart
    from bot.charts._stats import GameKind, StatsChartInput, StatsGame, stats_chart
    from bot.storage import GameRecord

    state = rules.new_game("warm-up", rules.Mode.TRAINING, rules.CLASSIC, ["0"])
    game_chart(GameRecord(state=state, guild_id=0, channel_id=0), "uk", {})
    stats_chart(
        StatsChartInput((StatsGame(0.0, GameKind.LOST, 1, 1.0, 1, FormulaLanguage.PHP),)), "en"
    )


class ChartRenderer:
    """A small pool of chart workers, opened by `run_discord` (`async with`) and closed at
    shutdown."""

    def __init__(self, workers: int = 1, *, timeout_s: float = TIMEOUT_S) -> None:
        self.workers = workers
        self.timeout_s = timeout_s
        self._executor: ProcessPoolExecutor | None = None

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(os.getpid(),),
            )
        return self._executor

    async def __aenter__(self) -> ChartRenderer:
        await self.start()
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def start(self) -> None:
        """Start the workers now rather than on the first chart."""
        loop = asyncio.get_running_loop()
        pool = self._pool()
        await asyncio.gather(*(loop.run_in_executor(pool, _warm) for _ in range(self.workers)))

    async def render(self, chart: Callable[[Unpack[Args]], bytes], *args: *Args) -> bytes | None:
        """`chart(*args)` in a worker: its PNG, or None (and a log line saying why).

        `chart` and `args` go to another process, so they must pickle: a module-level
        function such as `game_chart` and plain records.
        """
        name = getattr(chart, "__qualname__", repr(chart))
        loop = asyncio.get_running_loop()
        pool, timeout_s = self._pool(), self.timeout_s
        try:
            future = loop.run_in_executor(pool, chart, *args)
            png = await asyncio.wait_for(future, timeout_s)
        except TimeoutError:
            log.error("chart %s took longer than %.1f s; the pool restarts", name, timeout_s)
            self._discard(pool)
            return None
        except asyncio.CancelledError:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise  # the caller is being cancelled, not the chart
            log.error("chart %s was cancelled: its pool was stopped", name)
            return None
        except BrokenProcessPool:
            log.exception("the chart worker died drawing %s; the pool restarts", name)
            self._discard(pool)
            return None
        except Exception:
            log.exception("chart %s failed", name)
            return None
        if not isinstance(png, bytes):
            log.error("chart %s returned %s, not PNG bytes", name, type(png).__name__)
            return None
        return png

    def _discard(self, pool: ProcessPoolExecutor) -> None:
        """Drop a broken or stuck pool, ending its workers; the next chart starts a fresh one."""
        if self._executor is pool:
            self._executor = None
        _terminate(pool)

    async def close(self) -> None:
        """Let a chart being drawn finish, cancel the queued ones, stop the workers."""
        pool, self._executor = self._executor, None
        if pool is not None:
            await asyncio.get_running_loop().run_in_executor(
                None, lambda: pool.shutdown(wait=True, cancel_futures=True)
            )


def _terminate(pool: ProcessPoolExecutor) -> None:
    """End the pool's workers now, so a stuck one cannot hold the bot's exit.

    Python 3.14 has `terminate_workers()`; before it the processes are reachable
    only through the executor's `_processes`.
    """
    terminate = getattr(pool, "terminate_workers", None)
    if callable(terminate):
        terminate()
        return
    processes = dict(getattr(pool, "_processes", None) or {})
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes.values():
        process.terminate()
