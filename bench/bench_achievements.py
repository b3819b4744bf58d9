"""What achievements cost a finished game (issue 32): `Rewards.summary_lines`, the one
hook a summary waits for, against the game's own final save measured in the same run.

A SQLite store (the bot's default) with `--players` players, each finishing `--games`
games one after another (Training checkouts and Qualifications on consecutive days, so
the streak query reads a growing history): for each game the final save is timed, then
the hook (the facts read, what is held, what is new stored, the summary's lines). Prints
both latencies and their ratio and writes the `achievements` section of
docs/BENCHMARKS.md. The bot's own work only: no Discord, no PHP.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import tempfile
import time
from datetime import date, timedelta

import rules
from bench._report import latency_cells, percentile, write_section
from bot.achievements import Rewards
from bot.storage import GameRecord, open_store
from rules import Mode

GUILD = 1
CHECKOUT = [100, 100, 100, 51]
DARTS = dataclasses.replace(rules.CLASSIC, attempts=100)


def game(game_id: str, player: int, mode: Mode, day: date) -> GameRecord:
    state = rules.new_game(game_id, mode, DARTS, [str(player)])
    for number, points in enumerate(CHECKOUT):
        state = rules.apply(state, rules.StartRound("1234", 100.0 * number))
        state = rules.apply(state, rules.Submit(str(player), "1234", points, 100.0 * number + 5))
    qualification = mode is Mode.QUALIFICATION
    return GameRecord(
        state=state, guild_id=GUILD, channel_id=1,
        period=day.isoformat() if qualification else None, seed="s" if qualification else None,
    )  # fmt: skip


async def run(players: int, games: int) -> tuple[list[float], list[float]]:
    saves: list[float] = []
    hooks: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        store = await open_store(f"sqlite+aiosqlite:///{tmp}/bench.sqlite3")
        rewards = Rewards(store, time.time)
        first = date(2026, 1, 1)
        try:
            for index in range(games):
                for player in range(players):
                    mode = Mode.QUALIFICATION if index % 2 else Mode.TRAINING
                    record = game(f"{index:08x}{player:08x}", 1000 + player, mode,
                                  first + timedelta(days=index))  # fmt: skip
                    start = time.perf_counter()
                    await store.games.save_game(record)
                    saved = time.perf_counter()
                    await rewards.summary_lines(record, "en")
                    hooks.append(time.perf_counter() - saved)
                    saves.append(saved - start)
        finally:
            await store.close()
    return saves, hooks


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=20)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    saves, hooks = asyncio.run(run(args.players, args.games))
    ratio = percentile(hooks, 99) / percentile(saves, 99)
    body = "\n".join([
        "## Achievements on a finished game (`bench/bench_achievements.py`)",
        "",
        f"{args.players} players each finish {args.games} games one after another (Training"
        " checkouts and Qualifications on consecutive days), SQLite; per game the final save"
        " (the baseline, measured in the same run) and then `Rewards.summary_lines`, the hook"
        " its summary waits for.",
        "",
        "| step | games | p50 | p90 | p99 | max ms |",
        "|---|---|---|---|---|---|",
        f"| final save (baseline) | {len(saves)} | {latency_cells(saves)} |",
        f"| achievements hook | {len(hooks)} | {latency_cells(hooks)} |",
        "",
        f"The hook's p99 is {ratio:.2f}× the save's.",
    ])  # fmt: skip
    print(body)
    if not args.no_write:
        write_section("achievements", body)


if __name__ == "__main__":
    main()
