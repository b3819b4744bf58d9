"""Longer chaos runs than CI's one seed: many seeds, many steps, each checked against every
invariant of tests/support/chaos.py (games end once, no round lost unseen, Elo zero-sum,
attempts accounted for, daily posts once, no Digits of a running period shown; rooms never
lost nor resolved twice, their tables and places once; Cups drawn once, each match one
result, one champion announced once, no leg lost), with the default side walk of rooms and
Cups (more of it than the suite's `SideWalk`).

    python -m bench.bench_chaos --seed 7 --steps 150      # replay one seed (a failure prints it)
    python -m bench.bench_chaos --seeds 20 --steps 400    # seeds 1..20
    python -m bench.bench_chaos --postgres --seeds 5      # on a throwaway PostgreSQL

It writes no numbers: it prints each seed's verdict and exits 1 when any seed broke one.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import sys
import tempfile
import time
from collections.abc import Iterator

from bench._postgres import throwaway_postgres
from bot.app import create_bot
from bot.settings import BotSettings, SoloGames
from bot.solving import ConfirmedSolver
from bot.storage import open_store
from evaluator import EvaluatorSettings, open_evaluator
from solver.process import SolverProcess
from tests.support.chaos import replay_command, seeded_digits
from tests.support.chaos_run import run_chaos


@contextlib.contextmanager
def _database(postgres: bool) -> Iterator[str]:
    if postgres:
        with throwaway_postgres() as url:
            yield url
        return
    with tempfile.TemporaryDirectory(prefix="fd-chaos-") as folder:
        yield f"sqlite+aiosqlite:///{folder}/chaos.sqlite3"


async def _one(seed: int, steps: int, url: str, evaluator: object, solver: SolverProcess) -> bool:
    store = await open_store(url)
    revealer = ConfirmedSolver(solver, evaluator)  # type: ignore[arg-type]
    settings = BotSettings(
        discord_token=None, database_url=url, dev_guild_id=None, solo_games=SoloGames.THREAD
    )
    digits = seeded_digits(seed)  # as the test's run: a seed replays its games
    started = time.perf_counter()
    try:
        chaos, broken = await run_chaos(
            seed, steps, store=store,
            make_bot=lambda: create_bot(
                settings, store=store, evaluator=evaluator,  # type: ignore[arg-type]
                revealer=revealer, closest=revealer, digits_source=digits,
            ),
        )  # fmt: skip
    except AssertionError as error:
        cause = error.__cause__
        broken, chaos = [str(error) + (f" ({cause!r})" if cause is not None else "")], None
    finally:
        await store.close()
    took = time.perf_counter() - started
    verdict = "held" if not broken else "BROKE"
    print(f"seed {seed}: {verdict} in {took:.0f} s", flush=True)
    if chaos is not None:
        for what in ("modes", "endings", "rooms", "room rounds", "cup"):
            print(f"  {what}: {dict(chaos.report[what])}", flush=True)
    for line in broken:
        print(f"  {line}", flush=True)
    if broken:
        print(f"  replay: {replay_command(seed, steps)}", flush=True)
    return not broken


async def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("--seed", type=int, help="one seed (replays a failure)")
    parser.add_argument("--seeds", type=int, default=5, help="seeds 1..N when --seed is not given")
    parser.add_argument("--steps", type=int, default=300)
    parser.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.CRITICAL)  # the faults are meant to be logged: quiet
    seeds = [args.seed] if args.seed is not None else list(range(1, args.seeds + 1))
    evaluator = await open_evaluator(EvaluatorSettings(evaluator="local", pool_size=2))
    solver = SolverProcess(timeout_s=120)
    solver.spawn()
    held = True
    try:
        for seed in seeds:
            with _database(args.postgres) as url:
                held = await _one(seed, args.steps, url, evaluator, solver) and held
    finally:
        await evaluator.close()
        await solver.close()
    return 0 if held else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1:])))
