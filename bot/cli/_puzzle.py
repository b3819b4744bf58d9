"""`formula-darts puzzle`: a puzzle Storm (or `--streak`) in the terminal, from the
stored pool (`bot.puzzles`); a short pool is topped up first with the solver."""

from __future__ import annotations

import argparse
from typing import Any

READY = 10
"""Puzzles the terminal wants in the pool before a run starts."""


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "puzzle", help="play a puzzle Storm (or --streak) in the terminal"
    )
    parser.add_argument("--set", dest="set_name", default=None, help="Set name (default: darts)")
    parser.add_argument("--streak", action="store_true", help="a Streak instead of a Storm")
    parser.add_argument("--url", default=None, help="database URL (default: DATABASE_URL)")
    parser.add_argument(
        "--lang", default=None, choices=("en", "uk"),
        help="the language it speaks (default: from LC_ALL / LC_MESSAGES / LANG, else en)",
    )  # fmt: skip
    parser.set_defaults(func=_puzzle)


def _puzzle(args: argparse.Namespace) -> int:
    import asyncio

    return asyncio.run(_run(args))


async def _run(args: argparse.Namespace) -> int:
    import os
    import sys
    import time

    import rules
    from bot.achievements import Rewards
    from bot.common import SetsDirectory
    from bot.i18n import t
    from bot.puzzles import PoolFiller, PuzzleRuns, play_puzzles, stdin_lines
    from bot.settings import BotSettings
    from bot.solving import ConfirmedSolver
    from bot.storage import PuzzleKind, normalize_url, open_store
    from bot.terminal import reader_locale
    from evaluator import open_evaluator
    from solver.process import Lane, SolverProcess

    locale = reader_locale(args.lang, os.environ)
    sets = rules.load_sets()
    name = args.set_name or "darts"
    if name not in sets:
        available = ", ".join(sets)
        print(t("terminal.no_set", locale, name=repr(name), available=available), file=sys.stderr)
        return 2
    game_set = sets[name]
    url = normalize_url(args.url or BotSettings().database_url)
    async with (
        await open_store(url) as store,
        await open_evaluator(languages=[game_set.language]) as evaluator,
    ):
        missing = READY - await store.puzzles.count(game_set)
        if missing > 0:
            print(t("terminal.preparing", locale, count=missing, set=name), file=sys.stderr)
            async with SolverProcess() as solver:
                filler = PoolFiller(store, ConfirmedSolver(solver, evaluator, lane=Lane.AHEAD))
                while await store.puzzles.count(game_set) < READY:
                    await filler.add_one(game_set)
        runs = PuzzleRuns(
            store, evaluator, SetsDirectory(store, sets), time.time,
            events=Rewards(store, time.time),  # the summary lists what the run earned
        )  # fmt: skip
        kind = PuzzleKind.STREAK if args.streak else PuzzleKind.STORM
        await play_puzzles(runs, kind, name, stdin_lines(), sys.stdout, locale=locale)
    return 0
