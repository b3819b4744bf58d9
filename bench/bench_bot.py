"""Bot load run on simcord: many concurrent games across many servers, every round answered.

All games are open at once (200 across 50 servers by default); the players answer
round by round, interleaved across games, through the real path: the Answer button,
the modal, the real local PHP pool, the SQLite store, the round result posted. The
latency of one answer is from the modal submit until simcord has settled, that is
until the result (and the next round) is posted. Memory per game is what Python
allocates while the games are opened and their first round is posted (tracemalloc).

    python -m bench.bench_bot [--games 200] [--guilds 50] [--no-write]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
import tracemalloc
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import simcord

import rules
from bench._report import percentile, write_section
from bot.app import create_bot
from bot.settings import BotSettings, SoloGames
from bot.storage import open_store
from evaluator import EvaluatorSettings, open_evaluator
from tests.support.sim import RealWorkEnv


@dataclass
class Player:
    actor: simcord.MemberActor
    thread: simcord.ChannelHandle | None = None


def answer_id(message: Any) -> str | None:
    """The Answer button's custom_id, None when the message has none: a finished game's
    last message has buttons too (Share), so "has components" does not mean "playing"."""
    for row in message.components:
        for child in getattr(row, "children", []):
            if getattr(child, "custom_id", "").startswith("fd:ans:"):
                return str(child.custom_id)
    return None


def digits_of(message: Any) -> str:
    return str(message.embeds[0].fields[0].value).strip("*")


def _slow_clock_sets() -> list[rules.GameSet]:
    """The shipped Sets with the longest time limit: simcord falls back to real time for
    a timer whose task is busy, so a 120 s round could expire during a long run."""
    return [replace(s, time_limit=600) for s in rules.load_sets().values()]


async def run(games: int, guilds: int, pool_size: int) -> dict[str, Any]:
    per_guild = -(-games // guilds)
    with tempfile.TemporaryDirectory() as tmp:
        store = await open_store(f"sqlite+aiosqlite:///{tmp}/bench.sqlite3")
        evaluator = await open_evaluator(EvaluatorSettings(evaluator="local", pool_size=pool_size))
        sets_file = Path(tmp) / "sets.yaml"
        sets_file.write_text(rules.dump_sets(_slow_clock_sets()), encoding="utf-8")
        settings = BotSettings(  # threads: the players' rounds are read from them here
            database_url=f"sqlite+aiosqlite:///{tmp}/unused.sqlite3", sets_file=sets_file,
            solo_games=SoloGames.THREAD,
        )  # fmt: skip
        bot = create_bot(settings, store=store, evaluator=evaluator)
        # the bot is an AutoShardedClient: simcord needs the count Discord would give it;
        # RealWorkEnv: the start's settle waits for real work too (simcord fixes it at 5 s,
        # which a loaded machine missed: the smoke test failed in `scripts/test --loaded`)
        env = RealWorkEnv(bot, shard_count=1)
        await env.start()
        try:
            with env.time_context():
                return await _play(env, games, guilds, per_guild)
        finally:
            await env.shutdown()
            await evaluator.close()
            await store.close()


def _time_submits(env: simcord.Env) -> list[float]:
    """Also time GameService.submit alone (PHP, rules, store, posting the result),
    so the bot's own cost shows apart from the simulator's settling."""
    service = env.bot.service  # type: ignore[attr-defined]
    original = service.submit
    samples: list[float] = []

    async def timed(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return await original(*args, **kwargs)
        finally:
            samples.append(time.perf_counter() - started)

    service.submit = timed
    return samples


async def _play(env: simcord.Env, games: int, guilds: int, per_guild: int) -> dict[str, Any]:
    players: list[tuple[simcord.ChannelHandle, Player]] = []
    for g in range(guilds):
        guild = env.create_guild(f"server {g}")
        channel = guild.create_text_channel("games")
        for p in range(per_guild):
            if len(players) == games:
                break
            players.append((channel, Player(guild.add_member(env.create_user(f"p{g}-{p}")))))

    tracemalloc.start()
    before, _ = tracemalloc.get_traced_memory()
    started = time.perf_counter()
    for channel, player in players:
        known = {t.id for t in channel.threads}
        await player.actor.slash(channel, "training")
        player.thread = next(t for t in channel.threads if t.id not in known)
    start_seconds = time.perf_counter() - started
    after, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()

    inner = _time_submits(env)
    latencies: list[float] = []
    answers_started = time.perf_counter()
    max_rounds = 7
    for _ in range(max_rounds):
        for _channel, player in players:
            assert player.thread is not None
            message = player.thread.last_message
            button = None if message is None else answer_id(message)
            if message is None or button is None:
                continue
            shown = await player.actor.click(message, custom_id=button)
            formula = "+".join(digits_of(message))
            t0 = time.perf_counter()
            await player.actor.submit_modal(shown, {"formula": formula})
            latencies.append(time.perf_counter() - t0)
    answer_seconds = time.perf_counter() - answers_started
    finished = sum(
        1
        for _channel, player in players
        if player.thread is not None
        and player.thread.last_message is not None
        and answer_id(player.thread.last_message) is None
    )
    return {
        "games": len(players),
        "guilds": guilds,
        "answers": len(latencies),
        "finished": finished,
        "inner_p50_ms": percentile(inner, 50) * 1000,
        "inner_p99_ms": percentile(inner, 99) * 1000,
        "p50_ms": percentile(latencies, 50) * 1000,
        "p99_ms": percentile(latencies, 99) * 1000,
        "max_ms": max(latencies) * 1000,
        "answers_per_s": len(latencies) / answer_seconds,
        "start_ms": start_seconds / len(players) * 1000,
        "kib_per_game": (after - before) / len(players) / 1024,
    }


SIMCORD_NOTE = """
Both latencies include simcord: its settling scans every pending task and timer after each \
step (cProfile of a 100-game run: most time in `simcord._settlement`), and the bot's awaits \
run through simcord's patched event loop, so both grow with the number of open games \
(10 games: p50 9 ms, bot's own 7.5 ms). The evaluator alone is ~0.05 ms (pool section); on \
real Discord the answer cost is PHP, SQLite writes and three REST calls (result, next \
round, old button removed).
"""


def report(result: dict[str, Any], pool_size: int) -> str:
    return (
        f"{result['games']} Training games (`darts`, time limit raised to 600 s) open at once "
        f"across {result['guilds']} servers "
        f"(simcord, real local PHP pool of {pool_size}, SQLite store); every round answered "
        f"through the Answer button and the modal, interleaved across games.\n\n"
        "| measure | value |\n|---|---|\n"
        f"| answers handled | {result['answers']} ({result['finished']} games finished) |\n"
        f"| answer handling p50 (modal submit → result posted) | {result['p50_ms']:.1f} ms |\n"
        f"| answer handling p99 | {result['p99_ms']:.1f} ms |\n"
        f"| answer handling max | {result['max_ms']:.1f} ms |\n"
        f"| of which the bot's own work p50 / p99 (GameService.submit: PHP, rules, "
        f"save, result posted) | {result['inner_p50_ms']:.1f} / {result['inner_p99_ms']:.1f} ms |\n"
        f"| answers per second (one simulated client, sequential) | "
        f"{result['answers_per_s']:.0f} |\n"
        f"| starting a game (command → thread → round 1 posted) | {result['start_ms']:.1f} ms |\n"
        f"| memory per open game (tracemalloc, bot + simcord's copy) | "
        f"{result['kib_per_game']:.0f} KiB |\n" + SIMCORD_NOTE
    )


BOUND = (
    "Simulator-bound: these times are mostly simcord's own (see the last paragraph); the "
    'bot\'s own cost per answer, without a simulator, is in "Service, headless" below.'
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--guilds", type=int, default=50)
    parser.add_argument("--pool-size", type=int, default=min(8, os.cpu_count() or 1))
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args()
    result = asyncio.run(run(args.games, args.guilds, args.pool_size))
    body = report(result, args.pool_size)
    print(body)
    if not args.no_write:
        write_section("bot", f"## Bot (simcord load run, simulator-bound)\n\n{BOUND}\n\n{body}")
        print(f"written to {Path('docs/BENCHMARKS.md')}")


if __name__ == "__main__":
    main()
