"""Replays and player pages flooded while games are played (issue 29): the reveals' p99.

One process set up as the bot runs with WEB_PORT: a SQLite store, the real PHP pool,
the solver's processes, the web app on a loopback port and the best answers' backfill
at its own pace (`BestBackfill`, the solver's lowest lane). `--games` past
Qualification games of `--rounds` rounds each kept no best answers (games from before
they were kept). Games are played as the flow asks for its reveals: `--players`
players each ask, one after another, a round's confirmed best answer
(`ConfirmedSolver.best` on new Digits and an ordinary Score), `--think` s apart.

Three phases of `--seconds` each, in one run: quiet (the reveals alone, the baseline),
replays (`--clients` clients over the games' replays), and replays with player pages
(half the clients each). Prints the reveals' latency per phase and its ratio to the
quiet one, the pages served and their latency, and writes the `replays` section of
docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import random
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field

import aiohttp
from aiohttp.test_utils import TestServer

import rules
from bench._report import latency_cells, percentile, write_section
from bench._solver_inputs import round_score
from bot.play import BestBackfill, backfilling
from bot.solving import ConfirmedSolver
from bot.storage import GameMeta, GameRecord, Store, open_store
from bot.web import create_app
from evaluator import open_evaluator
from evaluator.settings import EvaluatorSettings
from solver.process import Lane, SolverProcess

GUILD = 1
PAST = "2026-01-01"


@dataclass
class Phase:
    reveals: list[float] = field(default_factory=list)
    empty: int = 0
    pages: list[float] = field(default_factory=list)
    statuses: Counter[int] = field(default_factory=Counter)
    loads: list[float] = field(default_factory=list)


async def populate(store: Store, games: int, rounds: int, rng: random.Random) -> list[str]:
    """Past Qualification games, one player each, without best answers; their ids."""
    ids = []
    for index in range(games):
        game_id = f"{index:032x}"
        player = str(1000 + index)
        state = rules.new_game(game_id, rules.Mode.QUALIFICATION, rules.CLASSIC, [player])
        for number in range(rounds):
            digits = rules.random_digits(rng)
            state = rules.apply(state, rules.StartRound(digits, 1000.0 * number))
            state = rules.apply(state, rules.Submit(player, digits, 1, 1000.0 * number + 9))
        record = GameRecord(
            state=state, guild_id=GUILD, channel_id=1, period=PAST, seed="s",
            created_at=1_767_225_600.0, meta=GameMeta(),
        )  # fmt: skip
        await store.games.save_game(record)
        ids.append(game_id)
    return ids


async def play(revealer: ConfirmedSolver, phase: Phase, stop: asyncio.Event, seed: int,
               think: float) -> None:  # fmt: skip
    """A player's rounds: each one's reveal asked and waited for, as the flow does."""
    rng = random.Random(seed)
    while not stop.is_set():
        began = time.perf_counter()
        found = await revealer.best(rules.random_digits(rng), round_score(rng), rules.CLASSIC)
        phase.reveals.append(time.perf_counter() - began)
        phase.empty += found is None
        await asyncio.sleep(think)


async def flood(urls: list[str], phase: Phase, stop: asyncio.Event) -> None:
    """One client asking the pages in turn, as fast as they are answered."""
    async with aiohttp.ClientSession() as http:
        for url in itertools.cycle(urls):
            if stop.is_set():
                return
            began = time.perf_counter()
            async with http.get(url) as response:
                await response.read()
            phase.pages.append(time.perf_counter() - began)
            phase.statuses[response.status] += 1


async def run_phase(
    revealer: ConfirmedSolver, clients: list[list[str]], args: argparse.Namespace, seed: int,
    *, seconds: float | None = None,
) -> Phase:  # fmt: skip
    phase = Phase(loads=[os.getloadavg()[0]])
    stop = asyncio.Event()
    tasks = [
        asyncio.ensure_future(play(revealer, phase, stop, seed + n, args.think))
        for n in range(args.players)
    ]
    tasks += [asyncio.ensure_future(flood(urls, phase, stop)) for urls in clients]
    await asyncio.sleep(args.seconds if seconds is None else seconds)
    stop.set()
    await asyncio.gather(*tasks)
    phase.loads.append(os.getloadavg()[0])
    return phase


async def main_async(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="fd-replays-") as tmp:
        store = await open_store(f"sqlite+aiosqlite:///{tmp}/replays.sqlite3")
        try:
            ids = await populate(store, args.games, args.rounds, rng)
            key = (await store.servers.set_web(GUILD, True, 0.0)).web_key
            async with (
                await open_evaluator(EvaluatorSettings(evaluator="local", pool_size=2)) as php,
                SolverProcess() as solver,
            ):
                revealer = ConfirmedSolver(solver, php)
                backfill = BestBackfill(store, ConfirmedSolver(solver, php, lane=Lane.BACKFILL))
                server = TestServer(create_app(store), host="127.0.0.1")
                await server.start_server()
                try:
                    base = f"/s/{key}/"
                    replays = [str(server.make_url(f"{base}g/{i}")) for i in ids]
                    players = [str(server.make_url(f"{base}p/{1000 + n}")) for n in range(len(ids))]
                    mixed = [replays if n % 2 else players for n in range(args.clients)]
                    phases: dict[str, Phase] = {}
                    await run_phase(revealer, [], args, args.seed - 1, seconds=5.0)  # warm
                    async with backfilling(backfill):
                        for name, clients in (
                            ("quiet", []),
                            ("replays", [replays] * args.clients),
                            ("replays + player pages", mixed),
                        ):
                            print(f"  {name} ...", file=sys.stderr)
                            phases[name] = await run_phase(revealer, clients, args, args.seed)
                finally:
                    await server.close()
            kept = sum([len(await store.best.found(i)) for i in ids])
        finally:
            await store.close()
    text = report(phases, backfill.solved, kept, args)
    print(text)
    if not args.no_write:
        write_section("replays", text)
    return 0


def report(phases: dict[str, Phase], backfilled: int, kept: int, args: argparse.Namespace) -> str:
    quiet = percentile(phases["quiet"].reveals, 99)
    lines = [
        "## Replays flooded while games are played (`bench/bench_replays.py`)",
        "",
        f"{args.games} past Qualification games of {args.rounds} rounds kept no best answers; "
        f"{args.players} players ask a round's confirmed reveal one after another "
        f"({args.think} s apart, new Digits each time) while {args.clients} clients ask pages "
        f"as fast as they are answered, {args.seconds:.0f} s a phase; the bot's parts in one "
        "process (the pages on its loop, as with WEB_PORT), the backfill at its own pace. "
        "A view asks the solver nothing: the replays show what the backfill kept.",
        "",
        "| phase | reveals | empty | reveal p50 | p90 | p99 | max ms | p99 / quiet "
        "| pages | statuses | page p50 | page p99 ms | load avg |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, phase in phases.items():
        ratio = percentile(phase.reveals, 99) / quiet
        statuses = ", ".join(f"{k}: {v}" for k, v in sorted(phase.statuses.items())) or "–"
        pages = (
            f"{percentile(phase.pages, 50) * 1000:.0f} | {percentile(phase.pages, 99) * 1000:.0f}"
            if phase.pages
            else "– | –"
        )
        loads = " → ".join(f"{x:.1f}" for x in phase.loads)
        lines.append(
            f"| {name} | {len(phase.reveals)} | {phase.empty} | {latency_cells(phase.reveals)} "
            f"| {ratio:.2f}× | {len(phase.pages)} | {statuses} | {pages} | {loads} |"
        )
    lines += [
        "",
        f"The backfill asked the solver {backfilled} time(s) over the run "
        f"({kept} best answers kept).",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--no-write", action="store_true", help="do not update docs/BENCHMARKS.md")
    return asyncio.run(main_async(parser.parse_args(argv)))


if __name__ == "__main__":
    raise SystemExit(main())
