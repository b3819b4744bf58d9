"""The pages' port under a flood while games are played: 800 slow-loris connections and
16 clients asking replays and player pages, beside honest readers, a busy PHP pool and
players waiting for their rounds' reveals.

One process set up like the bot (its file-descriptor limit lowered to a container's usual
1,024): a store with one server's games, a bubblewrap PHP pool of two workers answering
formulas without a pause and timing one out every two seconds (so a worker is replaced
every two seconds). The pages are served by the bot's own wiring for `WEB_PORT`
(`together`: `bot.process.serve_pages`, its supervised `formula-darts web` child), by
`formula-darts web` started apart (`apart`), or, for comparison with what WEB_PORT did
before, on this process's own loop (`in-process`: `bot.web.serve` with a started chart
worker). The clients are processes of their own (`bench/_flood_clients.py`): an honest
reader asking a board and a player page one after another; then, for the flood half, a
slow-loris holding `--loris` connections (half-sent headers, a byte a second, reconnecting
when closed) and `--clients` clients asking player pages (of other players than the
reader's, in two languages: charts to draw) and replays, half each, as fast as they are
answered. Meanwhile `--reveals` players in the bot's process ask, one after another (1 s
apart, Digits no earlier phase asked: `Seeds`), a round's confirmed best answer as the
game flow does (`ConfirmedSolver.best`: the solver's process, then PHP through the same
pool): issue 29 asks their p99 under the flood to stay within 1.5x of the quiet run's.
The same run is done quiet first, as the baseline. Prints and writes the `web-flood`
section of docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import socket
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import Any, cast

import aiohttp
import sqlalchemy as sa

from bench._flood_clients import result, spawn
from bench._flood_cpu import Meter
from bench._flood_report import LAYOUTS, Rounds, report
from bench._flood_reveals import Seeds, TimedSolver
from bench._flood_reveals import reveals as ask_reveals
from bench._report import write_section
from bench._storage_data import Dataset, bulk_load
from bot.charts import ChartRenderer
from bot.common.serving import Gate
from bot.pages_child import PagesChild, PagesCommand
from bot.process import serve_pages
from bot.settings import BotSettings
from bot.solving import ConfirmedSolver
from bot.storage import Store, open_store
from bot.web import NoNames, create_app, serve
from evaluator.result import Evaluation
from evaluator.sandbox.local import LocalWorkerFactory
from evaluator.sandbox.pool import WorkerPool
from evaluator.service import Evaluator, make_pool
from evaluator.settings import EvaluatorSettings
from solver.process import SolverProcess

FORMULAS = ("34+89", "7/2", "(1+2)*3-4", "2**10", "99%7")
HANG = "while (true) {}"


async def _php(pool: WorkerPool, seconds: float) -> dict[str, Any]:
    """Formulas one after another in two lanes, and every 2 s one that hangs (replaced)."""
    times: list[float] = []
    wrong = 0
    deadline = time.perf_counter() + seconds

    async def lane(index: int) -> None:
        nonlocal wrong
        n = index
        while time.perf_counter() < deadline:
            formula = FORMULAS[n % len(FORMULAS)]
            n += 1
            began = time.perf_counter()
            verdict = await pool.run(formula)
            times.append(time.perf_counter() - began)
            wrong += not isinstance(verdict, Evaluation)

    async def hangs() -> int:
        count = 0
        while time.perf_counter() + 2 < deadline:
            await asyncio.sleep(2)
            await pool.run_raw(HANG)
            count += 1
        return count

    *_, hung = await asyncio.gather(lane(0), lane(1), hangs())
    return {"times": times, "wrong": wrong, "hung": hung}


@dataclass(frozen=True)
class _Bot:
    """The bot's parts the phases use: its PHP pool and its reveals (solver, then PHP)."""

    pool: WorkerPool
    revealer: ConfirmedSolver
    timed: TimedSolver
    seeds: Seeds


@dataclass(frozen=True)
class _Targets:
    """Whose pages the honest reader asks, and what the flood asks (pages, replays)."""

    players: list[str]
    flooded: list[str]
    games: list[str]


WARM_DIGITS = "1111"
"""Each phase's new solver answers once on these Digits before it starts (its first call
builds what every solve reads), Digits `rules.random_digits` rarely gives a phase."""


async def _phase(
    bot: _Bot, gate: Gate | None, base: str, port: int, targets: _Targets,
    args: argparse.Namespace, flood: bool,
) -> dict[str, Any]:  # fmt: skip
    pool = bot.pool
    meter = Meter() if args.cpu else None
    players, flooded = targets.players, targets.flooded
    failures = pool.stats().spawn_failures
    refused = gate.refused if gate is not None else 0
    seconds = str(args.seconds)
    listed = ",".join(players)
    clients = []
    if flood:
        clients.append(await spawn("loris", "--port", str(port), "--loris", str(args.loris),
                                    "--seconds", str(args.seconds + 3),
                                    "--nice", str(args.hostile_nice)))  # fmt: skip
        await asyncio.sleep(3)  # the loris connections open
        others = ",".join(flooded)
        clients.append(await spawn("flood", "--base", base, "--players", others,
                                    "--games-flooded", ",".join(targets.games),
                                    "--clients", str(args.clients),
                                    "--seconds", seconds,
                                    "--nice", str(args.hostile_nice)))  # fmt: skip
    honest = await spawn("honest", "--base", base, "--players", listed, "--seconds", seconds)
    most_open = 0

    async def watch() -> None:
        nonlocal most_open
        while gate is not None:
            most_open = max(most_open, gate.open)
            await asyncio.sleep(0.1)

    async def metering() -> None:
        while meter is not None:
            await asyncio.sleep(1.0)
            meter.sample()

    watching = asyncio.create_task(watch())
    sampling = asyncio.create_task(metering())
    php, reveals = await asyncio.gather(
        _php(pool, args.seconds), ask_reveals(bot.revealer, args.reveals, args.seconds, bot.seeds)
    )
    results = [await result(p) for p in (honest, *clients)]
    watching.cancel()
    sampling.cancel()
    cpu = meter.result() if meter is not None else None
    await pool.settled()
    return {
        "php": php,
        "reveals": reveals,
        "honest": results[0],
        "flood": results[2] if flood else None,
        "loris": results[1] if flood else None,
        "most_open": most_open if gate is not None else "-",
        "refused": gate.refused - refused if gate is not None else "-",
        "spawn_failures": pool.stats().spawn_failures - failures,
        "workers": pool.live_workers,
        "cpu": cpu,
    }


async def _in_process(
    bot: _Bot, store: Store, key: str, targets: _Targets, args: argparse.Namespace
) -> Rounds:
    async with (
        ChartRenderer() as charts,  # started, as the bot's
        serve(create_app(store, NoNames(), charts=charts), "127.0.0.1", 0) as runner,
    ):
        port = int(runner.addresses[0][1])
        gate = next(iter(runner.sites)).gate  # type: ignore[attr-defined]
        base = f"http://127.0.0.1:{port}/s/{key}/"
        return await _rounds(bot, gate, base, port, targets, args)


async def _rounds(
    bot: _Bot, gate: Gate | None, base: str, port: int, targets: _Targets,
    args: argparse.Namespace,
) -> Rounds:  # fmt: skip
    """`--rounds` times a quiet run then a flood, on the same pages' server: each round's
    ratio, beside the others', says how much of one is the slowest reveal's chance."""

    async def run(flood: bool) -> dict[str, Any]:
        await bot.timed.renew(WARM_DIGITS)
        return await _phase(bot, gate, base, port, targets, args, flood)

    rounds: Rounds = []
    for _ in range(args.rounds):
        bot.seeds.new_round()
        quiet = await run(flood=False)
        bot.seeds.replay()  # the flood asks the quiet run's Digits again
        rounds.append({"quiet": quiet, "flood": await run(flood=True)})
    return rounds


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def _answering(url: str, within_s: float = 600.0) -> None:
    """Until the pages' process answers (it starts, opens the store, warms up: at
    SCHED_IDLE on a loaded machine, only as fast as the other work leaves a core idle)."""
    last = "nothing"
    deadline = time.perf_counter() + within_s
    async with aiohttp.ClientSession() as http:
        while time.perf_counter() < deadline:
            try:
                async with http.get(url) as answer:
                    if answer.status == 200:
                        return
                    last = f"HTTP {answer.status}"
            except aiohttp.ClientError as exc:
                last = type(exc).__name__
            await asyncio.sleep(0.1)
    raise RuntimeError(f"{url} did not answer 200 in {within_s:.0f} s (last: {last})")


async def _phases(
    bot: _Bot, port: int, key: str, targets: _Targets, args: argparse.Namespace
) -> Rounds:
    """The quiet and flood runs against pages served by another process on `port`."""
    base = f"http://127.0.0.1:{port}/s/{key}/"
    await _answering(f"{base}p/{targets.players[0]}")
    return await _rounds(bot, None, base, port, targets, args)


async def _together(
    bot: _Bot, store: Store, url: str, key: str, targets: _Targets, args: argparse.Namespace
) -> Rounds:
    port = _free_port()
    settings = BotSettings(discord_token=None, database_url=url, web_port=port)
    async with serve_pages(settings, store, "WARNING") as child:
        out = await _phases(bot, port, key, targets, args)
    assert getattr(child, "starts", 0) == 1, "the pages' child was restarted during the run"
    return out


NICE_ONLY = """
import os, sys
import bot.pages_child as pages
pages.step_aside = lambda: os.nice(pages.NICENESS)  # the child before SCHED_IDLE
from bot.cli import main
raise SystemExit(main(sys.argv[1:]))
"""


@dataclass(frozen=True)
class _NiceOnly(PagesCommand):
    """`formula-darts web --child` as it stepped aside before: nice +10, SCHED_OTHER."""

    def argv(self) -> list[str]:
        return [sys.executable, "-c", NICE_ONLY, *super().argv()[3:]]


async def _together_nice(
    bot: _Bot, store: Store, url: str, key: str, targets: _Targets, args: argparse.Namespace
) -> Rounds:
    """The same supervised child with the priority it had before SCHED_IDLE: the baseline
    for the policy, in the same run."""
    port = _free_port()
    command = _NiceOnly(url, "127.0.0.1", port, "WARNING")
    async with PagesChild(command, lambda: store.servers.changes) as child:
        out = await _phases(bot, port, key, targets, args)
    assert child.starts == 1, "the pages' child was restarted during the run"
    return out


async def _apart(
    bot: _Bot, url: str, key: str, targets: _Targets, args: argparse.Namespace
) -> Rounds:
    port = _free_port()
    web = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.cli", "web", "--url", url, "--host", "127.0.0.1",
        "--port", str(port), "--log-level", "WARNING", stdout=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    try:
        return await _phases(bot, port, key, targets, args)
    finally:
        if web.returncode is None:
            web.terminate()
        assert await web.wait() in (0, -15), "formula-darts web stopped during the run"


async def main_async(args: argparse.Namespace) -> int:
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (args.nofile, hard))
    load = f"{os.getloadavg()[0]:.1f}"
    settings = EvaluatorSettings(evaluator="local", pool_size=2, timeout_s=1.0, queue_limit=64)
    pool = make_pool(LocalWorkerFactory(settings), settings)
    await pool.start()
    data = Dataset(args.games, args.games * 5, 1, 200)
    out: dict[str, Rounds] = {}
    with tempfile.TemporaryDirectory(prefix="fd-flood-") as tmp:
        url = f"sqlite+aiosqlite:///{tmp}/web.sqlite3"
        store = await open_store(url)
        try:
            print(f"  loading {data.games:,} games ...", file=sys.stderr)
            await bulk_load(store, data)
            guild = next(iter(data.players))
            key = (await store.servers.set_web(guild, True, 0.0)).web_key
            assert key is not None
            async with store.engine.connect() as conn:
                found = await conn.execute(
                    sa.text("SELECT id FROM games WHERE guild_id = :g ORDER BY id LIMIT 64"),
                    {"g": guild},
                )
                games = [str(row[0]) for row in found]
            targets = _Targets(data.players[guild][:100], data.players[guild][100:], games)
            timed = TimedSolver(SolverProcess())
            try:
                revealer = ConfirmedSolver(cast(SolverProcess, timed), Evaluator(pool))
                bot = _Bot(pool, revealer, timed, Seeds())
                await ask_reveals(bot.revealer, args.reveals, 5.0, bot.seeds)  # warm
                for layout in args.layouts.split(","):
                    print(f"  {layout} ...", file=sys.stderr)
                    if layout == "together":
                        out[layout] = await _together(bot, store, url, key, targets, args)
                    elif layout == "together-nice":
                        out[layout] = await _together_nice(bot, store, url, key, targets, args)
                    elif layout == "apart":
                        out[layout] = await _apart(bot, url, key, targets, args)
                    else:
                        out[layout] = await _in_process(bot, store, key, targets, args)
            finally:
                await timed.solver.close()
        finally:
            await store.close()
    await pool.close()
    text = report(out, args, load)
    print(text)
    if not args.no_write:
        write_section("web-flood", text)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=3_000)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument(
        "--rounds", type=int, default=1,
        help="quiet-then-flood runs of each layout: each round's ratio and their median",
    )  # fmt: skip
    parser.add_argument("--loris", type=int, default=800)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--reveals", type=int, default=2, help="players asking reveals")
    parser.add_argument("--nofile", type=int, default=1024)
    parser.add_argument(
        "--hostile-nice", type=int, default=0,
        help="the flood's and the slow-loris's niceness: 19 stands for clients on machines "
        "of their own, whose CPU is not the bot's cores'",
    )  # fmt: skip
    parser.add_argument(
        "--layouts",
        default="together,apart",
        help="of together, together-nice, apart, in-process (comma)",
    )
    parser.add_argument(
        "--cpu", action="store_true",
        help="per phase, each process role's CPU and run-queue wait (/proc), and the "
        "reveals' solve beside their confirmation",
    )  # fmt: skip
    parser.add_argument("--no-write", action="store_true", help="do not update docs/BENCHMARKS.md")
    args = parser.parse_args(argv)
    unknown = set(args.layouts.split(",")) - LAYOUTS.keys()
    if unknown:
        parser.error(f"unknown layouts: {', '.join(sorted(unknown))}")
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    raise SystemExit(main())
