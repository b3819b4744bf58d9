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
apart, new Digits each time), a round's confirmed best answer as the game flow does
(`ConfirmedSolver.best`: the solver's process, then PHP through the same pool): issue 29
asks their p99 under the flood to stay within 1.5x of the quiet run's. The same run is
done quiet first, as the baseline. Prints and writes the `web-flood` section of
docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import resource
import socket
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import Any

import aiohttp
import sqlalchemy as sa

import rules
from bench._flood_clients import result, spawn
from bench._report import latency_cells, percentile, write_section
from bench._solver_inputs import round_score
from bench._storage_data import Dataset, bulk_load
from bot.charts import ChartRenderer
from bot.common.serving import Gate
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


async def _reveals(revealer: ConfirmedSolver, players: int, seconds: float) -> dict[str, Any]:
    """Players each asking a round's confirmed best answer, waiting for it, 1 s apart."""
    times: list[float] = []
    empty = 0
    deadline = time.perf_counter() + seconds

    async def player(seed: int) -> None:
        nonlocal empty
        rng = random.Random(seed)
        while time.perf_counter() < deadline:
            began = time.perf_counter()
            found = await revealer.best(rules.random_digits(rng), round_score(rng), rules.CLASSIC)
            times.append(time.perf_counter() - began)
            empty += found is None
            await asyncio.sleep(1.0)

    await asyncio.gather(*(player(29 + n) for n in range(players)))
    return {"times": times, "empty": empty}


@dataclass(frozen=True)
class _Bot:
    """The bot's parts the phases use: its PHP pool and its reveals (solver, then PHP)."""

    pool: WorkerPool
    revealer: ConfirmedSolver


@dataclass(frozen=True)
class _Targets:
    """Whose pages the honest reader asks, and what the flood asks (pages, replays)."""

    players: list[str]
    flooded: list[str]
    games: list[str]


async def _phase(
    bot: _Bot, gate: Gate | None, base: str, port: int, targets: _Targets,
    args: argparse.Namespace, flood: bool,
) -> dict[str, Any]:  # fmt: skip
    pool = bot.pool
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

    watching = asyncio.create_task(watch())
    php, reveals = await asyncio.gather(
        _php(pool, args.seconds), _reveals(bot.revealer, args.reveals, args.seconds)
    )
    results = [await result(p) for p in (honest, *clients)]
    watching.cancel()
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
    }


LAYOUTS = {
    "together": "the bot's own wiring for WEB_PORT: its supervised `formula-darts web` child",
    "apart": "`formula-darts web` started apart, beside the bot",
    "in-process": "the pages on the bot's own event loop (what WEB_PORT did before)",
}


def report(out: dict[str, dict[str, Any]], args: argparse.Namespace, load: str) -> str:
    lines = [
        "## Web port under a flood (`bench/bench_web_flood.py`)",
        "",
        f"A process like the bot (RLIMIT_NOFILE {args.nofile}): one server's {args.games:,} "
        "games, a bubblewrap PHP pool of 2 answering formulas in two lanes and timing one out "
        "every 2 s (a worker replaced each time). The pages on loopback, served by "
        + "; ".join(f"`{name}`: {LAYOUTS[name]}" for name in out)
        + ". "
        f"Quiet, then with {args.loris} slow-loris connections and {args.clients} clients "
        f"asking other players' pages and replays, {args.seconds:.0f} s each; an honest reader "
        "asks a board and a player page one after another throughout, and "
        f"{args.reveals} players each ask a round's confirmed best answer (solver, then PHP), "
        "1 s apart. The flood's and the slow-loris's processes ran at niceness "
        f"{args.hostile_nice} (19: standing for clients elsewhere, whose CPU is not the "
        f"bot's cores'). Load average before the run: {load}.",
        "",
        "| layout | run | reveals | reveal p50 | p90 | p99 | max ms | empty "
        "| honest answers | honest p50 | p90 | p99 | max ms | PHP p50 | p90 "
        "| p99 | max ms | workers replaced | replacements failed | most connections open "
        "| refused (503) | flood answers |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    notes = []
    for layout, runs in out.items():
        for name, run in runs.items():
            honest = run["honest"]
            answered = ", ".join(f"{k}: {v}" for k, v in sorted(honest["statuses"].items()))
            flooded = (
                ", ".join(f"{k}: {v}" for k, v in sorted(run["flood"]["statuses"].items()))
                if run["flood"]
                else "-"
            )
            reveals = run["reveals"]
            lines.append(
                f"| {layout} | {name} | {len(reveals['times'])} "
                f"| {latency_cells(reveals['times'])} | {reveals['empty']} "
                f"| {answered} | {latency_cells(honest['times'])} "
                f"| {latency_cells(run['php']['times'])} | {run['php']['hung']} "
                f"| {run['spawn_failures']} | {run['most_open']} | {run['refused']} "
                f"| {flooded} |"
            )
        quiet, flood = runs["quiet"], runs["flood"]
        ratio = percentile(flood["php"]["times"], 99) / percentile(quiet["php"]["times"], 99)
        reveals = percentile(flood["reveals"]["times"], 99) / percentile(
            quiet["reveals"]["times"], 99
        )
        loris = flood["loris"] or {}
        notes.append(
            f"{layout}: **reveals p99 flood / quiet {reveals:.2f}x** (target <= 1.5x); "
            f"PHP p99 flood / quiet {ratio:.2f}x; the slow-loris opened "
            f"{loris.get('opened', 0):,} connections (each closed by the 5 s header timeout "
            f"or refused, then reopened); workers alive at the end: {flood['workers']}."
        )
    return "\n".join([*lines, "", *notes])


async def _in_process(
    bot: _Bot, store: Store, key: str, targets: _Targets, args: argparse.Namespace
) -> dict[str, Any]:
    async with (
        ChartRenderer() as charts,  # started, as the bot's
        serve(create_app(store, NoNames(), charts=charts), "127.0.0.1", 0) as runner,
    ):
        port = int(runner.addresses[0][1])
        gate = next(iter(runner.sites)).gate  # type: ignore[attr-defined]
        base = f"http://127.0.0.1:{port}/s/{key}/"
        return {
            name: await _phase(bot, gate, base, port, targets, args, name == "flood")
            for name in ("quiet", "flood")
        }


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def _answering(url: str) -> None:
    """Until the pages' process answers (it starts, opens the store, warms up)."""
    async with aiohttp.ClientSession() as http:
        for _ in range(600):
            try:
                async with http.get(url) as answer:
                    if answer.status == 200:
                        return
            except aiohttp.ClientError:
                await asyncio.sleep(0.1)
    raise RuntimeError(f"{url} never answered")


async def _phases(
    bot: _Bot, port: int, key: str, targets: _Targets, args: argparse.Namespace
) -> dict[str, Any]:
    """The quiet and flood runs against pages served by another process on `port`."""
    base = f"http://127.0.0.1:{port}/s/{key}/"
    await _answering(f"{base}p/{targets.players[0]}")
    return {
        name: await _phase(bot, None, base, port, targets, args, name == "flood")
        for name in ("quiet", "flood")
    }


async def _together(
    bot: _Bot, store: Store, url: str, key: str, targets: _Targets, args: argparse.Namespace
) -> dict[str, Any]:
    port = _free_port()
    settings = BotSettings(discord_token=None, database_url=url, web_port=port)
    async with serve_pages(settings, store, "WARNING") as child:
        out = await _phases(bot, port, key, targets, args)
    assert getattr(child, "starts", 0) == 1, "the pages' child was restarted during the run"
    return out


async def _apart(
    bot: _Bot, url: str, key: str, targets: _Targets, args: argparse.Namespace
) -> dict[str, Any]:
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
    out: dict[str, dict[str, Any]] = {}
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
            async with SolverProcess() as solver:
                bot = _Bot(pool, ConfirmedSolver(solver, Evaluator(pool)))
                await _reveals(bot.revealer, args.reveals, 5.0)  # warm
                for layout in args.layouts.split(","):
                    print(f"  {layout} ...", file=sys.stderr)
                    if layout == "together":
                        out[layout] = await _together(bot, store, url, key, targets, args)
                    elif layout == "apart":
                        out[layout] = await _apart(bot, url, key, targets, args)
                    else:
                        out[layout] = await _in_process(bot, store, key, targets, args)
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
        "--layouts", default="together,apart", help="of together, apart, in-process (comma)"
    )
    parser.add_argument("--no-write", action="store_true", help="do not update docs/BENCHMARKS.md")
    args = parser.parse_args(argv)
    unknown = set(args.layouts.split(",")) - LAYOUTS.keys()
    if unknown:
        parser.error(f"unknown layouts: {', '.join(sorted(unknown))}")
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    raise SystemExit(main())
